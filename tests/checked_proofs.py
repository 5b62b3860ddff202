"""The checked proofs' reports (`proof_reports()`), computed once per process and only when a test first reads one.

`tests/test_proof_notes.py` and `tests/test_proof_errata.py` each computed them when imported: every pytest-xdist
worker paid for both at collection (about 6 s of CPU each), a `pytest -m slow` run too, though it runs none of
their tests. Their parameters come from `NOTE_PROOFS` itself, which costs nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping

from verify_perceptron.proofs import NOTE_PROOFS, ProofReport, proof_reports

#: Every proof's key, in the catalog's order (the order `proof_reports()` gives its reports in).
KEYS = [entry.proof.key for entry in NOTE_PROOFS]
#: The keys of the proofs with errata (a report has errata exactly when its catalog entry has).
WITH_ERRATA = [entry.proof.key for entry in NOTE_PROOFS if entry.errata]


@functools.cache
def _reports() -> dict[str, ProofReport]:
    return {report.result.proof.key: report for report in proof_reports()}


class _Reports(Mapping[str, ProofReport]):
    """``{key: ProofReport}`` for every proof, checked on the first read."""

    def __getitem__(self, key: str) -> ProofReport:
        return _reports()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(_reports())

    def __len__(self) -> int:
        return len(_reports())


REPORTS: Mapping[str, ProofReport] = _Reports()
