"""The claims table: compiled slacks equal the claims' own arithmetic, exactly."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron.notes.claims import CLAIMS, QUANTITIES, UNITS, claim_unit, claims_for, compile_slacks

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


def test_note_003s_batch_forms_hold_for_every_convention_and_say_they_are_derived_here() -> None:
    forms = {c.name: c for c in CLAIMS if c.name in
             ("upper-bound-sum-batch", "upper-bound-per-sample-batch", "mistake-bound-sum-batch")}
    assert len(forms) == 3
    for claim in forms.values():
        assert claim.modes == ("batch",) and claim.conventions == ()
        assert "derived here, not in the notes" in claim.source and claim.source.startswith("003")
    # Homogeneous in the checker's units: ‖w‖² is a²/L², N·γ² and β·‖w*‖² are 1/(L²M²).
    assert claim_unit(forms["upper-bound-sum-batch"]) == claim_unit(forms["upper-bound-per-sample-batch"]) == (2, 2, 0)
    assert claim_unit(forms["mistake-bound-sum-batch"]) == (0, 2, 2)
    assert forms["mistake-bound-sum-batch"].needs_separator and not forms["upper-bound-sum-batch"].needs_separator


def test_a_program_the_claims_cannot_be_compiled_to_is_refused_once_and_then_from_memory(monkeypatch) -> None:
    # a bound's denominator past int64 has no int64 program: refused with the same message every time, traced
    # once (the checker of a binary-float run asks at every replay set up), and made with any constant
    from verify_perceptron.notes import claims as module

    traced: list[int] = []
    real = module._traced_program

    def counted(*args: Any) -> Any:
        traced.append(1)
        return real(*args)

    monkeypatch.setattr(module, "_traced_program", counted)
    mistake = [c for c in module.CLAIMS if c.name == "mistake-bound"]
    wide = {"bound": 2**70 + 12345}
    messages = []
    for _ in range(3):
        with pytest.raises(ValueError) as error:
            module.compile_program(mistake, wide)
        messages.append(str(error.value))
    assert len(set(messages)) == 1 and "int64" in messages[0] and len(traced) == 1
    code, scales = module.compile_program(mistake, wide, any_constant=True)
    assert scales == [2**70 + 12345] and len(traced) == 2
