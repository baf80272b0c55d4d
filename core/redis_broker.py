"""kombu's Redis transport, with a worker that survives losing Redis while it holds messages.

When Redis goes away, Celery 5.7's consumer first collects the broken connection (which drops
the transport's link to its ``Connection``) and then closes it. Closing a channel restores the
messages the worker had reserved but not acknowledged (a turn mail waiting for its countdown,
say), and that restore builds a Redis client from the link just dropped: ``AttributeError:
'NoneType' object has no attribute 'hostname'``, which Celery does not count as a connection
error, so the worker logs "Unrecoverable error" and exits. Reproduced by tests/faults (Redis
stopped with turn mails reserved); kombu issue #582 shows the same failure on another path.

Here a restore over a connection already torn down is skipped. Nothing is lost by it: the
reserved messages are still in Redis's unacknowledged set (or were lost with Redis itself), and
kombu's ``restore_visible`` puts them back in the queue after the visibility timeout; bot turns
and deals are re-sent sooner by the sweeper (games.sweep_stalled).
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis

logger = logging.getLogger("parlour.broker")


class QoS(redis.QoS):
    def restore_unacked(self, client: Any = None) -> Any:
        if client is None and self.channel.connection.client is None:
            logger.warning(
                "broker connection lost: %s reserved message(s) left for Redis to redeliver "
                "after the visibility timeout",
                len(self._delivered),
            )
            self._delivered.clear()
            return None
        return super().restore_unacked(client)


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel
