"""Real processes: a private PostgreSQL cluster, a private Redis server, the site's own
processes (gunicorn, a Celery worker, beat) and nginx in front of them, each in a process group
of its own so it (and its children) can be stopped, killed or restarted as one. Used by
``tests/faults`` and ``bench/``.

Nothing here touches the shared services: the cluster and the server listen on free loopback
ports, keep their files in a temporary folder, and are destroyed when the caller is done.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

from tests.polling import wait_for
from tests.stack.machine import children_of

REPO = Path(__file__).resolve().parents[2]
VENV_BIN = Path(os.environ.get("VIRTUAL_ENV", REPO / ".venv")) / "bin"
NGINX = "/usr/sbin/nginx"
NODE_PROCFILE = REPO / "deploy" / "nginx" / "Procfile"
PROCFILE_VARIABLE = re.compile(r"\$\{(\w+):-([^}]*)\}")
# Variables of the caller's environment the stack never passes on: it sets its own.
NOT_INHERITED = {
    "CELERY_BROKER_URL",
    "DATABASE_URL",
    "PARLOUR_BENCH",
    "PARLOUR_PRODUCTION",
    "REDIS_URL",
}


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
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


def nginx_binary() -> str | None:
    """Debian's nginx (``nginx-light``), which is in /usr/sbin, on PATH or not."""
    found = shutil.which("nginx")
    if found:
        return found
    return NGINX if Path(NGINX).exists() else None


def missing_binaries(*, nginx: bool = False) -> list[str]:
    """What this machine lacks to run the whole stack (with ``nginx``, the proxy in front)."""
    needed = {
        "initdb": pg_binary("initdb"),
        "pg_ctl": pg_binary("pg_ctl"),
        "redis-server": shutil.which("redis-server"),
        "gunicorn": (VENV_BIN / "gunicorn").exists() or None,
        "celery": (VENV_BIN / "celery").exists() or None,
    }
    if nginx:
        needed["nginx"] = nginx_binary()
    return [name for name, found in needed.items() if not found]


def procfile_command(
    procfile: Path, kind: str, variables: dict[str, str]
) -> tuple[dict[str, str], list[str]]:
    """The ``kind:`` line of ``procfile`` as the shell would run it: each ``${NAME:-default}``
    replaced by ``variables[NAME]`` (or its default), then the leading ``NAME=value``
    assignments (its environment) and the command's words."""
    for line in procfile.read_text().splitlines():
        name, _, command = line.partition(":")
        if name == kind:
            break
    else:
        raise ValueError(f"{procfile} has no {kind}: line")
    expanded = PROCFILE_VARIABLE.sub(lambda m: variables.get(m.group(1), m.group(2)), command)
    words = shlex.split(expanded)
    env = {}
    while words and re.fullmatch(r"\w+=.*", words[0]):
        key, _, value = words.pop(0).partition("=")
        env[key] = value
    return env, words


class Process:
    """One long-running command in its own process group, its output in a log file."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.name, self.argv, self.env, self.log = name, argv, env, log
        self.popen: subprocess.Popen | None = None
        self.address = ""  # "host:port" of a server that listens

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

    def pids(self) -> list[int]:
        """The process and its children (gunicorn's workers, a prefork worker's pool)."""
        if not self.running:
            return []
        return [self.popen.pid, *children_of(self.popen.pid)]

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

    def stop(self, grace: float = 20.0) -> None:
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
        argv = [shutil.which("redis-server") or "redis-server", "--port", str(self.port)]
        argv += ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        argv += ["--daemonize", "no", "--dir", str(self.folder)]
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
    """A private PostgreSQL cluster (initdb) on a port of its own, trust authentication, one
    database ``name``.

    ``durable``: off (the fault tests), ``fsync=off`` makes a COMMIT cheap; on (benchmarks),
    the settings are initdb's, as a server's would be, so a COMMIT waits for the disk. As root
    the cluster belongs to the ``postgres`` user (PostgreSQL refuses to run as root).
    """

    def __init__(self, name: str = "parlour", *, durable: bool = False) -> None:
        self.port = free_port()
        self.name, self.durable = name, durable
        self.root = Path(tempfile.mkdtemp(prefix="parlour-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "postgres.log"
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def _run(self, argv: list[str], timeout: float = 60) -> None:
        if self.as_root:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        subprocess.run(argv, check=True, timeout=timeout, capture_output=True)

    def init(self) -> None:
        """initdb, start, and create the database."""
        self._run([pg_binary("initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust"])
        self.start()
        import psycopg

        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres", autocommit=True
        ) as c:
            c.execute(f'CREATE DATABASE "{self.name}"')

    def migrate(self) -> None:
        """The site's migrations, as ``make migrate`` runs them, in a process of their own."""
        env = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=REPO,
            env={"LOG_LEVEL": "WARNING", **env, "DATABASE_URL": self.url},
            check=True,
            timeout=300,
        )

    def _ctl(self, *args: str) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1"
        if not self.durable:
            options += " -c fsync=off"
        argv = [pg_binary("pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options]
        self._run([*argv, "-w", *args])

    def start(self) -> None:
        self._ctl("start")

    def stop(self) -> None:
        """A fast shutdown: open sessions are cut, as in a real restart."""
        self._ctl("stop", "-m", "fast")

    def pids(self) -> list[int]:
        """The postmaster and every process it forked (backends, WAL writer, checkpointer)."""
        try:
            postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return []
        return [postmaster, *children_of(postmaster)]

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # not running
            self._ctl("stop", "-m", "immediate")
        shutil.rmtree(self.root, ignore_errors=True)


class Stack:
    """The site's processes on a private cluster (and, with ``redis``, a private Redis and a
    queue of their own), DEBUG off; each start returns its process. Without Redis, Celery runs
    eagerly inside the web processes (unless ``env`` names a broker). Without a cluster
    (``postgres`` None), the embedded default's SQLite file in ``folder/data``. ``env`` adds or
    overrides settings for every process."""

    def __init__(
        self,
        folder: Path,
        postgres: PostgresCluster | None,
        redis: RedisServer | None = None,
        **env: str,
    ) -> None:
        self.folder, self.postgres, self.redis = folder, postgres, redis
        self.queue = f"parlour-stack-{uuid.uuid4().hex[:10]}"
        self.processes: list[Process] = []
        self.web_port = free_port()
        self._workers = 0
        self.env = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
        if postgres is not None:
            self.env["DATABASE_URL"] = postgres.url
        self.env.update(
            PARLOUR_DATA_DIR=str(folder / "data"),
            PARLOUR_CELERY_QUEUE=self.queue,
            DEBUG="0",
            ALLOWED_HOSTS="127.0.0.1,localhost",
            PYTHONUNBUFFERED="1",
            DJANGO_SETTINGS_MODULE="config.settings",
        )
        if redis is not None:
            self.env["REDIS_URL"] = redis.url
        self.env.update(env)

    def configure_this_process(self) -> None:
        """The same settings for the caller (a benchmark), before it sets Django up."""
        for name in NOT_INHERITED:
            os.environ.pop(name, None)
        os.environ.update(self.env)

    def _start(self, name: str, argv: list[str], **env: str) -> Process:
        process = Process(name, argv, {**self.env, **env}, self.folder / f"{name}.log").start()
        self.processes.append(process)
        return process

    def web(
        self,
        workers: int = 2,
        *,
        host: str = "127.0.0.1",
        port: int | None = None,
        asgi: bool = False,
        name: str = "web",
    ) -> Process:
        """gunicorn, every request logged: sync workers on ``config.wsgi``, or with ``asgi``
        as the Procfile's ``web:`` runs it (uvicorn workers on ``config.asgi``, which serve the
        live streams, with the database pool); on ``host:port`` (any loopback address,
        127.0.0.2 for a second node; the stack's ``web_port`` unless given). Ready when it
        answers the sign-in page and all its workers are up."""
        port = port or self.web_port
        argv = [str(VENV_BIN / "gunicorn"), "config.wsgi"]
        env = {}
        if asgi:
            argv = [str(VENV_BIN / "gunicorn"), "config.asgi:application"]
            argv += ["-k", "uvicorn_worker.UvicornWorker", "--graceful-timeout", "5"]
            env["PARLOUR_DB_POOL"] = "1"
        argv += ["--bind", f"{host}:{port}", "--workers", str(workers), "--timeout", "60"]
        argv += ["--access-logfile", "-"]
        # No control socket: gunicorn's default is ~/.gunicorn/gunicorn.ctl, one path that every
        # gunicorn on the machine (two nodes, other stacks) would take from the others.
        argv += ["--no-control-socket"]
        return self._gunicorn(name, argv, env, host, port, workers)

    def _gunicorn(
        self, name: str, argv: list[str], env: dict[str, str], host: str, port: int, workers: int
    ) -> Process:
        hosts = self.env["ALLOWED_HOSTS"]  # the node answers its own address too (readiness)
        process = self._start(name, argv, ALLOWED_HOSTS=f"{hosts},{host}", **env)
        process.address = f"{host}:{port}"
        from tests.stack.http import Browser

        def up() -> bool:
            if not process.running:
                raise AssertionError(f"gunicorn exited:\n{process.output()[-3000:]}")
            try:
                answered = Browser(port, host=host).request("GET", "/accounts/login/").status
            except OSError:
                return False
            return answered == 200 and len(process.pids()) > workers

        wait_for(up, f"gunicorn on {host}:{port} to answer", timeout=60)
        return process

    def node(self, host: str, workers: int = 1) -> Node:
        """One web node on ``host`` (a loopback address), its two servers started by the very
        lines of ``deploy/nginx/Procfile``: pages on sync gunicorn (``web``) and the live
        streams on gunicorn with uvicorn workers (``live``), ``workers`` each, on free ports."""
        servers = {}
        for kind in ("web", "live"):
            port = free_port(host)
            variables = {
                f"{kind.upper()}_BIND": f"{host}:{port}",
                f"{kind.upper()}_CONCURRENCY": str(workers),
            }
            env, argv = procfile_command(NODE_PROCFILE, kind, variables)
            argv[0] = str(VENV_BIN / argv[0])
            servers[kind] = self._gunicorn(f"{kind}-{host}", argv, env, host, port, workers)
        return Node(host, servers["web"], servers["live"])

    def proxy(self, nodes: list[Node]) -> Nginx:
        """nginx with the repository's deploy/nginx/parlour.conf in front of ``nodes`` (two),
        ready when it accepts connections."""
        nginx = Nginx(self.folder / "nginx", nodes)
        self.processes.append(nginx.start(self.env))
        return nginx

    def worker(self, *options: str, **env: str) -> Process:
        """``celery worker`` on the stack's queue (``--pool=solo`` unless ``options`` say
        otherwise), ready when it logs so."""
        self._workers += 1
        name = f"worker{self._workers}"
        argv = [str(VENV_BIN / "celery"), "-A", "config", "worker", "-l", "info"]
        argv += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
        argv += ["-n", f"{name}-{self.queue}@%h", *(options or ["--pool=solo"])]
        process = self._start(name, argv, **env)
        wait_for(lambda: ready_count(process) > 0, f"{name} to be ready", timeout=60)
        return process

    def beat(self) -> Process:
        """``celery beat``, ready when it sent its first task."""
        schedule = self.folder / "beat-schedule"
        argv = [str(VENV_BIN / "celery"), "-A", "config", "beat", "-l", "info"]
        argv += ["-s", str(schedule)]
        process = self._start("beat", argv)
        wait_for(lambda: "Sending due task" in process.output(), "beat's first send", 60)
        return process

    def stop_all(self) -> None:
        for process in reversed(self.processes):
            process.stop()

    def logs(self) -> str:
        return "\n".join(f"===== {p.name}\n{p.output()[-4000:]}" for p in self.processes)


@dataclass
class Node:
    """A web node behind nginx: its address, its pages' server and its streams' server."""

    host: str
    web: Process
    live: Process

    def kill(self) -> None:
        """The machine gone: both servers SIGKILLed."""
        self.web.kill()
        self.live.kill()

    @property
    def running(self) -> bool:
        return self.web.running and self.live.running


def ready_count(worker: Process) -> int:
    """How many times a worker logged itself ready (``celery@... ready.``): a restarted worker
    takes tasks again once this grows."""
    return worker.output().count(" ready.")


class Nginx:
    """Debian's nginx running the repository's ``deploy/nginx/parlour.conf``, rendered with
    this machine's values: HTTPS on a free loopback port (``port``) with a throwaway
    certificate that ``tls`` trusts, the redirect to HTTPS on ``http_port``, and the two nodes'
    servers of pages and of streams (``host:port`` each). A main config of its own around it
    sends logs, pid and temp files to ``folder``, so it runs as a plain process (``daemon off``)
    in a process group of its own."""

    SITE = REPO / "deploy" / "nginx" / "parlour.conf"
    PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")

    def __init__(self, folder: Path, nodes: list[Node]) -> None:
        from tests.stack.tls import self_signed, trusting

        folder.mkdir(parents=True, exist_ok=True)
        self.folder, self.nodes = folder, nodes
        self.port, self.http_port = free_port(), free_port()
        self.certificate, key = self_signed(folder)
        self.tls = trusting(self.certificate)
        self.values = {
            "SERVER_NAME": "127.0.0.1",
            "HTTPS_LISTEN": f"127.0.0.1:{self.port}",
            "HTTP_LISTEN": f"127.0.0.1:{self.http_port}",
            "CERTIFICATE": str(self.certificate),
            "CERTIFICATE_KEY": str(key),
            "NODE_A": nodes[0].web.address,
            "NODE_B": nodes[1].web.address,
            "LIVE_A": nodes[0].live.address,
            "LIVE_B": nodes[1].live.address,
        }
        self.process: Process | None = None

    @classmethod
    def render(cls, values: dict[str, str]) -> str:
        """The site file with every ``{{NAME}}`` replaced; a placeholder without a value, or a
        value without its placeholder, is an error (the file and this class disagree)."""
        template = cls.SITE.read_text()
        named = set(cls.PLACEHOLDER.findall(template))
        if named != set(values):
            raise ValueError(f"{cls.SITE} names {sorted(named)}, given {sorted(values)}")
        return cls.PLACEHOLDER.sub(lambda found: values[found.group(1)], template)

    def main_config(self) -> str:
        temp = self.folder / "temp"
        temp.mkdir(exist_ok=True)
        # As root, nginx's workers would drop to "nobody", who cannot enter pytest's folders.
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
        paths = "".join(
            f"    {kind}_temp_path {temp / kind};\n"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        return (
            f"{user}worker_processes 1;\n"
            "events { worker_connections 2048; }\n"
            "http {\n"
            f"    access_log {self.folder / 'access.log'};\n"
            f"{paths}"
            f"    include {self.folder / 'parlour.conf'};\n"
            "}\n"
        )

    def start(self, env: dict[str, str]) -> Process:
        (self.folder / "parlour.conf").write_text(self.render(self.values))
        config = self.folder / "nginx.conf"
        config.write_text(self.main_config())
        argv = [nginx_binary() or NGINX, "-p", str(self.folder), "-c", str(config)]
        log = self.folder / "nginx.log"  # its error log too (-e), so the stack's logs show it
        argv += ["-e", str(log), "-g", f"daemon off; pid {self.folder / 'nginx.pid'};"]
        self.process = Process("nginx", argv, env, log).start()

        def accepts() -> bool:
            if not self.process.running:
                raise AssertionError(f"nginx exited:\n{self.process.output()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
            except OSError:
                return False
            return True

        wait_for(accepts, "nginx to accept connections", timeout=30)
        return self.process
