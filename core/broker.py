"""kombu's filesystem transport with atomic writes: the broker of the embedded default.

kombu's own ``_put`` creates the ``.msg`` file and only then writes the message into it, so a
worker listing the folder in between reads an empty file and dies on ``JSONDecodeError``
(kombu issue #1551; seen under ``make run`` with a bot answering every move). Here a message
is written under a name the readers skip and then renamed into place, which POSIX makes atomic:
a reader sees either no message or all of it.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        # A leading dot and no ".msg": ``_get`` matches ``<anything>.<queue>.msg`` only.
        partial = os.path.join(self.data_folder_out, f".{uuid.uuid4()}.part")
        try:
            with open(partial, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
