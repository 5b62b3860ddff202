"""The averaged perceptron's part of a report (``verify --averaged``): its weights, whether they separate
the data, and the three claims `check.averaged` checks at every presentation."""

from __future__ import annotations

from typing import Any

from ..check.averaged import AveragedCheck
from ..data.exact_text import exact_text, nearest_float

__all__ = ["averaged_record", "averaged_lines"]


def averaged_record(result: AveragedCheck) -> dict[str, Any]:
    """JSON-ready: exact values as strings, a decimal beside each weight (null past the doubles' range)."""
    return {
        "weights": [exact_text(v) for v in result.weights],
        "weights_decimal": [nearest_float(v) for v in result.weights],
        "presentations": result.presentations,
        "separates": result.separates,
        "holds": result.holds,
        "claims": [{"name": c.name, "statement": c.statement, "n_checked": c.n_checked, "holds": c.holds,
                    "min_slack": None if c.min_slack is None else exact_text(c.min_slack),
                    "first_violation": c.first_violation} for c in result.claims],
    }


def averaged_lines(report: dict[str, Any]) -> list[str]:
    """The text lines, or none when the report has no averaged part.

    Examples
    --------
    >>> from verify_perceptron.check.averaged import check_averaged
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.run.reference import train
    >>> data = example("and")
    >>> record = averaged_record(check_averaged(data, train(data, "classic"), separator=(-4, 3, 2)))
    >>> print("\\n".join(averaged_lines({"averaged": record})[:3]))
    <BLANKLINE>
    averaged perceptron: w̄ = [-23/9, 25/12, 4/3] over 36 presentations; it separates the data
      ok  averaged-lower     S_p·w* >= a·γ·K_p  (w̄·w* >= a·γ·K_p/p)
    """
    a = report.get("averaged")
    if not a:
        return []
    separates = "it separates the data" if a["separates"] else "it does not separate the data (no theorem says it must)"
    lines = ["", f"averaged perceptron: w̄ = [{', '.join(a['weights'])}] over {a['presentations']} presentations; "
                 f"{separates}"]
    for c in a["claims"]:
        where = "" if c["holds"] else f"  first broken after presentation {c['first_violation']}"
        lines.append(f"  {'ok' if c['holds'] else 'NO':<3} {c['name']:<18} {c['statement']}{where}")
    return lines
