"""The invariant report as one record: the dictionary whose layout is the JSON schema.

`build_report` gathers the data, the run, the checks and the bounds into a
plain dictionary whose layout is the documented JSON schema (every exact
number is a string such as ``"-22/25"``); `render_json` writes it out for
machines, and `verify_perceptron.report.text.render_text` lays the same record
out as tables for people. Every renderer reads only that dictionary, so the
text and the JSON cannot disagree.
"""

from __future__ import annotations

import json
from itertools import chain
from collections.abc import Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, TypedDict

from ..certify.certificates import certificate_from_cycle, gordan_defect
from ..check.results import CheckResult, InvariantResult
from ..certify.comparison import BoundComparison
from ..certify.orders import OrderStatistics
from ..notes.bounds import NoteBound
from ..notes.conventions import Convention, get_convention
from ..data.dataset import Dataset
from ..certify.separability import Separability
from ..data.exact_text import exact_text
from ..data.trace import LazyUpdates, ScaledWeights, Trace, Update
from ._enclosures import enclosure_record, root_record
from ._soft_margin import soft_margin_record
from ._proofs_applied import proofs_applied_record
from .schema import (BoundRecord, ConstantsRecord, DatasetRecord, InvariantPointsRecord, InvariantRecord, Report,
                     SeparatorRecord, UpdateRecord)

__all__ = ["SCHEMA_VERSION", "EXIT_CODES", "build_report", "verdict_of", "render_json", "json_blocks", "comparison_report"]

#: Bumped whenever a key of the JSON report changes meaning or disappears.
SCHEMA_VERSION = 1

#: verdict -> process exit code
EXIT_CODES = {"verified": 0, "stopped-separable": 0, "not-separable": 0, "violated": 1, "inconclusive": 3}


def _q(value: Fraction | int | None) -> str | None:
    return None if value is None else exact_text(value)


def _vector(values: Sequence[Fraction]) -> list[str]:
    return values.strings() if isinstance(values, ScaledWeights) else [exact_text(v) for v in values]


def _invariant(result: InvariantResult) -> InvariantRecord:
    violation = result.first_violation
    return {
        "name": result.name,
        "claim": result.text,
        "source": result.source,
        "holds": result.holds,
        "n_checked": result.n_checked,
        "min_slack": _q(result.min_slack),
        "min_slack_at": result.min_slack_at,
        "skipped": result.skipped,
        "first_violation": None if violation is None else {
            "update": violation.k or None,
            "epoch": violation.epoch or None,
            "samples": list(violation.samples),
            "message": violation.message or None,
            "values": {name: exact_text(value) for name, value in violation.values},
            "text": violation.describe(result.text),
        },
    }


def _bounds(trace: Trace, check: CheckResult, conv: Convention) -> list[BoundRecord]:
    """Each note's mistake bound at the checked separator; ``holds`` is judged for online runs only."""
    return [
        {
            "note": b.note,
            "convention": b.convention,
            "own": b.convention == conv.name,
            "formula": b.formula,
            "constants": {name: exact_text(value) for name, value in b.constants},
            "value": exact_text(b.value),
            "value_floor": b.value.numerator // b.value.denominator,
            "value_root": root_record(b.value),
            "separator": check.separator_source,
            "n_mistakes": trace.n_mistakes,
            "n_updates": trace.n_mistakes,
            "holds": _bound_holds(trace, b),
        }
        for b in check.bounds
    ]


def _bound_holds(trace: Trace, bound: NoteBound) -> bool | None:
    """Whether the run made at most the mistakes `bound` allows; None for a batch run, where it is not judged."""
    return trace.n_mistakes <= bound.value if trace.mode == "online" else None


def verdict_of(data: Dataset, trace: Trace, check: CheckResult, *,
               separability: Separability | None = None) -> str:
    """The report's verdict (a key of `EXIT_CODES`) without building the report: what `build_report` puts
    under ``verdict``, for a caller that reads only that (the estimator's fit, `Verification.verdict`).

    Examples
    --------
    >>> from verify_perceptron.check.traces import check_trace
    >>> from verify_perceptron.run.reference import train
    >>> from verify_perceptron.data.examples import example
    >>> data = example("and")
    >>> trace = train(data)
    >>> verdict_of(data, trace, check_trace(data, trace))
    'verified'
    """
    certificate = certificate_from_cycle(trace)
    certified_cycle = certificate is not None and gordan_defect(data, certificate) is None
    return _verdict(trace, check, separability=separability, certified_cycle=certified_cycle)


def _verdict(trace: Trace, check: CheckResult, *, certified_cycle: bool, separability: Separability | None) -> str:
    """One of the keys of `EXIT_CODES`: a failed claim outranks convergence, which outranks a certificate.

    A note's bound that does not hold (`_bound_holds`, online runs only) is a violation."""
    if not check.holds or any(_bound_holds(trace, b) is False for b in check.bounds):
        return "violated"
    if trace.converged and check.complete:
        return "verified"
    if trace.stop in ("max-epochs", "time-limit") and check.complete and check.geometry is not None \
            and check.geometry.separates:
        return "stopped-separable"  # every claim held against a separator: verified as far as the run went
    if certified_cycle or (
            separability is not None and separability.separable is False and separability.certified):
        return "not-separable"
    return "inconclusive"


def _advice(trace: Trace, verdict: str, bounds: list[BoundRecord]) -> str | None:
    """What would settle a run that stopped at a limit: the bound says how far convergence can be."""
    if verdict not in ("stopped-separable", "inconclusive"):
        return None
    limit = "--time-limit" if trace.stop == "time-limit" else "--max-epochs"
    own = next((b for b in bounds if b["own"]), None)
    if verdict == "inconclusive" or own is None or trace.mode != "online":
        return f"raise {limit}: the run stopped before it converged and separability was not settled"
    most = own["value_floor"]
    if most >= 10**9:  # convergence is certain, not near: no limit a run could reach settles it
        return (f"note {own['note'][:3]}'s bound allows at most {exact_text(most)} mistakes: the run will converge, "
                "but may need about as many epochs; every update it made was checked")
    return (f"note {own['note'][:3]}'s bound allows at most {most} mistakes, so the run converges within "
            f"{most + 1} epochs: --max-epochs {most + 1}"
            + (" and a --time-limit long enough for them" if limit == "--time-limit" else ""))


def _dataset(data: Dataset) -> DatasetRecord:
    return {
        "source": data.source,
        "n_samples": data.n_samples,
        "n_features": data.n_features,
        "feature_names": list(data.feature_names),
        "binary_float": data.binary_float,
        "labels": {"negative": data.labels[0], "positive": data.labels[1]},
        "row_index": None if data.row_index is None else data.row_index.as_dict(),
    }


class _SeparatorAndConstants(TypedDict):
    """`Report`'s separator, constants and enclosures, in its key order."""

    separator: SeparatorRecord | None
    constants: ConstantsRecord | None
    enclosures: dict[str, dict[str, str]] | None


def _separator_and_constants(check: CheckResult, trace: Trace) -> _SeparatorAndConstants:
    g = check.geometry
    held = {r.name for r in check.invariants if r.holds is True and r.n_checked}
    n = trace.n_updates if trace.mode == "online" and {"lower-bound", "upper-bound"} <= held else None
    return {
        "separator": None if check.separator is None else {
            "source": check.separator_source,
            "weights": _vector(check.separator),
            "note": check.separator_note,
        },
        "constants": None if g is None else {
            "gamma": exact_text(g.gamma), "R_sq": exact_text(g.R_sq), "beta": exact_text(g.beta),
            "ws_sq": exact_text(g.ws_sq),
        },
        "enclosures": enclosure_record(g, trace.final_weights, check.separator, n),
    }


def _last_updates(trace: Trace, check: CheckResult) -> list[UpdateRecord]:
    """The run's last updates (the checker's ring of them) past those the trace kept; none when it kept all."""
    if not trace.updates_truncated:
        return []
    kept = trace.updates[-1].k if len(trace.updates) else 0
    return _updates(u for u in check.last_updates if u.k > kept)


def _invariant_points(trace: Trace, check: CheckResult) -> InvariantPointsRecord | None:
    """The invariants at the updates the figures draw, over the whole run, when the trace kept only its first
    updates (`verify_perceptron.check.whole_run`): each interval's extremes of both slacks, exactly."""
    p = check.points
    if p is None or not trace.updates_truncated or not p.k:
        return None
    return {
        "n_updates": p.n_updates, "per_interval": p.per_interval,
        "k": list(p.k), "n_mistakes": list(p.n_mistakes), "n": list(p.n), "sum_n_sq": list(p.sum_n_sq),
        "w_ws": None if p.w_ws is None else _vector(p.w_ws), "w_sq": _vector(p.w_sq),
    }


def _updates(updates: Iterable[Update]) -> list[UpdateRecord]:
    return [
        {
            "k": u.k,
            "epoch": u.epoch,
            "samples": list(u.samples),
            "scores": _vector(u.scores),
            "delta": _vector(u.delta),
            "weights": _vector(u.weights),
        }
        for u in updates
    ]


def build_report(
    data: Dataset,
    trace: Trace,
    check: CheckResult,
    *,
    separability: Separability | None = None,
    comparison: BoundComparison | None = None,
    require_convergence: bool = False,
) -> Report:
    """The report as a JSON-ready dictionary (schema version `SCHEMA_VERSION`; its layout: `Report`).

    With `require_convergence`, a run verified only as far as it went (the
    verdict ``stopped-separable``) exits 3 rather than 0.

    Examples
    --------
    >>> from verify_perceptron.check.traces import check_trace
    >>> from verify_perceptron.run.reference import train
    >>> from verify_perceptron.data.examples import example
    >>> data = example("and")
    >>> trace = train(data)
    >>> report = build_report(data, trace, check_trace(data, trace))
    >>> report["verdict"], report["final_weights"], report["n_updates"]
    ('verified', ['-4', '3', '2'], 18)
    """
    conv = get_convention(trace.convention)
    certificate = certificate_from_cycle(trace)
    certificate_problem = None if certificate is None else gordan_defect(data, certificate)
    bounds = _bounds(trace, check, conv)
    verdict = _verdict(trace, check, separability=separability,
                       certified_cycle=certificate is not None and certificate_problem is None)
    # made once: its certificate (one exact text per sample for Gordan's λ) is also the report's "certificate"
    decided = None if separability is None else separability.as_dict()
    # The key order is the schema's, and the JSON text's.
    return {
        "schema_version": SCHEMA_VERSION,
        "verdict": verdict,
        "exit_code": 3 if require_convergence and verdict == "stopped-separable" else EXIT_CODES[verdict],
        "advice": _advice(trace, verdict, bounds),
        "convention": conv.name,
        "note": conv.note,
        "note_title": conv.note_title,
        "convention_summary": conv.summary,
        "mode": trace.mode,
        "eta": exact_text(trace.rate),
        "step_size": exact_text(conv.step_size(trace.rate)),
        "dataset": _dataset(data),
        "converged": trace.converged,
        "stop": trace.stop,
        "n_updates": trace.n_updates,
        "n_mistakes": trace.n_mistakes,
        "n_epochs": trace.n_epochs,
        "coordinates": conv.weight_names(data.n_features),
        "final_weights": _vector(trace.final_weights),
        "mistakes_per_sample": list(trace.mistakes_per_sample),
        **_separator_and_constants(check, trace),
        "separable": None if separability is None else separability.separable,
        "certificate": None if decided is None else decided["certificate"],
        "separability": decided,
        "invariants": [_invariant(r) for r in check.invariants],
        "bounds": bounds,
        "soft_margin": soft_margin_record(check.soft_margin),
        "proofs_applied": proofs_applied_record(trace, check),
        "cycle": None if trace.cycle is None else {
            "epochs": list(trace.cycle),
            "certificate": None if certificate is None else _vector(certificate),
            "certificate_valid": certificate_problem is None,
            "certificate_problem": certificate_problem,
        },
        "comparison": None if comparison is None else comparison.as_dict(),
        "updates_truncated": trace.updates_truncated,
        # (kept updates built one at a time and let go: held, they were 80 bytes a weight beside their text)
        "updates": _updates(trace.updates.passing() if isinstance(trace.updates, LazyUpdates) else trace.updates),
        "last_updates": _last_updates(trace, check),
        "invariant_points": _invariant_points(trace, check),
    }


def comparison_report(data: Dataset, comparison: BoundComparison, orders: OrderStatistics | None) -> dict[str, Any]:
    """The `bounds` command's record: the comparison, and the presentation orders if run."""
    record = comparison.as_dict()
    return {
        "schema_version": SCHEMA_VERSION,
        "dataset": _dataset(data),  # as verify's: which label is +1 decides the separator's sign
        **record,
        "orders": None if orders is None else orders.as_dict(),
    }


#: One encoder for every piece `render_json` writes (json.dumps would make one a call).
_ENCODER = json.JSONEncoder(ensure_ascii=False)


def render_json(report: Report | Mapping[str, Any]) -> str:
    """The report as indented JSON text, each object or list with no deeper structure on one line.

    An update, a separator or a vector of 1,000 weights is then one line:
    thousands of updates read a line each, and are written by the standard
    library's C encoder.

    Examples
    --------
    >>> print(render_json({"k": 1, "weights": ["1/2", "-3"], "updates": [{"k": 1, "samples": [0]}]}), end="")
    {
      "k": 1,
      "weights": ["1/2", "-3"],
      "updates": [
        {"k": 1, "samples": [0]}
      ]
    }
    """
    return "".join(chain(_json(report, "", {}), "\n"))  # joined once: no partial text of the whole report beside the pieces


#: About this many characters a block of `json_blocks`.
_BLOCK_CHARS = 2**16


def json_blocks(report: Report | Mapping[str, Any], size: int = _BLOCK_CHARS) -> Iterator[str]:
    """`render_json`'s text in blocks of about `size` characters or more, each made as the one before is read:
    a file is written without the whole text held (at 10^5 x 10 not separable, 2.2 MB of text held twice, as
    the pieces and joined, 0.5x the int64 data, then encoded).

    Examples
    --------
    >>> report = {"k": 1, "updates": [{"k": k, "samples": [k]} for k in range(3)]}
    >>> blocks = list(json_blocks(report, size=20))
    >>> "".join(blocks) == render_json(report), len(blocks)
    (True, 5)
    """
    block: list[str] = []
    held = 0
    for piece in _json(report, "", {}):
        block.append(piece)
        held += len(piece)
        if held >= size:
            yield "".join(block)
            block, held = [], 0
    block.append("\n")
    yield "".join(block)


def _json(value: Any, indent: str, written: dict[int, str]) -> Iterator[str]:
    """`value`'s text, a piece at a time, an object or list of objects a line per entry.

    A long list's line, or an object's holding one, is kept in `written` by the object's id (the report's objects
    all live until its text is made, so no id is reused) and not made again: a Gordan certificate of 10^6 texts
    is both the report's "certificate" and its "separability"'s, the same dict, read and encoded once.
    """
    if id(value) in written:
        yield written[id(value)]
    elif isinstance(value, (dict, list)) and value and not _flat(value):
        inner = indent + "  "
        yield "{\n" if isinstance(value, dict) else "[\n"
        for i, item in enumerate(value.items() if isinstance(value, dict) else value):
            if i:
                yield ",\n"
            if isinstance(value, dict):
                yield f"{inner}{_ENCODER.encode(item[0])}: "
                item = item[1]
            else:
                yield inner
            yield from _json(item, inner, written)
        yield "\n" + indent + ("}" if isinstance(value, dict) else "]")
    else:
        line = _line(value)
        yield line
        if _long(value):
            written[id(value)] = line


def _long(value: Any) -> bool:
    """A list of more than `_BLOCK` entries, or an object with one among its values (a line worth keeping)."""
    return (isinstance(value, list) and len(value) > _BLOCK) or (
        isinstance(value, dict) and any(isinstance(v, list) and len(v) > _BLOCK for v in value.values()))


def _huge(value: Any) -> bool:
    """An integer the JSON encoder would refuse to write (it uses ``repr``, bound by the int-to-string limit)."""
    return type(value) is int and value.bit_length() > 2_000


def _line(value: Any) -> str:
    """`value` on one line, as the encoder writes it, its huge integers (a bound's floor) written exactly."""
    if _huge(value):
        return exact_text(value)
    if isinstance(value, dict) and any(map(_huge, value.values())):
        return "{" + ", ".join(f"{_ENCODER.encode(key)}: {_line(v)}" for key, v in value.items()) + "}"
    if isinstance(value, list) and _any_huge(value):
        return "[" + ", ".join(map(_line, value)) + "]"
    return _encode(value)


def _any_huge(values: list[Any]) -> bool:
    """``any(map(_huge, values))``, the long lists (a per-sample list, a certificate) without a call per entry:
    only the entries whose type is exactly int are read, by their bit lengths.

    Examples
    --------
    >>> _any_huge(["1/2", 3, True]), _any_huge([2**3000, "x"]), _any_huge([])
    (False, True, False)
    """
    types = set(map(type, values))
    if int not in types:
        return False
    integers = values if len(types) == 1 else [v for v in values if type(v) is int]
    return max(map(int.bit_length, integers)) > 2_000


#: Entries of a list the encoder writes at once. Its one-shot encoding holds a string per entry and per
#: separator (about 100 bytes an entry, 12x the int64 data at 10^5 x 10) before joining them; in blocks it
#: holds a block's strings and the block texts, about the size of the text.
_BLOCK = 4096


def _encode(value: Any) -> str:
    """`_ENCODER.encode(value)`, the same text, its long lists (a per-sample list, a certificate) in blocks."""
    if isinstance(value, list) and len(value) > _BLOCK:
        return "[" + ", ".join(_ENCODER.encode(value[i:i + _BLOCK])[1:-1]
                               for i in range(0, len(value), _BLOCK)) + "]"
    if (isinstance(value, dict) and all(type(key) is str for key in value)
            and any(isinstance(v, list) and len(v) > _BLOCK for v in value.values())):
        return "{" + ", ".join(f"{_ENCODER.encode(key)}: {_encode(v)}" for key, v in value.items()) + "}"
    return _ENCODER.encode(value)


def _flat(value: dict[str, Any] | list[Any]) -> bool:
    """No object inside, and no list but of plain values: written on one line."""
    values = value.values() if isinstance(value, dict) else value
    if not _nested(values):  # (a long list of plain values: no entry read alone)
        return True
    return all(not isinstance(v, dict) and not (isinstance(v, list) and _nested(v)) for v in values)


def _nested(values: Iterable[Any]) -> bool:
    """``any(isinstance(x, (dict, list)) for x in values)``, read off the entries' types (a long per-sample list
    has one or two), not an entry at a time.

    Examples
    --------
    >>> _nested([1, "a"]), _nested([1, [2]]), _nested([{}]), _nested([])
    (False, True, True, False)
    """
    return any(issubclass(kind, (dict, list)) for kind in set(map(type, values)))
