"""The claims table: compiled slacks equal the claims' own arithmetic, exactly."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron.notes.claims import CLAIMS, QUANTITIES, UNITS, claims_for, compile_slacks

values = st.one_of(st.integers(-10**6, 10**6), st.builds(Fraction, st.integers(-1000, 1000), st.integers(1, 1000)))


@given(st.fixed_dictionaries({name: values for name in QUANTITIES}))
def test_compiled_slacks_equal_each_claims_own_slack(q: dict) -> None:
    compiled = compile_slacks(CLAIMS)(*(q[name] for name in QUANTITIES))
    assert compiled == tuple(claim.slack(SimpleNamespace(**q)) for claim in CLAIMS)


def test_compiled_division_is_exact_never_float() -> None:
    halved = dataclasses.replace(CLAIMS[0], rhs=lambda q: q.w_ws / 3)
    ones = dict.fromkeys(QUANTITIES, 1)
    (slack,) = compile_slacks([halved])(*(ones[name] for name in QUANTITIES))
    assert slack == Fraction(1, 3) - 1 and isinstance(slack, Fraction)


def test_compiling_a_claim_with_a_float_constant_is_refused() -> None:
    sloppy = dataclasses.replace(CLAIMS[0], rhs=lambda q: q.w_ws * 0.5)
    with pytest.raises(TypeError, match="not 0.5"):
        compile_slacks([sloppy])


def test_every_quantity_a_claim_uses_has_units() -> None:
    for claim in CLAIMS:
        assert set(claim.uses) <= set(UNITS), claim.name


def test_claims_for_picks_the_notes_own_extras_and_the_batch_forms() -> None:
    online = {c.name for c in claims_for("classic", "online")}
    assert "mistake-bound" in online and "angle" not in online and "quadratic-lower-bound" not in online
    assert "angle" in {c.name for c in claims_for("sum-norm", "online")}
    assert "quadratic-lower-bound" in {c.name for c in claims_for("hard-limiter", "batch")}
    batch = {c.name for c in claims_for("classic", "batch")}
    assert "upper-bound-batch" in batch and "upper-bound-per-sample" not in batch and "mistake-bound" not in batch
