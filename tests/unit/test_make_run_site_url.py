"""``make run``'s links in mails follow ``HOST`` and ``PORT`` (issue 33, bug 1).

``make -n run`` prints the command line that starts honcho; the test runs that line with honcho
replaced by ``printenv PARLOUR_SITE_URL``, so it sees the address every process (web, worker,
beat) would build its mailed links from. A wildcard bind gives the loopback address (a link
must be reachable), and a ``PARLOUR_SITE_URL`` the person set is kept.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HONCHO = re.compile(r"\S*honcho -f Procfile\.dev start")

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="no make")


def _site_url(*make_args: str, site_url: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k not in {"PARLOUR_SITE_URL", "HOST", "PORT"}}
    printed = subprocess.run(
        ["make", "-s", "-n", "run", *make_args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.replace("\\\n", " ")
    (line,) = [line for line in printed.splitlines() if HONCHO.search(line)]
    if site_url is not None:
        env["PARLOUR_SITE_URL"] = site_url
    shown = subprocess.run(
        ["bash", "-c", HONCHO.sub("printenv PARLOUR_SITE_URL", line)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return shown.stdout.strip()


def test_the_default_is_the_default_address():
    assert _site_url() == "http://127.0.0.1:8000"


def test_links_follow_the_port_and_host():
    assert _site_url("PORT=8130") == "http://127.0.0.1:8130"
    assert _site_url("PORT=8130", "HOST=localhost") == "http://localhost:8130"


def test_a_wildcard_bind_links_to_the_loopback():
    assert _site_url("PORT=8130", "HOST=0.0.0.0") == "http://127.0.0.1:8130"
    assert _site_url("PORT=8130", "HOST=[::]") == "http://[::1]:8130"


def test_a_site_url_the_person_set_is_kept():
    chosen = "https://cards.example.org"
    assert _site_url("PORT=8130", "HOST=0.0.0.0", site_url=chosen) == chosen
