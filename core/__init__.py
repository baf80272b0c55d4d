"""The platform under the games and the accounts (docs/architecture.md, "The layers").

What every page and process stands on and no game or person owns: the middlewares, the error
views, the Celery broker transports, the bounded publisher every task is sent through, the page
queue in front of the ASGI server, and the ``backup`` management command. Nothing here imports
``games`` or ``accounts`` (``tests/unit/test_layering.py``).
"""
