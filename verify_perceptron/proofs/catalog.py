"""The five notes' convergence proofs, restated step by step in SymPy and checked mechanically.

This is the front door of the symbolic part of the toolkit:

* `proof_reports` checks every proof (and runs the exact perceptron runs that
  refute the steps a note writes wrongly) and returns the results;
* `proof_data` gives the same as JSON-ready dictionaries;
* `render_proofs` lays them out as ``text``, ``json`` or ``markdown``;
* `instantiated_claims` lists the runtime claims that verified steps instantiate;
* `proof_documents` / `write_proof_documents` produce the repository's
  ``proofs/`` folder (one Markdown document per note, plus batch mode).

Regenerate the documents from the repository root with::

    python -m verify_perceptron.proofs

Nothing in the runtime chain imports this module: SymPy is loaded only here.

Examples
--------
>>> [r.result.proof.key for r in proof_reports("classic")]
['000']
>>> report = proof_reports("000")[0]
>>> report.result.complete, report.result.result("000.5").status
(True, 'verified')
>>> report.result.result("000.11w").status
'not-derivable'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import note_000 as _proof_000
from . import note_001 as _proof_001
from . import note_002 as _proof_002
from . import note_003 as _proof_003
from . import note_004 as _proof_004
from . import hard_limiter_plus as _proof_hard_limiter_plus
from . import batch as _proof_batch
from . import soft_margin as _proof_soft_margin
from . import averaged as _proof_averaged
from .render import GENERATED_BY, proof_record, render_json, render_markdown, render_text
from ..notes.claims import Claim, claims_for
from ..notes.conventions import get_convention
from .errata import Counterexample, Erratum, ModelOf, find_counterexample
from ..errors import InvalidArgument
from .checking import check_proof
from .language import Proof
from .results import ProofResult

__all__ = [
    "NoteProof", "ProofReport", "NOTE_PROOFS", "FORMATS", "GENERATED_BY",
    "proof_reports", "proof_data", "render_proofs", "proof_documents", "write_proof_documents", "select",
    "instantiated_claims",
]

#: The formats `render_proofs` knows.
FORMATS = ("text", "json", "markdown")


@dataclass(frozen=True)
class NoteProof:
    """A note's restated proof, its errata, and how to read the note's symbols off a run."""

    proof: Proof
    errata: tuple[Erratum, ...] = ()
    model_of: ModelOf | None = None

    @property
    def document(self) -> str:
        """The Markdown file name under ``proofs/`` (``000-classic.md``, ``batch.md``)."""
        if self.proof.convention in ("*", self.proof.key):
            return f"{self.proof.key}.md"
        return f"{self.proof.key}-{self.proof.convention}.md"


#: Every restated proof, in note order (note 001's hard limiter with sgn(0) = +1 beside note 001); the last three,
#: batch mode, the bound without separation and the averaged perceptron, no note proves.
NOTE_PROOFS: tuple[NoteProof, ...] = (
    NoteProof(_proof_000.PROOF, _proof_000.ERRATA, _proof_000.model_of),
    NoteProof(_proof_001.PROOF, _proof_001.ERRATA, _proof_001.model_of),
    NoteProof(_proof_hard_limiter_plus.PROOF),
    NoteProof(_proof_002.PROOF, _proof_002.ERRATA, _proof_002.model_of),
    NoteProof(_proof_003.PROOF, _proof_003.ERRATA, _proof_003.model_of),
    NoteProof(_proof_004.PROOF, _proof_004.ERRATA, _proof_004.model_of),
    NoteProof(_proof_batch.PROOF),
    NoteProof(_proof_soft_margin.PROOF),
    NoteProof(_proof_averaged.PROOF),
)


@dataclass(frozen=True)
class ProofReport:
    """One checked proof, with each erratum's counterexamples from exact runs."""

    entry: NoteProof
    result: ProofResult
    errata: tuple[tuple[Erratum, tuple[Counterexample, ...]], ...]

    def record(self) -> dict[str, Any]:
        """The report as a JSON-ready dictionary."""
        return proof_record(self.result, self.errata)


def select(note: str | None = None, entries: Sequence[NoteProof] = NOTE_PROOFS) -> list[NoteProof]:
    """The proofs `note` names: a key (``"000"``, ``"batch"``), ``"note-000"``, a convention or a seed file.

    A seed file names every proof about that note (``003``'s seed gives the
    incremental proof and batch mode). None selects all.

    Examples
    --------
    >>> [e.proof.key for e in select("sum-norm")], [e.proof.key for e in select("003_a6cf23fd4ca930da.txt")]
    (['003'], ['003', 'batch'])
    >>> select("007")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: note='007' is not one of 000, 001, hard-limiter-plus, 002, 003, 004, batch, soft-margin, averaged (or a convention, or a seed file)
    """
    if note is None:
        return list(entries)
    key = note[5:] if note.startswith("note-") else note
    chosen = [e for e in entries if key in (e.proof.key, e.proof.convention, e.proof.note)]
    if not chosen:
        keys = ", ".join(e.proof.key for e in entries)
        raise InvalidArgument(f"note={note!r} is not one of {keys} (or a convention, or a seed file)")
    return chosen


def _report(entry: NoteProof) -> ProofReport:
    counter_models = {}
    errata = []
    for erratum in entry.errata:
        if entry.model_of is None:
            raise InvalidArgument(f"proof {entry.proof.key} has errata but no model_of to read runs")
        found = tuple(find_counterexample(f, entry.proof, entry.model_of) for f in erratum.failures)
        for ce in found:
            counter_models[ce.failure.step] = ce.model
        errata.append((erratum, found))
    return ProofReport(entry, check_proof(entry.proof, counter_models=counter_models), tuple(errata))


def proof_reports(note: str | None = None,
                  starting: Callable[[int, int, NoteProof], None] | None = None) -> list[ProofReport]:
    """Check the selected proofs (all by default) and find each erratum's counterexample.

    Parameters
    ----------
    note : str, optional
        See `select`.
    starting : callable, optional
        Told ``(k, n, entry)`` before the k-th of the n proofs is checked (a progress display).

    Returns
    -------
    list of ProofReport
    """
    entries = select(note)
    reports = []
    for k, entry in enumerate(entries, 1):
        if starting is not None:
            starting(k, len(entries), entry)
        reports.append(_report(entry))
    return reports


def instantiated_claims(convention: str, mode: str = "online") -> list[Claim]:
    """The runtime claims of `convention` in `mode` that a verified proof step instantiates, in report order.

    These are the predicates `verify_perceptron.check.traces.check_trace` evaluates at
    every update; the tests confirm the list is all of them.

    Examples
    --------
    >>> [c.name for c in instantiated_claims("sum-norm")][-2:]
    ['upper-bound-sum', 'angle']
    """
    conv = get_convention(convention).name
    entries = [e for e in NOTE_PROOFS if e.proof.mode == mode and e.proof.convention in (conv, "*")]
    tied = {r.tie.claim for e in entries for r in _report(e).result.steps
            if r.status == "verified" and r.tie is not None and r.tie.holds}
    return [c for c in claims_for(conv, mode) if c.name in tied]


def proof_data(note: str | None = None) -> list[dict[str, Any]]:
    """The checked proofs as JSON-ready dictionaries, one per proof (the ``json`` format's content).

    Each has ``note`` (the seed file), ``key``, ``convention``, ``mode``,
    ``steps`` (each with ``id``, ``place``, ``claim``, ``status`` in
    ``verified``, ``not-derivable``, ``undecided``, ``reason``,
    ``runtime_claim``, ``counter_model``) and ``errata`` (each with the
    note's ``words``, the ``correction`` and the ``failures`` found in exact runs).
    """
    return [report.record() for report in proof_reports(note)]


def render_proofs(note: str | None = None, format: str = "text") -> str:
    """The checked proofs as ``text``, ``json`` or ``markdown`` (pure: returns the string).

    Examples
    --------
    >>> print(render_proofs("004", "text").splitlines()[1])
      note 004_0d14cbbd3b612206.txt, split-bias, online mode: 17 verified, 1 not derivable as written, 0 undecided
    >>> render_proofs("004", "xml")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: format='xml' must be one of text, json, markdown
    """
    if format not in FORMATS:
        raise InvalidArgument(f"format={format!r} must be one of {', '.join(FORMATS)}")
    return render_records(proof_data(note), format)


def render_records(records: list[dict[str, Any]], format: str = "text") -> str:
    """`render_proofs` of records already made (`proof_data`, or each `ProofReport.record`)."""
    if format == "json":
        return render_json(records)
    if format == "markdown":
        return "\n".join(render_markdown(r) for r in records)
    return render_text(records)


def proof_documents(note: str | None = None) -> dict[str, str]:
    """``{file name: Markdown}`` for the ``proofs/`` folder, one document per proof."""
    return {report.entry.document: render_markdown(report.record()) for report in proof_reports(note)}


def default_directory() -> Path:
    """The repository's ``proofs/`` folder (beside the package, two levels above this module)."""
    return Path(__file__).resolve().parents[2] / "proofs"


def write_proof_documents(directory: str | Path | None = None) -> list[Path]:
    """Write every proof's Markdown document into `directory` (default: the repository's ``proofs/``).

    Returns the paths written, in note order.
    """
    target = Path(directory) if directory is not None else default_directory()
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in proof_documents().items():
        path = target / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def _main(argv: Sequence[str]) -> None:
    # `python -m verify_perceptron.proofs [DIRECTORY]`: regenerate the documents, silently.
    if len(argv) > 1:
        raise InvalidArgument(f"arguments={list(argv)!r}: expected at most one directory")
    write_proof_documents(argv[0] if argv else None)
    if not argv:  # the repository's own copy: also the rules the checker decides on runs (notes/_proof_facts.py)
        from .bindings import main as write_rules

        write_rules()

