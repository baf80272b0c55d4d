"""One harness for tests and benchmarks that need real processes (docs in each module).

- ``processes``: a private PostgreSQL cluster and Redis server on free ports, and the site's
  own processes (gunicorn, a Celery worker, beat) in process groups of their own.
- ``http``: a browser's worth of cookies over HTTP: the sign-in form, CSRF, the htmx move.
- ``machine``: the machine a run was on, its load, and the CPU time of a process.
"""
