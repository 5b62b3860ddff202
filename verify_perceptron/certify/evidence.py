"""The certificate record: what each verdict rests on, exactly, for an auditor who trusts none of this package.

A certificate (docs/certificates.md has the schema field by field) holds the
data as the run read them (integers over one common denominator, or only
their digest), the separators with their margin γ, R², β, ‖w*‖² and each
note's bound, Gordan's λ when the data are not separable, and the run: its
final weights, its count of updates and the least slack of each claim the
auditor replays. Every number is exact text (``"-4"``, ``"3/7"``).

Everything is written in the coordinates of one convention (``coordinates``):
the run's own for ``verify``, ``classic`` (bias first, input 1, that is the
shared form ``(b, v)``) for ``bounds``. γ, R², β and ‖w*‖² do not depend on
which: a bias input of -1 only flips the sign of the bias weight.

The data's digest is SHA-256 of their canonical text (`canonical_text`), so
an auditor can recompute it from the integers; when the data came from a
file, SHA-256 of the file's bytes too, which ties the integers to the file.

This module builds the record from what `certify/` and the run give; it
formats nothing: `verify_perceptron.report.certificates` writes it as JSON
and `verify_perceptron.report.coq` as a Coq file.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

from ..check.results import CheckResult
from ..data.dataset import Dataset
from ..data.exact_text import exact_text, integer_text
from ..data.trace import Trace
from ..errors import InvalidArgument
from ..notes.bounds import Geometry, geometry, note_bound
from ..notes.conventions import CONVENTIONS, get_convention
from .comparison import BoundComparison
from .separability import Separability

__all__ = ["CERTIFICATE_VERSION", "AUDITED_CLAIMS", "DATA_CHOICES", "canonical_lines", "data_sha256",
           "file_sha256", "certificate_of_run", "certificate_of_bounds", "check_auditable"]

#: The schema's version: an auditor refuses a certificate of a version it does not know.
CERTIFICATE_VERSION = 1
#: The first line of the data's canonical text.
DATA_HEADER = "verify-perceptron data 1"
#: ``embed`` (the default): the integers are in the certificate; ``digest``: only their digests.
DATA_CHOICES = ("embed", "digest")
#: The claims whose least slack the certificate records, by mode: the auditor replays the run and recomputes them.
AUDITED_CLAIMS = {
    "online": ("lower-bound", "upper-bound", "cauchy-schwarz", "mistake-bound"),
    "batch": ("lower-bound", "cauchy-schwarz", "mistake-bound-sum-batch"),
}


def _int(value: int) -> str:
    return str(value) if value.bit_length() < 10_000 else integer_text(value)  # past str's digit limit in pieces


def canonical_lines(data: Dataset) -> Iterator[str]:
    """The data's canonical text, line by line (each without its newline): the header, ``n d L``, then one
    line per sample, its label (``1`` or ``-1``) and its numerators over L, separated by single spaces.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> list(canonical_lines(example("and")))
    ['verify-perceptron data 1', '4 2 1', '-1 0 0', '-1 0 1', '-1 1 0', '1 1 1']
    """
    yield DATA_HEADER
    yield f"{data.n_samples} {data.n_features} {_int(data.denominator)}"
    for label, row in zip(data.y, data.numerators.tolist()):
        yield " ".join([str(label), *map(_int, row)])


def data_sha256(data: Dataset) -> str:
    """SHA-256 (hex) of the canonical text, each line ended by ``\\n``, in UTF-8.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> import hashlib
    >>> data_sha256(example("and")) == hashlib.sha256(b"verify-perceptron data 1\\n4 2 1\\n-1 0 0\\n-1 0 1\\n"
    ...                                                b"-1 1 0\\n1 1 1\\n").hexdigest()
    True
    """
    digest = hashlib.sha256()
    for line in canonical_lines(data):
        digest.update(line.encode("utf-8") + b"\n")
    return digest.hexdigest()


def check_auditable(data: Dataset, path: str) -> None:
    """Raise `InvalidArgument` unless the auditor (`verify_perceptron.audit`), given the file `path` that
    `data` were read from, reads the same samples: a certificate of their digest alone is checked only so.

    The auditor reads plain comma-separated CSV (compressed or not); a file the package reads in another
    layout (a LIBSVM or NumPy file, semicolons, quoted cells, a label column named otherwise) is named, with
    the way out: the data embedded in the certificate.

    Examples
    --------
    >>> import tempfile, os
    >>> from verify_perceptron.data.readers import load_dataset
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "d.csv")
    ...     _ = open(path, "w").write("a;y\\n1;1\\n-1;0\\n")
    ...     try:
    ...         check_auditable(load_dataset(path), path)
    ...     except InvalidArgument as error:
    ...         print(str(error).replace(tmp, "TMP")[:101])
    a certificate of the data's digest alone would not be checked: the auditor says DATA TMP/d.csv line 2
    """
    from .. import audit  # (untyped on purpose: the standard library only, read as it stands)

    labels = {"negative": data.labels[0], "positive": data.labels[1]}
    fix = ("; leave the data embedded in the certificate (--certificate-data embed, the default; "
           "certificate(data='embed') in Python)")
    try:
        denominator, rows = audit.read_csv(path, labels)  # type: ignore[no-untyped-call]
    except audit.Malformed as error:
        raise InvalidArgument(f"a certificate of the data's digest alone would not be checked: the auditor says "
                              f"{error}") from None  # (which says to embed the data)
    width = len(rows[0]) - 1 if rows else 0
    if audit.digest(len(rows), width, denominator, rows) != data_sha256(data):  # type: ignore[no-untyped-call]
        raise InvalidArgument(f"a certificate of the data's digest alone would not be checked: the auditor reads "
                              f"{path} as {len(rows)} "
                              f"samples x {width} features, not as the {data.n_samples} x {data.n_features} the "
                              f"data were read as{fix}")


def file_sha256(path: str | os.PathLike[str]) -> str:
    """SHA-256 (hex) of a file's bytes, read in blocks; an unreadable file is `InvalidArgument` naming it."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError as error:
        raise InvalidArgument(f"{path}: cannot be read for its digest ({error.strerror or error})") from None
    return digest.hexdigest()


def _data(data: Dataset, file_digest: str | None, embed: str) -> dict[str, Any]:
    if embed not in DATA_CHOICES:
        raise InvalidArgument(f"certificate data={embed!r} must be one of {', '.join(DATA_CHOICES)}")
    record: dict[str, Any] = {
        "source": data.source,
        "file_sha256": file_digest,
        "sha256": data_sha256(data),
        "n_samples": data.n_samples,
        "n_features": data.n_features,
        "labels": {"negative": data.labels[0], "positive": data.labels[1]},
        "embedded": embed == "embed",
        "denominator": None,
        "rows": None,
    }
    if embed == "embed":
        record["denominator"] = _int(data.denominator)
        record["rows"] = [line.split(" ") for line in list(canonical_lines(data))[2:]]
    return record


def _vector(values: Sequence[Fraction]) -> list[str]:
    return [exact_text(Fraction(v)) for v in values]


def _separator(name: str, weights: Sequence[Fraction], g: Geometry) -> dict[str, Any]:
    bounds: dict[str, str] = {}
    for convention in CONVENTIONS if g.separates else ():
        try:
            bounds[convention] = exact_text(note_bound(convention, g).value)
        except ValueError:  # note 004 normalises ‖α*‖ = 1, impossible when ‖v‖ = 0: no bound of its to certify
            continue
    return {"name": name, "weights": _vector(weights), "gamma": exact_text(g.gamma), "R_sq": exact_text(g.R_sq),
            "beta": exact_text(g.beta), "ws_sq": exact_text(g.ws_sq), "bounds": bounds}


def _version() -> str:
    try:  # read from the installed distribution: certify/ may not import the package's front door
        return importlib.metadata.version("verify-perceptron")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


def _head(command: str, coordinates: str, data: Dataset, file_digest: str | None, embed: str) -> dict[str, Any]:
    conv = get_convention(coordinates)
    return {
        "certificate": "verify-perceptron",
        "version": CERTIFICATE_VERSION,
        "tool": f"verify-perceptron {_version()}",
        "command": command,
        "coordinates": coordinates,
        "bias": {"position": "first" if conv.bias_first else "last", "input": conv.bias_input},
        "data": _data(data, file_digest, embed),
    }


def certificate_of_run(data: Dataset, trace: Trace, check: CheckResult, separability: Separability, *,
                       file_digest: str | None = None, data_choice: str = "embed") -> dict[str, Any]:
    """The certificate of a ``verify`` run: the data, the separator its claims were checked against (or the one
    that proves separability), λ when not separable, and the run.

    Examples
    --------
    >>> from verify_perceptron.api.verification import run_verification
    >>> from verify_perceptron.data.examples import example
    >>> r = run_verification(example("and"), "classic")
    >>> c = certificate_of_run(r.data, r.trace, r.check, r.separability)
    >>> c["separators"][0]["weights"], c["separators"][0]["gamma"], c["run"]["n_updates"], c["run"]["claims"]
    (['-4', '3', '2'], '1', 18, {'lower-bound': '3', 'upper-bound': '2', 'cauchy-schwarz': '0', 'mistake-bound': '69'})
    """
    conv = get_convention(trace.convention)
    record = _head("verify", conv.name, data, file_digest, data_choice)
    record["separable"] = separability.separable
    separators = []
    if check.separator is not None and check.geometry is not None and check.geometry.separates:
        separators.append(_separator(check.separator_source or "user", check.separator, check.geometry))
    elif separability.separable and separability.separator is not None:
        b, *v = separability.separator
        weights = conv.from_canonical(b, v)
        separators.append(_separator("separability", weights, geometry(data, b, v)))
    record["separators"] = separators
    record["gordan"] = None if separability.separable is not False or separability.gordan is None else {
        "lambda": _vector(separability.gordan)}
    claims = {}
    if separators and separators[0]["name"] == (check.separator_source or "user"):
        found = {result.name: result for result in check.invariants}
        for name in AUDITED_CLAIMS[trace.mode]:
            result = found.get(name)
            if result is not None and result.holds and result.min_slack is not None:
                claims[name] = exact_text(result.min_slack)
    record["run"] = {
        "convention": conv.name,
        "mode": trace.mode,
        "rate": exact_text(trace.rate),
        "step": exact_text(conv.step_size(trace.rate)),
        "stop": trace.stop,
        "converged": trace.converged,
        "n_epochs": trace.n_epochs,
        "n_updates": trace.n_updates,
        "n_mistakes": trace.n_mistakes,
        "final_weights": _vector(trace.final_weights),
        "claims_separator": separators[0]["name"] if claims else None,
        "claims": claims,
    }
    return record


def certificate_of_bounds(data: Dataset, comparison: BoundComparison, *, file_digest: str | None = None,
                          data_choice: str = "embed") -> dict[str, Any]:
    """The certificate of ``bounds``: the data, every separator the bounds were evaluated at, in the shared form
    ``(b, v)`` (``classic``'s coordinates), with each note's bound, or λ when the data are not separable.

    Examples
    --------
    >>> from verify_perceptron.certify.comparison import compare_bounds
    >>> from verify_perceptron.data.examples import example
    >>> c = certificate_of_bounds(example("and"), compare_bounds(example("and")))
    >>> [(s["name"], s["weights"], s["bounds"]["classic"]) for s in c["separators"]][:1]
    [('max-margin', ['-3', '2', '2'], '51')]
    """
    record = _head("bounds", "classic", data, file_digest, data_choice)
    separability = comparison.separability
    record["separable"] = separability.separable
    record["separators"] = [_separator(s.name, s.weights, s.geometry) for s in comparison.separators
                            if s.geometry.separates]
    record["gordan"] = None if separability.separable is not False or separability.gordan is None else {
        "lambda": _vector(separability.gordan)}
    record["run"] = None
    return record
