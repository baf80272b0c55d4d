"""The ways of serving the site the benchmarks compare, each on a port of its own so several can
run at once against the same database and Redis: gunicorn with sync workers (``Stack.web``, the
Procfile's before issue 23), gunicorn with uvicorn workers on the ASGI application with psycopg's
pool (``PARLOUR_DB_POOL=1``, the Procfile's since), and the same without the pool."""

from __future__ import annotations

from dataclasses import dataclass

from tests.polling import wait_for
from tests.stack.http import Browser
from tests.stack.processes import VENV_BIN, Process, Stack, free_port

SERVERS = ("sync", "asgi", "asgi-nopool")
LABELS = {
    "sync": "gunicorn, sync workers (config.wsgi)",
    "asgi": "gunicorn + uvicorn-worker (config.asgi), psycopg pool",
    "asgi-nopool": "gunicorn + uvicorn-worker (config.asgi), no pool",
}


@dataclass
class Served:
    """One running server: its kind, its port and its process group."""

    kind: str
    port: int
    process: Process

    @property
    def label(self) -> str:
        return LABELS[self.kind]


def asgi_argv(port: int, workers: int) -> list[str]:
    """gunicorn on the ASGI application with uvicorn's worker class as the Procfile runs it
    (every request logged, 5 s for open streams at a stop), the timeout ``Stack.web``'s."""
    argv = [str(VENV_BIN / "gunicorn"), "config.asgi:application"]
    argv += ["-k", "uvicorn_worker.UvicornWorker", "--bind", f"127.0.0.1:{port}"]
    argv += ["--workers", str(workers), "--timeout", "60", "--graceful-timeout", "5"]
    return [*argv, "--access-logfile", "-"]


def serve(stack: Stack, kind: str, workers: int = 2) -> Served:
    """``kind`` (one of ``SERVERS``) started on ``stack`` and answering; "sync" takes the
    stack's own port (``Stack.web``), the others a free one."""
    if kind == "sync":
        return Served(kind, stack.web_port, stack.web(workers))
    port = free_port()
    env = {**stack.env, "PARLOUR_DB_POOL": "1" if kind == "asgi" else "0"}
    process = Process(f"web-{kind}", asgi_argv(port, workers), env, stack.folder / f"{kind}.log")
    stack.processes.append(process.start())

    def up() -> bool:
        if not process.running:
            raise AssertionError(f"gunicorn (ASGI) exited:\n{process.output()[-3000:]}")
        try:
            answered = Browser(port).request("GET", "/accounts/login/").status
        except OSError:
            return False
        return answered == 200 and len(process.pids()) > workers

    wait_for(up, "gunicorn (ASGI) to answer", timeout=60)
    return Served(kind, port, process)
