"""Streamed responses as each server wants them: an async iterator under the ASGI server.

Django's ``FileResponse`` (WhiteNoise's static files, a data export's download) and any other
response streamed from a sync iterator are, under the ASGI server, read whole in one thread call,
with the warning "StreamingHttpResponse must consume synchronous iterators in order to serve
them asynchronously" each time. This middleware, the outermost, hands such a response's chunks
on as an async iterator instead, each chunk read in a worker thread (the event loop never waits
on the disk). Under WSGI (``runserver``, the test server) it passes every response by as it is:
a sync iterator is what that server wants.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponseBase
from django.utils.deprecation import MiddlewareMixin


async def _chunks_read_in_threads(chunks: Iterator[bytes]) -> AsyncIterator[bytes]:
    """``chunks`` as an async iterator: each ``next`` in a worker thread."""
    read = sync_to_async(next, thread_sensitive=False)
    while (chunk := await read(chunks, None)) is not None:
        yield chunk


class AsyncStreamingMiddleware(MiddlewareMixin):
    """Under ASGI, a response streamed from a sync iterator streams from an async one. Told by
    the request's kind, not by the mode the middleware runs in: below sync-only middleware
    (WhiteNoise's) Django runs it sync, in a thread, under ASGI as well."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if isinstance(request, ASGIRequest) and response.streaming and not response.is_async:
            # A file's closer stays registered: the file is closed when the response is.
            response.streaming_content = _chunks_read_in_threads(iter(response.streaming_content))
        return response
