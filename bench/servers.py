"""The two ways of serving the site the benchmarks compare: today's gunicorn with sync workers
(``Stack.web``) and gunicorn with uvicorn workers on the ASGI application (issue 23), each on a
port of its own so both can run at once against the same database and Redis."""

from __future__ import annotations

from dataclasses import dataclass

from tests.polling import wait_for
from tests.stack.http import Browser
from tests.stack.processes import VENV_BIN, Process, Stack, free_port

SERVERS = ("sync", "asgi")
LABELS = {
    "sync": "gunicorn, sync workers (config.wsgi)",
    "asgi": "gunicorn + uvicorn-worker (config.asgi)",
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
    """gunicorn on the ASGI application with uvicorn's worker class, otherwise as the
    Procfile's sync server is run (same timeout, every request logged)."""
    argv = [str(VENV_BIN / "gunicorn"), "config.asgi:application"]
    argv += ["-k", "uvicorn_worker.UvicornWorker", "--bind", f"127.0.0.1:{port}"]
    return [*argv, "--workers", str(workers), "--timeout", "60", "--access-logfile", "-"]


def serve(stack: Stack, kind: str, workers: int = 2) -> Served:
    """``kind`` ("sync" or "asgi") started on ``stack`` and answering; "sync" takes the stack's
    own port (``Stack.web``), "asgi" a free one."""
    if kind == "sync":
        return Served(kind, stack.web_port, stack.web(workers))
    port = free_port()
    process = Process("web-asgi", asgi_argv(port, workers), stack.env, stack.folder / "asgi.log")
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
