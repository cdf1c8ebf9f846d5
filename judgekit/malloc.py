"""How the server process asks the C allocator for memory (glibc only; elsewhere a no-op).

Why: a sign-in code is checked with scrypt, which makes OpenSSL malloc ~16 MB for one
check. glibc serves a block that large with its own mmap and unmaps it when freed, but its
threshold for doing so is dynamic: after the first such free it rises to the block's size,
and the next 16 MB blocks are carved out of the heap arena of the worker thread that asks
(each thread has its own arena). An arena's top is given back, its middle rarely: 8 judges
signing in left ~74 MB in arenas for the rest of the day, and big API answers (a long
game's JSON) did the same on a smaller scale.

`tune()` pins the threshold (`mallopt(M_MMAP_THRESHOLD)`, which also stops the dynamic
adjustment), so every block of `MMAP_THRESHOLD` or more is mmapped and unmapped when freed,
and caps the number of arenas: Python allocates under the GIL, so more arenas than cores
buy no speed, only memory that each thread holds on to. `judgekit serve` calls it before it
starts its threads.

Still worth it under uvicorn (issue 26, measured 28 Nov 2026 with
tests/test_server_memory.py's `rss_growth_after_scrypt_in_threads`: four sign-ins, each on
a thread of its own as a2wsgi's pool runs them): untuned the process keeps 32.1 MB, tuned
0.1 MB. `mallopt(3)` is glibc's documented interface, reached through the standard
library's `ctypes`; on other C libraries (Windows, macOS) `tune()` does nothing.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os

MMAP_THRESHOLD = 256 * 1024    # glibc's default start value; fixed instead of rising to 32 MB
ARENA_MAX = 2                  # the machine's cores (2), not glibc's 8 per core

# mallopt parameters (malloc.h)
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8

_libc: list = []


def _glibc():
    """The C library if it is glibc, else None."""
    if not _libc:
        lib = None
        try:
            if os.confstr("CS_GNU_LIBC_VERSION"):
                lib = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
                lib.mallopt  # noqa: B018 (glibc has it; anything else: no tuning)
                lib.malloc_trim  # noqa: B018
        except (AttributeError, OSError, ValueError):
            lib = None
        _libc.append(lib)
    return _libc[0]


def tune(mmap_threshold: int = MMAP_THRESHOLD, arena_max: int = ARENA_MAX) -> bool:
    """Pin the mmap threshold and cap the arenas; True if the allocator took both."""
    lib = _glibc()
    if lib is None:
        return False
    ok = lib.mallopt(M_MMAP_THRESHOLD, int(mmap_threshold)) == 1
    return bool(lib.mallopt(M_ARENA_MAX, int(arena_max)) == 1 and ok)


def trim() -> bool:
    """Give free memory at the end of the heaps back to the system (`malloc_trim(0)`)."""
    lib = _glibc()
    return bool(lib is not None and lib.malloc_trim(0))
