"""The Coq export (`verify_perceptron.report.coq`): coqc proves every lemma of a true certificate and refuses a file
with one number changed.

Without coqc these tests skip, saying so; with ``VP_REQUIRE_COQ=1`` (which `.ci/run` sets) a missing coqc is a
failure instead. The real data sets and the sweeps over every number are `slow`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from verify_perceptron import audit
from verify_perceptron.cli import main

COQC = shutil.which("coqc")


def _without_coqc(environ: dict[str, str] | os._Environ[str]) -> tuple[str, str]:
    """What a Coq test does where coqc is missing: ``("fail", why)`` under ``VP_REQUIRE_COQ=1``, else skip."""
    if environ.get("VP_REQUIRE_COQ") == "1":
        return "fail", "VP_REQUIRE_COQ=1 but coqc is not on PATH (apt-get install -y coq)"
    return "skip", "coqc is not installed (apt-get install -y coq); VP_REQUIRE_COQ=1 makes this a failure"


@pytest.fixture
def coqc() -> str:
    if COQC is None:
        action, why = _without_coqc(os.environ)
        pytest.fail(why) if action == "fail" else pytest.skip(why)
    assert COQC is not None
    return COQC


def test_ci_turns_a_missing_coqc_into_a_failure() -> None:
    assert _without_coqc({"VP_REQUIRE_COQ": "1"})[0] == "fail"
    assert _without_coqc({})[0] == "skip" and _without_coqc({"VP_REQUIRE_COQ": "0"})[0] == "skip"


def _proves(coqc: str, path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([coqc, path.name], cwd=path.parent, capture_output=True, text=True, timeout=600)


def _export(tmp_path: Path, name: str, *args: str, command: str = "verify") -> Path:
    out = tmp_path / f"{name}.v"
    assert main([command, *args, "--coq", str(out), "--certificate", str(tmp_path / f"{name}.json")]) in (0, 3)
    return out


#: The definitions' integer literals (numbers of the data, vectors and scalars), each with its place.
_LITERAL = re.compile(r"(?<![A-Za-z0-9_])-?[0-9]+")


def _literals(text: str) -> list[tuple[int, int]]:
    """Where each number the certificate put in the file is: the data (L and the samples), the vectors and scalars
    (each a Definition), the count of updates, the shape and the fingerprint. The prelude's functions and the
    lemmas' statements are the checker, not numbers of the certificate."""
    spans, offset = [], 0
    for line in text.splitlines(keepends=True):
        number = (line.startswith("Definition ") and not line.startswith(("Definition classified", "Definition scaled")))
        number = number or line.startswith("  (") or line.startswith("Lemma fingerprint")
        if number and offset >= text.index("Definition L : Z"):
            start = line.index("=") if line.startswith("Lemma") else 0
            spans += [(offset + m.start(), offset + m.end()) for m in _LITERAL.finditer(line, start)]
        offset += len(line)
    return spans


def _mutated(text: str, span: tuple[int, int]) -> str:
    value = int(text[span[0]:span[1]])
    return text[:span[0]] + str(value + 1) + text[span[1]:]


@pytest.mark.parametrize(("name", "args"), [
    ("and_classic", ("--example", "and")),
    ("xor_classic", ("--example", "xor")),
    ("modified_or", ("--example", "modified-or")),
    ("or_hard_limiter", ("--example", "or", "-c", "hard-limiter", "--eta", "1/2")),
    ("and_sum_norm_batch", ("--example", "and", "-c", "sum-norm", "--mode", "batch")),
])
def test_coqc_proves_the_worked_examples(tmp_path: Path, coqc: str, name: str, args: tuple[str, ...]) -> None:
    path = _export(tmp_path, name, *args)
    done = _proves(coqc, path)
    assert done.returncode == 0, done.stdout + done.stderr
    lemmas = re.findall(r"^Lemma (\w+)", path.read_text(), re.M)
    if name.startswith("xor"):  # not separable: Gordan's λ, and no separator
        assert {"gordan_nonnegative", "gordan_sums_to_one", "gordan_identity"} <= set(lemmas)
        assert not any(lemma.startswith("sep_") for lemma in lemmas)
    else:
        assert {"sep_1_least_margin", "sep_1_gamma_positive", "final_weights_classify"} <= set(lemmas)


def test_coqc_proves_a_bounds_export(tmp_path: Path, coqc: str) -> None:
    path = _export(tmp_path, "and_bounds", "--example", "and", command="bounds")
    assert _proves(coqc, path).returncode == 0


@pytest.mark.parametrize("where", ["samples", "sep_1 :", "sep_1_gamma", "sep_1_bound_classic", "final :", "lambda :"])
def test_coqc_refuses_a_changed_number(tmp_path: Path, coqc: str, where: str) -> None:
    path = _export(tmp_path, "xor" if where == "lambda :" else "and", "--example",
                   "xor" if where == "lambda :" else "and")
    text = path.read_text()
    at = text.index(f"Definition {where}")
    span = next(s for s in _literals(text) if s[0] > at + len(f"Definition {where}"))
    path.write_text(_mutated(text, span))
    done = _proves(coqc, path)
    assert done.returncode != 0, f"coqc accepted {where} changed"


def test_the_header_says_what_is_outside_coq(tmp_path: Path) -> None:
    path = _export(tmp_path, "and_header", "--example", "and")
    header = path.read_text().split("*)", 1)[0]
    cert = json.loads((tmp_path / "and_header.json").read_text())
    assert cert["data"]["sha256"] in header and "Outside Coq" in header
    assert header.count("(*") == 1  # nothing in the header opens a nested comment


def test_a_coq_file_name_coqc_cannot_take_is_refused_before_the_run(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--example", "and", "--coq", str(tmp_path / "modified-or.v")]) == 2
    assert "--coq" in capsys.readouterr().err and not list(tmp_path.iterdir())


# --- slow: real data sets, and every number of a file changed in turn ---


def _real(tmp_path: Path, name: str, fmt: str = "%g", standardize: bool = False) -> Path:
    np = pytest.importorskip("numpy")
    datasets = pytest.importorskip("sklearn.datasets")
    if name == "cancer":
        X, y = datasets.load_breast_cancer(return_X_y=True)
    elif name == "wine0":
        X, y = datasets.load_wine(return_X_y=True)
        y = (y == 0).astype(int)
    elif name == "digits01":
        X, y = datasets.load_digits(n_class=2, return_X_y=True)
    else:  # iris pairs: irisAB, classes A and B
        X, y = datasets.load_iris(return_X_y=True)
        a, b = int(name[4]), int(name[5])
        keep = (y == a) | (y == b)
        X, y = X[keep], (y[keep] == b).astype(int)
    if standardize:
        X = (X - X.mean(axis=0)) / X.std(axis=0)
    path = tmp_path / f"{name}.csv"
    np.savetxt(path, np.c_[X, y], fmt=fmt, delimiter=",")
    return path


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cancer", "wine0", "iris01", "iris02", "iris12", "digits01"])
def test_real_sets_check_in_the_auditor_and_in_coq(tmp_path: Path, coqc: str, name: str) -> None:
    data = _real(tmp_path, name)
    cert, proof = tmp_path / "c.json", tmp_path / f"{name}.v"
    assert main(["verify", str(data), "--certificate", str(cert), "--coq", str(proof)]) == 0
    assert audit.main([str(cert), str(data)]) == 0
    done = _proves(coqc, proof)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_standardized_full_precision_cancer_checks_in_the_auditor(tmp_path: Path) -> None:
    data = _real(tmp_path, "cancer", fmt="%.17g", standardize=True)
    cert = tmp_path / "c.json"
    assert main(["verify", str(data), "--certificate", str(cert), "--certificate-data", "digest"]) == 0
    assert audit.main([str(cert), str(data)]) == 0


@pytest.mark.slow
@pytest.mark.parametrize("example", ["and", "xor"])
def test_coqc_refuses_every_one_number_change(tmp_path: Path, coqc: str, example: str) -> None:
    path = _export(tmp_path, example, "--example", example)
    text = path.read_text()
    spans = _literals(text)
    assert len(spans) > 20
    accepted = []
    for span in spans:
        path.write_text(_mutated(text, span))
        if _proves(coqc, path).returncode == 0:
            accepted.append(text[max(0, span[0] - 40):span[1]])
    assert accepted == []
