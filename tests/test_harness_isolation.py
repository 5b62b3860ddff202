"""``check`` runs what it checks at arm's length (issue 27): a target that exits, loops in C, blocks or
swallows signals, leaves threads or processes, prints gigabytes, writes to file descriptor 1, or returns
what cannot be read ends in a finding within its timeout, never in the check's exit code, a traceback,
a hang, unbounded memory or a process left running. Commands' files are read within limits, with the
data files' literal reader. ``check --time-limit`` and ``check -o``.

The targets are `tests.implementations.hostile`. The heavy versions (a command printing for seconds,
files of hundreds of megabytes written out) are marked slow; each has a small default version.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from tests.implementations import hostile
from tests.wall_clock import Stopwatch
from verify_perceptron.cli import main
from verify_perceptron.harness import FitFunction, check_dataset, check_implementation, command_implementation
from verify_perceptron.harness._capture import MAX_UPDATES_BYTES, MAX_WEIGHTS_BYTES

AND = ([["0", "0"], ["0", "1"], ["1", "0"], ["1", "1"]], [-1, -1, -1, 1])
TIE = ([["-1"], ["1"]], [-1, 1])
#: Seconds a call may take in these tests, and what a finding may take beyond it on a quiet machine (forks; a
#: loaded machine stretches it, `tests/wall_clock.py`).
TIMEOUT, GRACE = 0.3, 2.5


def findings(case: object) -> list[tuple[str, str]]:
    return [(f.check, f.message) for f in case.findings]  # type: ignore[attr-defined]


def running(mark: str) -> list[int]:
    """Processes whose command line holds `mark` (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                    if mark.encode() in cmdline.read():
                        found.append(int(entry))
            except OSError:
                continue
    return found


def left_running(mark: str, seconds: float) -> list[int]:
    """`running`, once no process holds `mark` or `seconds` have passed: a process sent SIGKILL and reaped by
    another (init, when its keeper is gone) is found in /proc until the kernel has run its exit."""
    import time

    end = time.monotonic() + seconds
    while (found := running(mark)) and time.monotonic() < end:
        time.sleep(0.02)
    return found


def sh(script: str) -> str:
    """A command running `script` in sh, with $1 = {train}, $2 = {out} and, if it uses it, $3 = {updates}."""
    return f"sh -c '{script}' sh {{train}} {{out}}" + (" {updates}" if "$3" in script else "")


# --- 1. a target's exit is a finding, never the check's exit --------------------------------------------


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (hostile.exits_0, "called sys.exit (SystemExit: 0) instead of returning"),
        (hostile.exits_3, "called sys.exit (SystemExit: 3) instead of returning"),
        (hostile.ends_process, "ended its process with exit status 0 instead of returning"),
    ],
)
def test_a_target_that_exits_fails_with_a_finding_naming_the_exit(target: FitFunction, message: str) -> None:
    case = check_dataset(target, *TIE)
    assert findings(case) == [("returns-weights", f"on these data the implementation {message}")]


def test_the_check_of_a_target_that_exits_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("exits_0", "exits_3", "ends_process"):
        assert main(["check", f"tests.implementations.hostile:{name}", "--examples", "2"]) == 1
        assert "verdict: FAILED" in capsys.readouterr().out


def test_without_fork_a_target_runs_in_process_and_its_exit_is_still_a_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    from verify_perceptron.harness import _runner

    monkeypatch.setattr(_runner, "ISOLATED", False)  # as on Windows
    assert findings(check_dataset(hostile.exits_3, *TIE)) == [
        ("returns-weights", "on these data the implementation called sys.exit (SystemExit: 3) instead of returning")]
    slow = check_dataset(hostile.sleeps, *TIE, call_timeout=0.05)  # the timer stops it (not a loop in C there)
    assert findings(slow) == [("returns-weights", "on these data the implementation did not return within "
                               "call_timeout=0.05 s")]


# --- 2. what a target returns or raises, however odd, is a finding ----------------------------------------


@pytest.mark.parametrize(
    ("target", "check", "message"),
    [
        (hostile.contains_itself, "returns-weights",
         "the returned weights: nested more than 8 deep (a list that contains itself?)"),
        (hostile.raises_unprintable, "returns-weights", "on these data the implementation raised _Unprintable "
         "(its message could not be shown: str() raised RuntimeError)"),
        (hostile.raises_generator_exit, "returns-weights", "on these data the implementation raised GeneratorExit"),
        (hostile.raises_base_exception, "returns-weights",
         "on these data the implementation raised Halt: stop everything"),
    ],
)
def test_odd_returns_and_exceptions_are_findings(target: FitFunction, check: str, message: str) -> None:
    assert findings(check_dataset(target, *TIE)) == [(check, message)]


# --- 3. time: loops in C, blocked and swallowed signals, threads, endless updates --------------------------


@pytest.mark.parametrize("name", ["loops_in_c", "blocks_the_alarm", "swallows_everything"])
def test_a_target_that_cannot_be_interrupted_is_stopped_at_its_timeout(name: str) -> None:
    watch = Stopwatch()
    case = check_dataset(getattr(hostile, name), *TIE, call_timeout=TIMEOUT)
    assert watch.within(TIMEOUT, GRACE)
    assert findings(case) == [("returns-weights",
                               f"on these data the implementation did not return within call_timeout={TIMEOUT} s")]


def test_a_thread_left_running_does_not_outlive_the_check() -> None:
    import threading

    before = threading.active_count()
    case = check_dataset(hostile.leaves_a_thread, *TIE)
    assert case.passed and threading.active_count() == before  # the thread lived and died in the worker


def test_endless_updates_are_read_as_far_as_the_exact_run_goes() -> None:
    watch = Stopwatch()
    case = check_dataset(hostile.updates_for_ever, *TIE)
    assert watch.within(0, GRACE)
    assert findings(case)[0] == ("reported-updates", "it reported more than 108 updates, where the exact run makes 2; "
                                                     "the first 108 were read")


def test_detached_processes_of_a_target_do_not_outlive_the_check() -> None:
    case = check_dataset(hostile.detaches_a_process, *TIE)
    assert case.passed, case.report()
    assert running(hostile.DETACHED_MARK) == []


def test_detached_processes_of_a_command_do_not_outlive_the_check_nor_block_it() -> None:
    mark = "62.3456"
    script = f'printf "2\\n0\\n" > $2; setsid sleep {mark} & (setsid sleep {mark} &)'  # holding stdout, detached
    watch = Stopwatch()
    case = check_dataset(command_implementation(sh(script)), *TIE, call_timeout=5)
    assert watch.within(0, GRACE)
    assert case.passed, case.report()
    assert running(mark) == []


def test_a_target_or_a_command_that_kills_its_keeper_is_killed_too() -> None:
    case = check_dataset(hostile.kills_its_keeper, *TIE, call_timeout=10)
    assert findings(case) == [("returns-weights", "on these data the implementation killed the process that kept "
                               "it (its parent), and was killed instead of returning")]
    mark = "63.4567"
    watch = Stopwatch()
    # (after its keeper has said which process it runs: a program can kill any process of its user at once)
    case = check_dataset(command_implementation(sh(f"sleep 0.3; kill -9 $PPID; sleep {mark}")), *TIE, call_timeout=10)
    assert watch.within(0, GRACE)
    assert findings(case) == [("returns-weights", "on these data the implementation (the command) killed the process "
                               "that kept it (its parent), and was killed")]
    # the check sends its session SIGKILL itself, its keeper being dead, and init reaps it: on a loaded machine its
    # sleep was once still in /proc just after the check returned
    assert left_running(mark, GRACE) == []


def test_a_check_in_a_process_with_many_files_open_works() -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if min(hard, 4096) < 1200:
        pytest.skip(f"at most {hard} open files here")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]  # the next descriptors are past 1023
    try:
        assert check_dataset(hostile.perceptron, *TIE).passed
        assert check_dataset(command_implementation(sh('printf "2\\n0\\n" > $2')), *TIE).passed
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


# --- 3. size: what a command prints, and the files it writes -----------------------------------------------


def test_what_a_command_prints_is_kept_as_a_head_and_a_tail_and_counted() -> None:
    script = 'head -c 3000000 /dev/zero | tr "\\0" x; printf "the end"; exit 1'
    case = check_dataset(command_implementation(sh(script)), *TIE)
    assert case.output_bytes == 3_000_007
    assert case.output.startswith("x" * 400 + "\n[... 2998107 bytes left out ...]\n")
    assert case.output.endswith("the end") and len(case.output) < 2000
    assert "(stdout and stderr, 3000007 bytes)" in case.report()


@pytest.mark.slow
def test_a_command_printing_for_ever_costs_no_memory() -> None:
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    case = check_dataset(command_implementation(sh("yes")), *TIE, call_timeout=2)
    assert case.output_bytes > 10_000_000 and len(case.output) < 2000
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 50_000  # kilobytes


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("mkdir $2", "its weights file ({out}) is a directory, not a regular file"),
        ("mkfifo $2", "its weights file ({out}) is a FIFO (named pipe), not a regular file"),
        ("ln -s /dev/urandom $2", "its weights file ({out}) is a character device, not a regular file"),
        ("ln -s /dev/zero $2", "its weights file ({out}) is a character device, not a regular file"),
        ('printf "\\377\\376\\n" > $2', "its weights file ({out}) is not UTF-8 text (byte 0xff at offset 0)"),
        (f"truncate -s {MAX_WEIGHTS_BYTES + 1} $2",
         f"its weights file ({{out}}) is {MAX_WEIGHTS_BYTES + 1} bytes long; at most {MAX_WEIGHTS_BYTES} are read"),
        ('printf "2\\n0\\n" > $2; truncate -s 300000000 $3',  # one line of 300 MB (sparse: written in no time)
         f"its updates file ({{updates}}) is 300000000 bytes long; at most {MAX_UPDATES_BYTES} are read"),
        ('printf "2\\n0\\n" > $2; mkfifo $3', "its updates file ({updates}) is a FIFO (named pipe), not a regular file"),
        ('printf "2\\n0\\n" > $2; head -c 9000 /dev/zero | tr "\\0" "[" > $3',
         "line 1 of its updates file is 9000 bytes long; an update of 2 values takes at most 8272"),
        ('printf "2\\n0\\n" > $2; head -c 5000 /dev/zero | tr "\\0" "[" > $3',
         'line 1 of its updates file is nested too deeply to be {"sample": i, "weights": [...]}'),
        ('printf "2\\n0\\n" > $2; printf "\\173\\"sample\\": \\"0\\", \\"weights\\": [2, 0]\\175" > $3',
         "line 1 of its updates file: sample '0' is not a JSON integer"),
    ],
)
def test_a_file_a_command_writes_is_read_within_limits_or_refused(script: str, message: str) -> None:
    case = check_dataset(command_implementation(sh(script)), *TIE, call_timeout=5)
    assert findings(case) == [("returns-weights", f"on these data the implementation (the command) {message}")]


@pytest.mark.slow
def test_files_of_hundreds_of_megabytes_written_out_are_refused_from_their_size(tmp_path: Path) -> None:
    script = 'head -c 100000000 /dev/zero | tr "\\0" "1" > $2'
    case = check_dataset(command_implementation(sh(script)), *TIE, call_timeout=30)
    assert findings(case) == [("returns-weights", "on these data the implementation (the command) its weights file "
                               f"({{out}}) is 100000000 bytes long; at most {MAX_WEIGHTS_BYTES} are read")]


# --- 4. --time-limit, -o, and reports untouched by what the target prints ------------------------------------


def test_the_time_limit_ends_the_whole_check_with_exit_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report.json"
    report.write_text("the previous report\n")
    watch = Stopwatch()
    code = main(["check", "tests.implementations.hostile:loops_in_c", "--timeout", "100", "--time-limit", "0.5",
                 "-o", str(report), "--format", "json"])
    assert code == 3 and watch.within(0.5, GRACE)
    err = capsys.readouterr().err
    assert err.startswith("verify-perceptron: the time limit of 0.5 s ran out while checking the notes' worked "
                          "examples") and err.count("\n") == 1
    assert report.read_text() == "the previous report\n"  # never a partial report, never the old one lost


def test_the_time_limit_bounds_a_search_of_many_short_calls(capsys: pytest.CaptureFixture[str]) -> None:
    watch = Stopwatch()
    assert main(["check", "tests.implementations.hostile:sleeps", "--time-limit", "0.8"]) == 3
    assert watch.within(0.8, GRACE)
    assert "ran out while" in capsys.readouterr().err


def test_a_time_limit_through_the_api_raises_time_up() -> None:
    from verify_perceptron.deadline import TimeUp

    with pytest.raises(TimeUp, match="the time limit of 0.3 s ran out while"):
        check_implementation(hostile.sleeps, time_limit=0.3)
    with pytest.raises(ValueError, match="time_limit=0 must be a number of seconds > 0 and at most 1000000000"):
        check_implementation(hostile.sleeps, time_limit=0)


@pytest.mark.parametrize("fmt", ["json", "junit"])
def test_reports_for_machines_are_untouched_by_what_the_target_writes_to_fds_1_and_2(
        fmt: str, tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    argv = ["check", "tests.implementations.hostile:writes_to_fd_1", "--examples", "2", "--format", fmt]
    assert main(argv) == 0
    out, err = capfd.readouterr()
    assert "not json" not in out and "and on 2" not in err
    if fmt == "json":
        assert json.loads(out)["passed"] is True
    else:
        ElementTree.fromstring(out)
    assert main([*argv, "-o", str(tmp_path / f"report.{fmt}")]) == 0
    assert capfd.readouterr() == ("", "")
    def untimed(text: str) -> str:  # JUnit's time attributes are measured: they differ from run to run
        return re.sub(r' time="[0-9.]+"', "", text)

    assert untimed((tmp_path / f"report.{fmt}").read_text()) == untimed(out)


def test_what_a_target_prints_on_fd_1_is_shown_in_its_failure(capfd: pytest.CaptureFixture[str]) -> None:
    def writes_and_fails(X: object, y: object) -> object:
        os.write(1, b"from C, on fd 1\n")
        return [0.0], 0.0

    case = check_dataset(writes_and_fails, *TIE)
    assert case.output == "from C, on fd 1\n" and capfd.readouterr() == ("", "")


def test_what_a_module_prints_while_imported_is_kept_out_of_the_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "chatty_import_27.py").write_text(
        "import os, sys\nprint('loading the model')\nos.write(1, b'<banner>\\n')\n"
        "from tests.implementations import perceptron as fit\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["check", "chatty_import_27:fit", "--examples", "2", "--format", "json"]) == 0
    out, _ = capfd.readouterr()
    assert json.loads(out)["loading_output"] == "loading the model\n<banner>\n"


def test_an_import_that_exits_is_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "exits_on_import_27.py").write_text("import sys\nsys.exit(0)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["check", "exits_on_import_27:fit"]) == 2
    assert "importing exits_on_import_27 raised SystemExit: 0" in capsys.readouterr().err


def test_an_import_that_ends_its_process_is_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ends_on_import_27.py").write_text("import os\nos._exit(0)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["check", "ends_on_import_27:fit"]) == 2  # in process, the check itself ended with 0
    assert capsys.readouterr().err == ("verify-perceptron: error: target='ends_on_import_27:fit': while being "
                                       "imported, it ended its process with exit status 0\n")


def test_an_import_that_loops_is_stopped_by_the_time_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "loops_on_import_27.py").write_text("print('starting')\nwhile True:\n    pass\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    watch = Stopwatch()
    assert main(["check", "loops_on_import_27:fit", "--time-limit", "0.3"]) == 3
    assert watch.within(0.3, GRACE)
    assert capsys.readouterr().err == ("verify-perceptron: the time limit of 0.3 s ran out while loading the "
                                       "implementation; nothing was verified (exit code 3)\n")


#: A module whose import is one C call that takes hours: no signal handler runs until it returns.
HANGS_IN_C = "sum(range(10**13))\n"


def _module(folder: Path, monkeypatch: pytest.MonkeyPatch, name: str, code: str) -> str:
    """`name`:fit, a module in `folder` (the current directory) running `code`, then naming the gallery's
    perceptron `fit`."""
    (folder / f"{name}.py").write_text(code + "from tests.implementations import perceptron as fit\n")
    monkeypatch.chdir(folder)
    monkeypatch.syspath_prepend(str(folder))
    return f"{name}:fit"


def test_an_import_that_hangs_in_c_ends_at_the_time_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    target = _module(tmp_path, monkeypatch, "hangs_in_c_27", HANGS_IN_C)
    watch = Stopwatch()
    assert main(["check", target, "--time-limit", "0.5"]) == 3
    assert watch.within(0.5, GRACE)
    assert capsys.readouterr().err == ("verify-perceptron: the time limit of 0.5 s ran out while loading the "
                                       "implementation; nothing was verified (exit code 3)\n")
    assert "hangs_in_c_27" not in sys.modules  # imported in the worker only


def test_without_a_time_limit_an_import_that_hangs_ends_at_the_loading_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from verify_perceptron.harness import _loading

    assert _loading.LOAD_SECONDS == 60.0  # as docs/harness.md says
    monkeypatch.setattr(_loading, "LOAD_SECONDS", 0.5)
    target = _module(tmp_path, monkeypatch, "hangs_without_limit_27", HANGS_IN_C)
    watch = Stopwatch()
    assert main(["check", target]) == 3
    assert watch.within(0.5, GRACE)
    assert capsys.readouterr().err.startswith("verify-perceptron: the loading limit of 0.5 s ran out while loading "
                                              "the implementation (without --time-limit, loading may take that long")


@pytest.mark.parametrize(("name", "code"), [
    ("prints_megabytes_27", "import os, sys\nsys.stdout.write('x' * (4 << 20))\nos.write(2, b'y' * (2 << 20))\n"),
    ("forks_on_import_27", "import os, subprocess, time\nsubprocess.Popen(['sleep', '73.2127'])\n"
                           "if os.fork() == 0:\n    time.sleep(0.1)\n"),
    ("leaves_a_thread_27", "import threading, time\nthreading.Thread(target=time.sleep, args=(10**6,)).start()\n"),
], ids=["prints megabytes", "forks", "leaves a thread"])
def test_what_a_module_does_at_import_stays_in_the_worker(name: str, code: str, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capfd: pytest.CaptureFixture[str]) -> None:
    import threading

    threads = threading.active_count()
    assert main(["check", _module(tmp_path, monkeypatch, name, code), "--examples", "2", "--format", "json"]) == 0
    out, err = capfd.readouterr()
    assert json.loads(out)["passed"] is True and err == ""
    assert len(json.loads(out)["loading_output"]) < 3000  # a head and a tail of the megabytes
    assert name not in sys.modules and threading.active_count() == threads and not running("73.2127")


def test_a_worker_that_cannot_load_its_module_again_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The first worker imports the module; its call ends that worker; the next worker's import raises.
    (tmp_path / "once_27.py").write_text(
        "import os\nif os.path.exists('imported'):\n    raise RuntimeError('imported twice')\n"
        "open('imported', 'w').close()\n\ndef fit(X, y):\n    os._exit(0)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    worked = check_implementation("once_27:fit", examples=2).worked_examples
    assert findings(worked[0]) == [("returns-weights", "on these data the implementation ended its process with "
                                    "exit status 0 instead of returning")]
    assert findings(worked[1]) == [("returns-weights", "on these data the implementation could not be loaded again "
                                    "in a new worker process: target='once_27:fit': importing once_27 raised "
                                    "RuntimeError: imported twice")]


def test_an_output_file_that_cannot_be_written_is_refused_before_the_check(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.mkfifo(tmp_path / "fifo")
    watch = Stopwatch()
    for target, message in ((tmp_path / "fifo", "is a FIFO (named pipe)"), (tmp_path, "is a directory"),
                            (tmp_path / "no" / "report.txt", "does not exist")):
        assert main(["check", "tests.implementations.hostile:sleeps", "-o", str(target)]) == 2
        assert message in capsys.readouterr().err
    assert watch.within(0, GRACE)  # refused before any call of the implementation


# --- 5. commands' numbers are read as the data files read them ---------------------------------------------


@pytest.mark.parametrize("dtype", ["float", "fraction"])
def test_a_command_writes_weights_with_the_data_files_literals(tmp_path: Path, dtype: str) -> None:
    from verify_perceptron.data.rationals import parse_rational
    from verify_perceptron.harness._protocol import CommandFailed, number

    # a hexadecimal float is the one form read where a data file refuses it (C's %a prints every double exactly)
    with pytest.raises(ValueError):
        parse_rational("0x1p3")
    assert number("0x1p3", dtype != "float", "w") == 8
    for text in ("1_0", "١", "١/2", "1e1_0", "inf", "nan", "1.5e-3", "-22/7", " 2 ", "1e400"):
        try:
            parse_rational(text)
        except ValueError:
            with pytest.raises(CommandFailed, match="is not"):
                number(text, dtype != "float", "w")
        else:
            if text != "1e400" or dtype != "float":
                assert number(text, True, "w") == parse_rational(text)
    with pytest.raises(CommandFailed, match="w: '1e400' is beyond the largest double"):
        number("1e400", False, "w")
    case = check_dataset(command_implementation(sh('printf "\\331\\241\\n0\\n" > $2')), *TIE, dtype=dtype)
    assert findings(case) == [("returns-weights", "on these data the implementation (the command) line 1 of its "
                               "weights file: '١' is not a number (integer, decimal, 1.5e-3 or p/q)")]


def test_the_doubles_a_float_command_writes_are_read_as_strtod_reads_them() -> None:
    from fractions import Fraction

    from verify_perceptron.harness._protocol import number

    for value in (0.1, 1 / 3, 5e-324, 1.7976931348623157e308, -2.5):
        assert number(repr(value), False, "w") == Fraction.from_float(value)
        assert number(f"{value:.17g}", False, "w") == Fraction.from_float(value)
    assert number("0.1", True, "w") == Fraction(1, 10)
