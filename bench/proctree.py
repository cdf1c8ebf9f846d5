"""What a server costs as a whole: `judgekit serve` and every process it started, read from
/proc (Linux). PSS (proportional set size) counts a page shared by n processes as 1/n in
each, so the sum over a process tree is what the machine pays for it, where the sum of RSS
counts shared pages (the interpreter, libraries) once per process."""
from __future__ import annotations

import os
from pathlib import Path


def descendants(pid: int) -> list[int]:
    """The processes `pid` started, and theirs."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def pss_mb(pid: int) -> float:
    """One process's PSS in MB (/proc/<pid>/smaps_rollup); 0 when it has ended."""
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0.0
    for line in text.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024
    return 0.0


def tree_pss(pid: int) -> dict[int, float]:
    """{pid: PSS in MB} of `pid` and every process it started."""
    return {p: pss_mb(p) for p in [pid, *descendants(pid)]}


def describe(pid: int) -> str:
    """"total 123 MB PSS in 1 process (server 123)": the tree's PSS, process by process."""
    tree = tree_pss(pid)
    parts = []
    for p, mb in tree.items():
        try:
            name = "server" if p == pid else Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ")[:60].decode()
        except OSError:
            name = str(p)
        parts.append(f"{name} {mb:.0f}")
    return (f"total {sum(tree.values()):.0f} MB PSS in {len(tree)} process{'es' if len(tree) != 1 else ''} "
            f"({', '.join(parts)})")
