"""The stand-alone auditor (`verify_perceptron.audit`): it passes every true certificate, refuses every one-number
change to one, says a malformed certificate in one line, and runs with the package out of reach."""

from __future__ import annotations

import ast
import bz2
import copy
import gzip
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

import verify_perceptron as vp
from verify_perceptron import audit
from verify_perceptron.cli import main
from verify_perceptron.errors import InvalidArgument

AUDITOR = Path(audit.__file__)


def _certificate(tmp_path: Path, *args: str) -> dict[str, Any]:
    out = tmp_path / "c.json"
    assert main(["verify", *args, "--certificate", str(out)]) in (0, 3), args
    return json.loads(out.read_text())


def _bounds_certificate(tmp_path: Path, *args: str) -> dict[str, Any]:
    out = tmp_path / "b.json"
    assert main(["bounds", *args, "--certificate", str(out)]) == 0
    return json.loads(out.read_text())


def _audit(cert: dict[str, Any], data: Path | None = None) -> audit.Audit:
    return audit.audit(json.loads(json.dumps(cert)), None if data is None else str(data))


@pytest.mark.parametrize("example", ["and", "or", "xor", "modified-or"])
@pytest.mark.parametrize(("convention", "mode", "eta"), [
    ("classic", "online", "1"), ("hard-limiter", "online", "1/2"), ("hard-limiter-plus", "batch", "1"),
    ("unit-ball", "online", "1"), ("sum-norm", "batch", "2/3"), ("split-bias", "online", "3"),
])
def test_every_worked_example_certificate_checks(tmp_path: Path, example: str, convention: str, mode: str,
                                                 eta: str) -> None:
    cert = _certificate(tmp_path, "--example", example, "-c", convention, "--mode", mode, "--eta", eta)
    result = _audit(cert)
    assert result.failed == 0, result.lines
    assert any("run: replayed" in line for line in result.lines)


def test_the_bounds_certificate_checks(tmp_path: Path) -> None:
    result = _audit(_bounds_certificate(tmp_path, "--example", "and"))
    assert result.failed == 0 and sum("bound" in line for line in result.lines) >= 12, result.lines


#: Fields that state nothing: how the labels were spelt in the file (the file's digest ties them).
INFORMATIONAL = {"labels"}


def _numbers(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every number of a certificate (exact text or a JSON integer) and every digest, with its place."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in INFORMATIONAL:
                continue
            yield from _numbers(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _numbers(item, path + (i,))
    elif isinstance(value, bool):
        return
    elif isinstance(value, int) or (isinstance(value, str) and re.fullmatch(r"-?[0-9]+(/[0-9]+)?|[0-9a-f]{64}", value)):
        yield path, value


def _changed(value: Any) -> Any:
    if isinstance(value, int):
        return value + 1
    if re.fullmatch(r"[0-9a-f]{64}", value):
        return ("1" if value[0] == "0" else "0") + value[1:]
    numerator, _, denominator = value.partition("/")
    return f"{int(numerator) + 1}" + (f"/{denominator}" if denominator else "")


def _set(cert: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(cert)
    target = changed
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return changed


@pytest.mark.parametrize("args", [("--example", "and"), ("--example", "xor"), ("--example", "modified-or", "--mode",
                                                                            "batch"), ("--example", "and", "-c",
                                                                                       "hard-limiter")])
def test_every_one_number_change_is_refused(tmp_path: Path, args: tuple[str, ...]) -> None:
    cert = _certificate(tmp_path, *args)
    places = list(_numbers(cert))
    assert len(places) > 20
    for path, value in places:
        try:
            result = _audit(_set(cert, path, _changed(value)))
        except audit.Malformed:
            continue
        assert result.failed > 0, (path, value)


def test_every_one_number_change_to_a_bounds_certificate_is_refused(tmp_path: Path) -> None:
    cert = _bounds_certificate(tmp_path, "--example", "or")
    for path, value in _numbers(cert):
        try:
            result = _audit(_set(cert, path, _changed(value)))
        except audit.Malformed:
            continue
        assert result.failed > 0, (path, value)


def test_the_auditor_imports_only_the_standard_library() -> None:
    tree = ast.parse(AUDITOR.read_text(encoding="utf-8"))
    names = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    names |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert all(not isinstance(node, ast.ImportFrom) or node.level == 0 for node in ast.walk(tree))
    assert names and names <= set(sys.stdlib_module_names), names
    assert len(AUDITOR.read_text(encoding="utf-8").splitlines()) <= 310


def _run_alone(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The auditor copied to `folder` and run there in isolated mode: the package cannot be imported."""
    shutil.copy(AUDITOR, folder / "auditor.py")
    blocker = "import sys; sys.modules['verify_perceptron'] = None; import runpy; sys.argv = ['auditor.py', *sys.argv[1:]]; "
    return subprocess.run([sys.executable, "-I", "-c", blocker + "runpy.run_path('auditor.py', run_name='__main__')",
                           *args], cwd=folder, capture_output=True, text=True, timeout=60)


def test_the_auditor_runs_with_the_package_out_of_reach(tmp_path: Path) -> None:
    data = tmp_path / "d.csv"
    data.write_text("x1,x2,label\n0,0,0\n0,1/2,0\n1,0,0\n1,1,1\n")
    cert = tmp_path / "c.json"
    assert main(["verify", str(data), "--certificate", str(cert), "--certificate-data", "digest"]) == 0
    done = _run_alone(tmp_path, "c.json", "d.csv")
    assert done.returncode == 0 and done.stdout.endswith("the certificate checks\n"), done.stderr
    data.write_text("x1,x2,label\n0,0,0\n0,1/2,0\n1,0,0\n1,1,0\n")  # one label changed
    done = _run_alone(tmp_path, "c.json", "d.csv")
    assert done.returncode == 1 and "FAIL  data:" in done.stdout
    missing = _run_alone(tmp_path, "c.json")
    assert missing.returncode == 2 and missing.stdout == "" and len(missing.stderr.splitlines()) == 1
    assert "give DATA" in missing.stderr


def test_a_digest_only_certificate_is_not_written_for_a_file_the_auditor_cannot_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, lettered = tmp_path / "d.svm", tmp_path / "e.csv"
    data.write_text("-1 1:0\n-1 2:1\n-1 1:1\n1 1:1 2:1\n")
    lettered.write_text("lbl,a\n1,2\n0,-1\n1,3\n")  # the label column named otherwise: the auditor takes 'a'
    cert = tmp_path / "c.json"
    assert main(["verify", str(data), "--certificate", str(cert), "--certificate-data", "digest"]) == 2
    assert "the auditor says DATA " + str(data) + " line 2: the auditor reads plain CSV only" in capsys.readouterr().err
    assert main(["verify", str(lettered), "--label-column", "lbl", "--certificate", str(cert),
                 "--certificate-data", "digest"]) == 2
    assert "would not be checked: the auditor says" in capsys.readouterr().err
    assert not cert.exists()
    with pytest.raises(InvalidArgument, match="would not be checked"):
        vp.verify(str(data)).certificate(data="digest")
    assert vp.verify(str(data)).certificate()["data"]["embedded"]  # embedded, the auditor needs no file
    made = vp.verify(str(data)).certificate()
    made["data"]["embedded"] = False  # a digest certificate made by hand for a file the auditor does not read
    cert.write_text(json.dumps(made))
    assert audit.main([str(cert), str(data)]) == 2


@pytest.mark.parametrize("form", ["pandas index", "gzip", "bzip2 of pandas' R-quoted index"])
def test_the_auditor_reads_pandas_exports_and_compressed_files(tmp_path: Path, form: str) -> None:
    rows = "x1,x2,label\n0,0,0\n0,1/2,0\n1,0,0\n1,1,1\n"
    if form != "gzip":  # a first column of row numbers under an empty header cell ('""' as R writes it)
        first = ['""' if form.startswith("bzip2") else "", "0", "1", "2", "3"]
        rows = "".join(f"{cell},{line}\n" for cell, line in zip(first, rows.splitlines()))
    data = tmp_path / ("d.csv" + {"pandas index": "", "gzip": ".gz"}.get(form, ".bz2"))
    packed = {"gzip": lambda b: gzip.compress(b, mtime=0), "pandas index": lambda b: b}.get(form, bz2.compress)
    data.write_bytes(packed(rows.encode()))
    cert = tmp_path / "c.json"
    assert main(["verify", str(data), "--certificate", str(cert), "--certificate-data", "digest"]) == 0
    assert audit.main([str(cert), str(data)]) == 0
    data.write_bytes(packed(rows.replace(",1,1\n", ",1,0\n").encode()))  # one label changed
    assert audit.main([str(cert), str(data)]) == 1


def test_a_data_file_other_than_the_certified_one_is_refused(tmp_path: Path) -> None:
    data, other = tmp_path / "d.csv", tmp_path / "e.csv"
    data.write_text("0,0,0\n0,1,0\n1,0,0\n1,1,1\n")
    other.write_text("0,0,0\n0,1,0\n1,0,0\n1,1,1\n\n")  # the same data, other bytes
    cert = tmp_path / "c.json"
    assert main(["verify", str(data), "--certificate", str(cert)]) == 0
    assert audit.main([str(cert), str(data)]) == 0
    assert audit.main([str(cert), str(other)]) == 1


@pytest.mark.parametrize("text", ["", "[]", "{\"certificate\": \"verify-perceptron\", \"version\": 2}",
                                  "{\"certificate\": \"verify-perceptron\", \"version\": 1, \"coordinates\": \"x\"}"])
def test_a_malformed_certificate_is_one_line_and_exit_2(tmp_path: Path, text: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    cert = tmp_path / "c.json"
    cert.write_text(text)
    assert audit.main([str(cert)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and err.startswith("audit: ")


def test_a_field_of_the_wrong_shape_is_malformed_not_a_traceback(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    cert = _certificate(tmp_path, "--example", "and")
    for path, _ in list(_numbers(cert))[::3]:
        wrong: object  # a field of the wrong shape: null, an array, an object, a string, a float
        for wrong in (None, [], {"a": 1}, "x", 1.5):
            (tmp_path / "m.json").write_text(json.dumps(_set(cert, path, wrong)))
            assert audit.main([str(tmp_path / "m.json")]) in (1, 2), path
    capsys.readouterr()
