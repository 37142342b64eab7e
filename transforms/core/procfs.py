"""What Linux's /proc says of a process: its parent and CPU time, its resident memory now
and at its peak, and the processes under it. Each answer is None (or empty) where /proc
cannot say: another OS, or a process that has ended."""
import os
from typing import Optional

PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def stat(pid) -> Optional[tuple]:
    """(parent pid, CPU seconds) of a live process."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICK
    except (OSError, IndexError, ValueError):
        return None


def rss_bytes(pid="self") -> Optional[int]:
    """Resident memory now."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return None


def hwm_bytes(pid="self") -> Optional[int]:
    """VmHWM: the process's own peak resident memory. (ru_maxrss is no use for a child:
    Linux carries the parent's peak through fork and exec.)"""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, IndexError, ValueError):
        pass
    return None


def tree(root: int) -> dict:
    """{pid: CPU seconds} of `root` and every live process under it."""
    stats = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return {}
    for name in names:
        if name.isdigit():
            st = stat(name)
            if st:
                stats[int(name)] = st
    children = {}
    for pid, (ppid, _) in stats.items():
        children.setdefault(ppid, []).append(pid)
    found, todo = {root}, [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return {pid: stats[pid][1] for pid in found if pid in stats}
