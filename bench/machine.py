"""What every benchmark prints about the machine it ran on: the processor and the load."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def machine_line() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores; Python {platform.python_version()}"
        f" ({platform.python_implementation()}) on {platform.system()} {platform.release()}"
    )


def load_line() -> str:
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "load average unavailable"
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"
