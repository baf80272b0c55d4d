"""The ways of serving the site the benchmarks compare, each on a port of its own so several can
run at once against the same database and Redis: gunicorn with sync workers (the Procfile's
before issue 23), gunicorn with uvicorn workers on the ASGI application with psycopg's pool (the
Procfile's since: ``Stack.web(asgi=True)``), the same without the pool, which shows what the
pool is for, and the split a node behind nginx runs (deploy/nginx/Procfile): pages on sync
gunicorn, the streams on uvicorn workers beside it, both started by that file's own lines
(``Stack.node``; the client goes to each port itself, as nginx would route)."""

from __future__ import annotations

from dataclasses import dataclass

from tests.polling import wait_for
from tests.stack.http import Browser
from tests.stack.processes import VENV_BIN, Process, Stack, free_port

SERVERS = ("sync", "asgi", "asgi-nopool", "split")
LABELS = {
    "sync": "gunicorn, sync workers (config.wsgi)",
    "asgi": "gunicorn + uvicorn-worker (config.asgi), psycopg pool",
    "asgi-nopool": "gunicorn + uvicorn-worker (config.asgi), no pool",
    "split": "pages on gunicorn sync workers, /live/ on uvicorn workers beside (config.asgi, pool)",
}


@dataclass
class Served:
    """One running server: its kind, its port and its process group; where its streams are
    served (``stream_port``: the same port under ASGI, none on sync gunicorn)."""

    kind: str
    port: int
    process: Process
    stream_port: int | None = None

    @property
    def label(self) -> str:
        return LABELS[self.kind]


def port_of(process: Process) -> int:
    """The port a server started by ``Stack`` listens on (its ``host:port`` address)."""
    return int(process.address.rpartition(":")[2])


def serve(stack: Stack, kind: str, workers: int = 2) -> Served:
    """``kind`` (one of ``SERVERS``) started on ``stack`` and answering; "sync" on the stack's
    own port, the others on free ones ("split": its pages and its streams on one each)."""
    if kind == "sync":
        return Served(kind, stack.web_port, stack.web(workers))
    if kind == "split":
        node = stack.node("127.0.0.1", workers)
        return Served(kind, port_of(node.web), node.web, stream_port=port_of(node.live))
    port = free_port()
    if kind == "asgi":
        process = stack.web(workers, port=port, asgi=True, name="web-asgi")
        return Served(kind, port, process, stream_port=port)
    # The Procfile's line less PARLOUR_DB_POOL: each request's thread opens its own connection.
    argv = [str(VENV_BIN / "gunicorn"), "config.asgi:application", "-k"]
    argv += ["uvicorn_worker.UvicornWorker", "--graceful-timeout", "5", "--bind"]
    argv += [f"127.0.0.1:{port}", "--workers", str(workers), "--timeout", "60"]
    argv += ["--access-logfile", "-", "--no-control-socket"]
    env = {**stack.env, "PARLOUR_DB_POOL": "0"}
    process = Process(f"web-{kind}", argv, env, stack.folder / f"{kind}.log")
    stack.processes.append(process.start())

    def up() -> bool:
        if not process.running:
            raise AssertionError(f"gunicorn (ASGI, no pool) exited:\n{process.output()[-3000:]}")
        try:
            answered = Browser(port).request("GET", "/accounts/login/").status
        except OSError:
            return False
        return answered == 200 and len(process.pids()) > workers

    wait_for(up, "gunicorn (ASGI, no pool) to answer", timeout=60)
    return Served(kind, port, process)
