"""The ASGI application the Procfile's ``web:`` serves (gunicorn with uvicorn workers): Django,
behind a queue that lets the pool's size of pages run at once in a process (core/page_queue.py).

https://docs.djangoproject.com/en/5.2/howto/deployment/asgi/
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_application = get_asgi_application()

from django.conf import settings  # noqa: E402 (settings are ready once the application is)

from core.page_queue import PageQueue  # noqa: E402

application = PageQueue(django_application, settings.PARLOUR_ASGI_PAGES)
