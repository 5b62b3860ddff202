"""How many cells (samples times features) this machine's memory holds: the default of ``--max-cells``.

A whole ``verify`` keeps the samples in a few exact forms at once (the
dataset's integers, the sample matrix engine and checker share, the float
filter's copy, the updates kept for the replay) and some numbers per sample.
Its peak, measured on the scale grid of issue 32 (`RUN_BYTES_PER_CELL`), is
what one cell costs; the memory the process can still take, divided by it, is
the number of cells it can hold. A data set past that is refused from its
file's size or header, before its values are read, rather than ending in the
kernel's out-of-memory kill or a swap storm.

The memory the process can take is the least of the kernel's ``MemAvailable``
(``/proc/meminfo``), what is left of the process's cgroup limit (cgroup v2
``memory.max`` less ``memory.current``; v1 ``memory.limit_in_bytes`` less
``memory.usage_in_bytes``) and what is left of its address-space limit
(``RLIMIT_AS`` less ``VmSize``, as ``ulimit -v`` or a test harness sets it). Where neither can be read (not Linux), the fixed
`FALLBACK_CELLS` stands.
"""

from __future__ import annotations

import os

__all__ = ["FALLBACK_CELLS", "RUN_BYTES_PER_CELL", "CellLimit", "available_memory", "memory_cells"]

#: Peak bytes of a whole ``verify`` per cell of its data, measured (issue 32) as the peak RSS of the process less
#: its RSS after importing the package, ``verify --max-epochs 100`` on 4-significant-digit decimals spanning
#: 10^-3..10^3 (commit of the memory branch, issue 32): 10^5 x 20 separable 223 bytes a cell, not separable 165;
#: 10^5 x 100 138; 10^6 x 10 separable 98 (the engine's Python-integer copy of samples past int64's guard
#: included). The worst, rounded up. Measured again in issue 32's fourth session (branch peakmem), the same
#: way, not separable unless said: 10^6 x 10 39 bytes a cell (separable 38), 10^5 x 100 25, 10^5 x 20 35
#: (separable 28), 10^5 x 10 56, 10^5 x 5 104, and about 560 bytes a sample at 10^5 x 1 and x 2 (random
#: labels): at 10^5 rows the separability worker's SciPy import (38 MiB) and each sample's own arrays weigh
#: more than the cells. About 50 MB + 150 bytes a sample + 25 a cell in all, so at one feature and 10^7
#: samples some 180 bytes a cell: the figure stays, a bound rather than the typical cost.
RUN_BYTES_PER_CELL = 256
#: The limit where the available memory cannot be read: what 1.28 GB holds at `RUN_BYTES_PER_CELL`.
FALLBACK_CELLS = 5_000_000
#: Cells allowed whatever the memory says, so that a small data set is never refused on a busy machine: 2^19,
#: what 134 MB hold at `RUN_BYTES_PER_CELL`. Below it the kernel's files are not read at all (about 4% of a small
#: fit whose float64 values count as Python integers: digits' 276,480 cells, breast cancer's 200,000).
MIN_CELLS = 2**19

#: Where the kernel says how much memory is available, and how much address space the process has.
_MEMINFO, _STATUS = "/proc/meminfo", "/proc/self/status"
#: cgroup files, (limit, usage), v2 first: the limit of the cgroup the process runs in.
_CGROUP_FILES = (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                 ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"))


class CellLimit(int):
    """A limit on cells that says where it came from (`origin`), for the message that refuses a data set.

    Examples
    --------
    >>> limit = CellLimit(1000, "what 256000 bytes of available memory hold at 256 bytes a cell")
    >>> limit + 0, limit.origin
    (1000, 'what 256000 bytes of available memory hold at 256 bytes a cell')
    """

    origin: str

    def __new__(cls, cells: int, origin: str) -> CellLimit:
        limit = super().__new__(cls, cells)
        limit.origin = origin
        return limit


def _read_text(path: str, size: int | None = None) -> str | None:
    """The ASCII text of a kernel file (its first `size` bytes, or all of it), or None when it is absent, unreadable
    or not ASCII; line ends as text mode reads them. Through ``os.read``: a text-mode file object cost 15 to 50 µs
    a file more, at every fit past `MIN_CELLS` (three files: a fifth of `available_memory`'s time)."""
    try:
        handle = os.open(path, os.O_RDONLY)
        try:
            chunks = [os.read(handle, size or 65536)]
            while size is None and chunks[-1]:
                chunks.append(os.read(handle, 65536))
        finally:
            os.close(handle)
        return b"".join(chunks).decode("ascii").replace("\r\n", "\n").replace("\r", "\n")
    except (OSError, ValueError):
        return None


def _read_int(path: str) -> int | None:
    """The integer a one-line kernel file holds, or None when it is absent, unreadable or ``max``."""
    text = _read_text(path, 64)
    if text is None:
        return None
    text = text.strip()
    return int(text) if text.isdigit() else None


def _mem_available() -> int | None:
    """``MemAvailable`` in bytes, or None."""
    text = _read_text(_MEMINFO)
    for line in () if text is None else text.split("\n"):
        if line.startswith("MemAvailable:"):
            fields = line.split()
            return int(fields[1]) * 1024 if len(fields) >= 2 and fields[1].isdigit() else None
    return None


def available_memory() -> tuple[int, str] | None:
    """The bytes this process can still take, and which figure gave them; None where none can be read.

    Examples
    --------
    >>> found = available_memory()
    >>> found is None or (found[0] >= 0 and found[1] in ("MemAvailable", "the cgroup limit", "the address-space limit"))
    True
    """
    figures = []
    available = _mem_available()
    if available is not None:
        figures.append((available, "MemAvailable"))
    for limit_file, usage_file in _CGROUP_FILES:
        limit = _read_int(limit_file)  # the usage is read only under a limit (v1 writes "no limit" as about 2^63)
        usage = _read_int(usage_file) if limit is not None and limit < 2**60 else None
        if limit is not None and usage is not None:
            figures.append((max(limit - usage, 0), "the cgroup limit"))
            break
    room = _address_space_room()
    if room is not None:
        figures.append((room, "the address-space limit"))
    return min(figures) if figures else None


def _address_space_room() -> int | None:
    """``RLIMIT_AS`` less the process's ``VmSize``, in bytes, when a limit is set (and both can be read)."""
    try:
        import resource  # (not on Windows)

        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    except (ImportError, OSError, ValueError):
        return None
    if limit == resource.RLIM_INFINITY or limit < 0:
        return None
    try:
        with open(_STATUS, encoding="ascii") as handle:
            size = next((int(line.split()[1]) * 1024 for line in handle if line.startswith("VmSize:")), None)
    except (OSError, ValueError, IndexError):
        return None
    return None if size is None else max(limit - size, 0)


def memory_cells() -> CellLimit:
    """The default limit on cells: what the available memory holds at `RUN_BYTES_PER_CELL` (at least
    `MIN_CELLS`), else `FALLBACK_CELLS`.

    Examples
    --------
    >>> memory_cells() >= MIN_CELLS
    True
    """
    found = available_memory()
    if found is None:
        return CellLimit(FALLBACK_CELLS, "the default where the available memory cannot be read")
    available, figure = found
    cells = max(available // RUN_BYTES_PER_CELL, MIN_CELLS)
    return CellLimit(cells, f"what {available / 1e6:,.0f} MB of available memory ({figure}) holds at "
                            f"{RUN_BYTES_PER_CELL} bytes a cell")
