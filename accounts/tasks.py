"""No tasks here any more: the turn mail, its sweep and the deadline reminders are match
notifications and run from ``games.tasks``, under their old ``accounts.*`` task names (queued
messages and beat's schedule carry those names).

The module stays, empty, because the integration tests' Celery worker lists it in
``celery_includes`` (``tests/integration/conftest.py``); it can go once that list drops it.
"""
