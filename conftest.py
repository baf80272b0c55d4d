"""Root pytest configuration shared by every kind of test."""

import os

# Playwright's sync API keeps an event loop running in the test thread; Django would otherwise
# refuse database calls made from it, and later database tests in the same process would fail.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

pytest_plugins = ("celery.contrib.pytest",)
