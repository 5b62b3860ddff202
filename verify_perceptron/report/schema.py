"""The report record's layout as types: the JSON schema (docs/json-schema) that `build_report` builds and
every renderer reads.

Exact numbers are strings (``"-22/25"``). Records that other parts own and build (the separability and
the bounds comparison of `verify_perceptron.certify`, the enclosures, the soft-margin bound, the proofs
applied, the averaged weights) stay ``dict[str, Any]`` here: JSON values whose layout their builders
document. The record read back from a JSON file is ``Any`` until it is read.
"""

from __future__ import annotations

from typing import Any, TypedDict

__all__ = ["BoundRecord", "ConstantsRecord", "CycleRecord", "DatasetRecord", "InvariantPointsRecord",
           "InvariantRecord", "Report", "SeparatorRecord", "UpdateRecord", "ViolationRecord"]


class LabelsRecord(TypedDict):
    """``dataset.labels``: the names of the classes -1 and +1."""

    negative: str
    positive: str


class DatasetRecord(TypedDict):
    """``dataset``."""

    source: str
    n_samples: int
    n_features: int
    feature_names: list[str]
    binary_float: bool
    labels: LabelsRecord
    row_index: dict[str, list[int] | list[str]] | None  # columns and names of a row index left out


class SeparatorRecord(TypedDict):
    """``separator``: the weights the claims were checked against, and where they came from."""

    source: str | None
    weights: list[str]
    note: str | None


class ConstantsRecord(TypedDict):
    """``constants``: the separator's γ, R², β and ‖w*‖² on the data."""

    gamma: str
    R_sq: str
    beta: str
    ws_sq: str


class ViolationRecord(TypedDict):
    """``invariants[i].first_violation``."""

    update: int | None
    epoch: int | None
    samples: list[int]
    message: str | None
    values: dict[str, str]
    text: str


class InvariantRecord(TypedDict):
    """``invariants[i]``: one claim of the notes, checked at every update."""

    name: str
    claim: str
    source: str
    holds: bool | None
    n_checked: int
    min_slack: str | None
    min_slack_at: int | None
    skipped: str | None
    first_violation: ViolationRecord | None


class BoundRecord(TypedDict):
    """``bounds[i]``: one note's mistake bound at the checked separator."""

    note: str
    convention: str
    own: bool
    formula: str
    constants: dict[str, str]
    value: str
    value_floor: int
    value_root: dict[str, str]
    separator: str | None
    n_mistakes: int
    n_updates: int
    holds: bool | None


class CycleRecord(TypedDict):
    """``cycle``: the epochs between which the weights repeated, and the certificate of non-separability."""

    epochs: list[int]
    certificate: list[str] | None
    certificate_valid: bool
    certificate_problem: str | None


class UpdateRecord(TypedDict):
    """``updates[i]`` and ``last_updates[i]``."""

    k: int
    epoch: int
    samples: list[int]
    scores: list[str]
    delta: list[str]
    weights: list[str]


class InvariantPointsRecord(TypedDict):
    """``invariant_points``: the invariants' sides over the whole run, at the updates the figures draw."""

    n_updates: int
    per_interval: int
    k: list[int]
    n_mistakes: list[int]
    n: list[int]
    sum_n_sq: list[int]
    w_ws: list[str] | None
    w_sq: list[str]


class _Extras(TypedDict, total=False):
    """Keys present only when asked for: ``averaged`` (``--averaged``, `verify_perceptron.report._averaged`)."""

    averaged: dict[str, Any]  # averaged_record's JSON


class Report(_Extras):
    """The report record, key by key in the schema's (and the JSON text's) order."""

    schema_version: int
    verdict: str
    exit_code: int
    advice: str | None
    convention: str
    note: str
    note_title: str
    convention_summary: str
    mode: str
    eta: str
    step_size: str
    dataset: DatasetRecord
    converged: bool
    stop: str
    n_updates: int
    n_mistakes: int
    n_epochs: int
    coordinates: list[str]
    final_weights: list[str]
    mistakes_per_sample: list[int]
    separator: SeparatorRecord | None
    constants: ConstantsRecord | None
    enclosures: dict[str, dict[str, str]] | None  # `verify_perceptron.report._enclosures`
    separable: bool | None
    certificate: Any  # Separability.as_dict()'s "certificate": JSON (a vector of strings, or null)
    separability: dict[str, Any] | None  # Separability.as_dict(): JSON
    invariants: list[InvariantRecord]
    bounds: list[BoundRecord]
    soft_margin: dict[str, Any] | None  # `verify_perceptron.report._soft_margin`'s JSON
    proofs_applied: list[dict[str, Any]]  # `verify_perceptron.report._proofs_applied`'s JSON
    cycle: CycleRecord | None
    comparison: dict[str, Any] | None  # BoundComparison.as_dict(): JSON
    updates_truncated: bool
    updates: list[UpdateRecord]
    last_updates: list[UpdateRecord]
    invariant_points: InvariantPointsRecord | None
