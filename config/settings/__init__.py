"""Parlour settings: everything comes from the environment, with embedded defaults.

Embedded default (no variables set): SQLite file in ``var/``, Celery tasks run in process.
Full stack: ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (Celery broker).
``CELERY_BROKER_URL=filesystem`` runs a real worker on kombu's filesystem transport (make run).

One module a concern, composed here (``DJANGO_SETTINGS_MODULE=config.settings`` names this
package). A module that needs another's value imports it by name, so the order below does not
change a value. Every variable they read is in docs/configuration.md, one table grouped the same
way, and ``tests/unit/test_configuration_doc.py`` holds the two together.
"""

from config.settings.base import *  # noqa: F403
from config.settings.celery import *  # noqa: F403
from config.settings.database import *  # noqa: F403
from config.settings.games import *  # noqa: F403
from config.settings.ladder import *  # noqa: F403
from config.settings.live import *  # noqa: F403
from config.settings.mail import *  # noqa: F403
from config.settings.push import *  # noqa: F403
from config.settings.security import *  # noqa: F403
from config.settings.throttling import *  # noqa: F403
