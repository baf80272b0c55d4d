"""Real processes for the fault tests: a PostgreSQL cluster, a Redis server, gunicorn, a Celery
worker and beat, each started in a process group of its own so it (and its children) can be
stopped, killed or restarted as one, and always cleaned up by the fixtures."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
from pathlib import Path

from tests.polling import wait_for

REPO = Path(__file__).resolve().parents[2]
VENV_BIN = Path(os.environ.get("VIRTUAL_ENV", REPO / ".venv")) / "bin"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def pg_binary(name: str) -> str | None:
    """``initdb``/``pg_ctl`` from PATH, else from Debian's versioned directory."""
    found = shutil.which(name)
    if found:
        return found
    for directory in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (directory / name).exists():
            return str(directory / name)
    return None


def missing_binaries() -> list[str]:
    needed = {
        "initdb": pg_binary("initdb"),
        "pg_ctl": pg_binary("pg_ctl"),
        "redis-server": shutil.which("redis-server"),
        "gunicorn": str(VENV_BIN / "gunicorn") if (VENV_BIN / "gunicorn").exists() else None,
        "celery": str(VENV_BIN / "celery") if (VENV_BIN / "celery").exists() else None,
    }
    return [name for name, path in needed.items() if path is None]


class Process:
    """One long-running command in its own process group, its output in a log file."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.name, self.argv, self.env, self.log = name, argv, env, log
        self.popen: subprocess.Popen | None = None

    def start(self) -> Process:
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(
                self.argv,
                env=self.env,
                cwd=REPO,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self

    @property
    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def signal_group(self, sig: int) -> None:
        if self.popen is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, sig)

    def kill(self) -> None:
        """SIGKILL to the whole group: no shutdown handler runs, nothing is acknowledged."""
        self.signal_group(signal.SIGKILL)
        if self.popen is not None:
            self.popen.wait(timeout=10)

    def stop(self, grace: float = 10.0) -> None:
        """SIGTERM, then SIGKILL for whatever is left after ``grace`` seconds."""
        if self.popen is None:
            return
        if self.popen.poll() is None:
            self.signal_group(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=grace)
        self.signal_group(signal.SIGKILL)  # children a parent left behind
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=5)


class RedisServer:
    """A private redis-server on a port of its own, no persistence: a restart loses the queue,
    as a crashed Redis without an AOF would."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: Process | None = None

    def start(self) -> None:
        argv = [
            shutil.which("redis-server") or "redis-server",
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--daemonize",
            "no",
            "--dir",
            str(self.folder),
        ]
        self.process = Process("redis", argv, dict(os.environ), self.folder / "redis.log").start()
        wait_for(self.answers, "redis-server to answer", timeout=15)

    def answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=0.5).ping())
        except redis.RedisError:
            return False

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop()
            self.process = None


class PostgresCluster:
    """A private PostgreSQL cluster (initdb) on a port of its own, trust authentication.

    As root, the cluster belongs to the ``postgres`` user (PostgreSQL refuses to run as root).
    """

    def __init__(self) -> None:
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="parlour-faults-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "postgres.log"
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/parlour_faults"

    def _run(self, argv: list[str], timeout: float = 60) -> None:
        if self.as_root:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        subprocess.run(argv, check=True, timeout=timeout, capture_output=True)

    def init(self) -> None:
        self._run([pg_binary("initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust"])
        self.start()
        import psycopg

        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres", autocommit=True
        ) as c:
            c.execute("CREATE DATABASE parlour_faults")

    def _ctl(self, *args: str) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            [
                pg_binary("pg_ctl"),
                "-D",
                str(self.data),
                "-l",
                str(self.log),
                "-o",
                options,
                "-w",
                *args,
            ]
        )

    def start(self) -> None:
        self._ctl("start")

    def stop(self) -> None:
        """A fast shutdown: open sessions are cut, as in a real restart."""
        self._ctl("stop", "-m", "fast")

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # not running
            self._ctl("stop", "-m", "immediate")
        shutil.rmtree(self.root, ignore_errors=True)
