"""The default cell limit sized from memory (`verify_perceptron.data.memory`): the figure read, the cells it
holds, and a data set past it refused before its values are read, by every reader and by the command."""

from __future__ import annotations

import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from verify_perceptron.cli import main
from verify_perceptron.data import memory
from verify_perceptron.data.files import cell_units, check_max_cells
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.integers import ExactMatrix
from verify_perceptron.data.readers import load_dataset
from verify_perceptron.data.samples import sample_matrix
from verify_perceptron.errors import DataError
from verify_perceptron.pipeline import verify_run


def _machine(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, meminfo: str | None,
             cgroup: tuple[str, str] | None = None) -> None:
    """A machine whose /proc/meminfo and cgroup files say what is given (None: absent)."""
    info = tmp_path / "meminfo"
    if meminfo is not None:
        info.write_text(meminfo)
    monkeypatch.setattr(memory, "_MEMINFO", str(info))
    files = []
    if cgroup is not None:
        (tmp_path / "memory.max").write_text(cgroup[0] + "\n")
        (tmp_path / "memory.current").write_text(cgroup[1] + "\n")
        files.append((str(tmp_path / "memory.max"), str(tmp_path / "memory.current")))
    monkeypatch.setattr(memory, "_CGROUP_FILES", (*files, (str(tmp_path / "none"), str(tmp_path / "none"))))


def test_the_available_memory_is_memavailable_or_the_cgroups_room_whichever_is_lower(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    meminfo = "MemTotal:       16000000 kB\nMemAvailable:    8000000 kB\n"
    _machine(monkeypatch, tmp_path, meminfo)
    assert memory.available_memory() == (8_192_000_000, "MemAvailable")
    _machine(monkeypatch, tmp_path, meminfo, cgroup=("1000000000", "200000000"))
    assert memory.available_memory() == (800_000_000, "the cgroup limit")
    _machine(monkeypatch, tmp_path, meminfo, cgroup=("max", "200000000"))  # no limit: MemAvailable stands
    assert memory.available_memory() == (8_192_000_000, "MemAvailable")
    _machine(monkeypatch, tmp_path, meminfo, cgroup=("1000000000", "1200000000"))  # over its limit: no room
    assert memory.available_memory() == (0, "the cgroup limit")


def test_without_a_memory_figure_the_fixed_limit_stands(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _machine(monkeypatch, tmp_path, None)
    assert memory.available_memory() is None
    assert check_max_cells(None) == memory.FALLBACK_CELLS
    _machine(monkeypatch, tmp_path, "MemFree: 100 kB\n")  # a meminfo without the line
    assert memory.available_memory() is None


def test_the_kernel_files_are_read_whole_as_text_mode_reads_them(monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    # (read through os.read since the tenth session: a text-mode file object cost more than the read itself)
    padding = "".join(f"Field{k}:    {k} kB\n" for k in range(4000))  # about 80 KB before the line
    _machine(monkeypatch, tmp_path, padding + "MemAvailable:    8000000 kB\n", cgroup=("9000000000", "200000000\n"))
    assert len((tmp_path / "meminfo").read_bytes()) > 65536
    assert memory.available_memory() == (8_192_000_000, "MemAvailable")
    _machine(monkeypatch, tmp_path, "MemAvailable:    8000000 kB\n", cgroup=("1000000000", "200000000\n"))
    assert memory.available_memory() == (800_000_000, "the cgroup limit")
    _machine(monkeypatch, tmp_path, "MemTotal: 9 kB\r\nMemAvailable: 7 kB\r\n")  # Windows line ends
    assert memory.available_memory() == (7168, "MemAvailable")
    _machine(monkeypatch, tmp_path, "MemTotal: 9 kB\rMemAvailable: 5 kB\r")  # old Mac line ends
    assert memory.available_memory() == (5120, "MemAvailable")
    _machine(monkeypatch, tmp_path, "xMemAvailable: 5 kB\nMemAvailable: 6 kB x\nMemAvailable: 8 kB\n")
    assert memory.available_memory() == (6144, "MemAvailable")  # the first line that starts with it
    _machine(monkeypatch, tmp_path, "MemAvailable: 7 kB\n", cgroup=("1000000000", "2000000\u00e9"))  # not ASCII
    assert memory.available_memory() == (7168, "MemAvailable")
    (tmp_path / "meminfo").write_bytes("MemAvailable: 7 kB \u00e9\n".encode())
    assert memory.available_memory() is None


def test_the_default_limit_is_what_the_memory_holds_at_the_measured_bytes_a_cell(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "available_memory", lambda: (memory.RUN_BYTES_PER_CELL * 3_000_000, "MemAvailable"))
    assert check_max_cells(None) == 3_000_000
    assert check_max_cells(7) == 7  # the user's own limit is taken as given
    monkeypatch.setattr(memory, "available_memory", lambda: (1000, "the cgroup limit"))
    assert check_max_cells(None) == memory.MIN_CELLS  # a busy machine still reads a small file


def _small_memory(monkeypatch: pytest.MonkeyPatch, cells: int) -> None:
    monkeypatch.setattr(memory, "MIN_CELLS", 1)
    monkeypatch.setattr(memory, "available_memory", lambda: (memory.RUN_BYTES_PER_CELL * cells, "MemAvailable"))


def test_a_data_set_past_the_memory_is_refused_by_the_command_with_size_limit_and_option(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "d.csv"
    path.write_text("x1,x2,label\n" + "0.5,1,1\n-0.5,2,-1\n" * 400)  # 1,600 cells, 7,212 bytes
    _small_memory(monkeypatch, 1000)  # the file passes the size check (16,000 bytes), not the count
    code = main(["verify", str(path)])
    message = capsys.readouterr().err
    assert code == 2
    assert message == (f"verify-perceptron: error: {path}: 800 x 2 values, more than the limit of 1000 cells (what "
                       f"0 MB of available memory (MemAvailable) holds at 256 bytes a cell); raise it with "
                       "--max-cells N (max_cells= in Python)\n")
    assert main(["verify", str(path), "--max-cells", "1600", "--format", "json"]) == 0  # the option lifts it


def test_a_file_past_the_memory_is_refused_before_it_is_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    csv = tmp_path / "big.csv"
    csv.write_text("x1,label\n" + "0.5,1\n-0.5,-1\n" * 100_000)  # 1.2 MB
    npy = tmp_path / "big.npy"
    np.save(npy, np.tile(np.array([[0.5, 1.0], [-0.5, -1.0]]), (100_000, 1)))  # 3.2 MB
    _small_memory(monkeypatch, 100)
    for path in (csv, npy):
        tracemalloc.start()
        try:
            code = main(["verify", str(path)])
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert code == 2
        assert "the limit of 100 cells (what 0 MB of available memory (MemAvailable)" in capsys.readouterr().err
        assert peak < 500_000, f"{path.name}: {peak} bytes allocated before the refusal"  # the file was not read
    with pytest.raises(DataError, match="more than the limit of 100 cells"):
        load_dataset(str(npy))  # the Python entry too


def test_a_product_with_wide_weights_makes_no_python_integer_copy_of_the_samples() -> None:
    rng = np.random.default_rng(5)
    Z = rng.integers(-10**9, 10**9, size=(2000, 100))
    w = [int(v) * 2**150 + 1 for v in rng.integers(-10**9, 10**9, size=100)]  # about 180 bits: past int64
    matrix = ExactMatrix(Z)
    tracemalloc.start()
    try:
        product = matrix.products(w, norm_sq=sum(v * v for v in w))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert product.tolist() == [sum(a * b for a, b in zip(row, w)) for row in Z.tolist()]
    # a Python-integer copy of Z would be about 40 bytes a cell, 5x Z's own 8 (1.6 MB): 8 MB
    assert peak < Z.nbytes, f"{peak} bytes for a product of a {Z.nbytes}-byte matrix"
    assert matrix._as_object is None


def _wide_decimals(n: int, d: int) -> Dataset:
    """n rows of 4-significant-digit decimals spanning 10^-3..10^4 (denominator 10^6): scores past int64."""
    rng = np.random.default_rng(3)
    digits = rng.integers(1000, 10000, size=(n, d)) * rng.choice([-1, 1], size=(n, d))
    numerators = digits * 10 ** rng.integers(0, 5, size=(n, d))
    y = np.where(numerators @ rng.standard_normal(d) > 0, 1, -1)
    return Dataset(numerators=numerators, denominator=10**6, y=y)


def test_a_finished_run_keeps_no_copy_of_its_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    import verify_perceptron.pipeline as pipeline

    made: list[ExactMatrix] = []

    def kept(*args: Any, **kwargs: Any) -> ExactMatrix:
        made.append(sample_matrix(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(pipeline, "sample_matrix", kept)
    trace, _ = verify_run(_wide_decimals(2000, 20), max_epochs=20)
    # the trace keeps the sample matrix (its updates are built from it when read), but not the float64
    # (1x the data) or Python-integer (5x) copies the engine and the checker made of it
    assert trace.n_updates > 0 and len(made) == 1
    copies = {"float64": made[0]._as_float, "approximate": made[0]._approximate, "object": made[0]._as_object,
              "last product": made[0]._last}
    assert [name for name, copy in copies.items() if copy is not None] == []


def test_an_address_space_limit_bounds_the_memory_too(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import resource

    _machine(monkeypatch, tmp_path, "MemAvailable:    8000000 kB\n")
    status = tmp_path / "status"
    status.write_text("Name: python\nVmSize:\t  100000 kB\n")
    monkeypatch.setattr(memory, "_STATUS", str(status))
    monkeypatch.setattr(resource, "getrlimit", lambda which: (1 << 30, 1 << 30))  # ulimit -v 1048576
    assert memory.available_memory() == ((1 << 30) - 102_400_000, "the address-space limit")
    monkeypatch.setattr(resource, "getrlimit", lambda which: (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    assert memory.available_memory() == (8_192_000_000, "MemAvailable")


def test_an_array_that_no_default_limit_refuses_is_read_without_reading_the_memory(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The default limit is never below MIN_CELLS, so a float64 array of fewer cells (each counted as the int64
    values its numerator fills) is read without the 100 µs of /proc reads; past it, or wide, the memory is read."""
    from verify_perceptron.data.arrays import exact_table

    read: list[int] = []

    def available() -> tuple[int, str]:
        read.append(1)
        return memory.RUN_BYTES_PER_CELL * 10**9, "MemAvailable"

    monkeypatch.setattr(memory, "available_memory", available)
    assert exact_table(np.array([[5.1, 3.5], [4.9, -3.0]])).denominator == 2**49 and read == []
    exact_table([[5.1, 3.5], [4.9, -3.0]])  # rows as lists: refused row by row, the limit read once
    assert read == [1]
    exact_table(np.full((memory.MIN_CELLS + 1, 1), 0.5))  # past MIN_CELLS
    assert read == [1, 1]
    exact_table(np.array([[2.0**-1074, 2.0**1023]] * 3400))  # 6,800 values of 2,098 bits: 537,200 int64 values
    assert read == [1, 1, 1]
    _small_memory(monkeypatch, 10)
    with pytest.raises(DataError, match="more than the limit of 10 cells"):
        exact_table(np.array([[0.5] * 11]))  # a small limit still refuses (MIN_CELLS is 1 here)


def test_the_floor_below_which_no_memory_is_read_is_2_to_the_19_and_a_count_past_it_is_still_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Float64 values that count as Python integers (as digits standardized's: 23,040 values of 72 bits, 276,480
    int64 values) are read without the kernel's files; one value past the floor reads them, and on a machine
    whose memory holds fewer cells it is refused, naming the count and the limit; at the floor it is not read."""
    from verify_perceptron.data.arrays import exact_table

    read: list[int] = []

    def available() -> tuple[int, str]:
        read.append(1)
        return 1000, "MemAvailable"  # a busy machine: the limit is the floor itself

    monkeypatch.setattr(memory, "available_memory", available)
    assert memory.MIN_CELLS == 2**19
    rng = np.random.default_rng(19)
    table = exact_table(rng.standard_normal((360, 64)))  # as digits standardized: 23,040 values of 72 bits
    assert cell_units(table.numerators.size, 72) == 276_480 and table.denominator.bit_length() == 71
    exact_table(np.full((memory.MIN_CELLS, 1), 0.5))  # at the floor
    assert read == []
    with pytest.raises(DataError, match=rf"more than the limit of {memory.MIN_CELLS} cells \(what 0 MB"):
        exact_table(np.full((memory.MIN_CELLS + 1, 1), 0.5))
    assert read == [1]
    wide = np.array([[2.0**-1074, 2.0**1023]] * 3319)  # 6,638 values of 2,098 bits: 524,402 int64 values
    with pytest.raises(DataError, match=r"6638 values of up to 2098 bits .* memory of 524402 int64 values, more than "
                                        rf"the limit of {memory.MIN_CELLS} cells"):
        exact_table(wide)
    assert read == [1, 1]
    assert exact_table(wide[:-1]).numerators.shape == (3318, 2) and read == [1, 1]  # 524,244: at or under the floor
