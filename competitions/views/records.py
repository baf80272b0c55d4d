"""How an event's record is answered (docs/competitions.md, "Records"): the leagues', cups' and
ladder's ``record.json`` views build their record and hand it here."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse


def record_json_response(
    request: HttpRequest, record: dict[str, Any], filename: str
) -> HttpResponse:
    """``record`` as UTF-8 JSON (sorted keys, one-space indents: the same bytes every time, so a
    download can be compared), private to caches; ``?download=1`` offers it as ``filename``."""
    body = json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False)
    response = HttpResponse((body + "\n").encode("utf-8"), content_type="application/json")
    response["Cache-Control"] = "private"
    if request.GET.get("download") == "1":
        response["Content-Disposition"] = f"attachment; filename={filename}"
    return response


def record_not_ready(words: str) -> HttpResponse:
    """A 409 with ``words``: the event has not ended, so its record is not whole yet."""
    return HttpResponse(words + "\n", status=409, content_type="text/plain; charset=utf-8")
