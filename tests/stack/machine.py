"""The machine a run was on, its load, and the CPU a process has used (from ``/proc``)."""

from __future__ import annotations

import os
import platform
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def machine_line() -> str:
    """The processor, its cores, Python and the kernel, on one line."""
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


def _stat_fields(pid: int) -> list[str] | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) may hold spaces; the fields after its closing paren are fixed.
    return stat[stat.rindex(")") + 2 :].split()


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far; 0 once it is gone."""
    fields = _stat_fields(pid)
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS if fields else 0.0


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid``, in order."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat_fields(int(entry.name))
            if fields and int(fields[1]) == pid:
                found.append(int(entry.name))
    return sorted(found)
