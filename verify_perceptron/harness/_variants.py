"""Diagnosis of a failure: the simple departures from the note's algorithm (a tie let through, a bias
never moved, an early stop, shuffled samples, ...) whose output on the data is exactly the implementation's."""

from __future__ import annotations

import itertools
from fractions import Fraction

from ..data.dataset import Dataset
from ..data.trace import Trace
from ..notes.conventions import Convention
from ..run.reference import train
from ._exact import Vector, _is_mistake, _scaled
from ._options import REFERENCE_EPOCHS
from ._results import Diagnosis
from ._wording import _count, _vec

_VARIANTS: tuple[tuple[str, str], ...] = (
    ("ties-not-mistakes", "counts a mistake only when the score is strictly on the wrong side, so a score of "
                          "exactly 0 is let through"),
    ("no-bias-update", "never moves the bias weight"),
    ("bias-wrong-sign", "moves the bias weight the wrong way (by -η·y)"),
    ("wrong-sign", "moves the weights the wrong way (w -= η·y·x~)"),
    ("labels-0-1", "uses the 0/1 label as the update's sign, so mistakes on class 0 never move the weights"),
    ("skips-last-sample", "never presents the last sample (a loop that stops one short)"),
    ("updates-every-sample", "updates on every sample, mistake or not"),
    ("bias-rate", "scales the bias step by a learning rate the other weights do not get"),
)
#: The rates tried for a learning rate applied to the bias step alone.
_BIAS_RATES = (Fraction(1, 2), Fraction(1, 4), Fraction(1, 10), Fraction(2), Fraction(1, 100))
#: Epochs a variant runs while looking for the implementation's output (it may stop at an epoch limit).
_VARIANT_EPOCHS = 2000


def _variant_ends(data: Dataset, conv: Convention, variant: str,
                  bias_rate: Fraction = Fraction(1)) -> tuple[list[tuple[int, ...]], int, str]:
    """The exact perceptron changed as `variant` says, run in integers: its weights at the end of each
    epoch as U with w = (rate/(L·Q))·U (Q the bias rate's denominator), Q, and how the run ends
    (``converged``, ``cycles`` or ``limit``)."""
    L, Q, P = data.denominator, bias_rate.denominator, bias_rate.numerator
    samples = [[int(v * L) for v in conv.augment(x)] for x in data.X]
    bias = 0 if conv.bias_first else data.n_features
    # The note's decision depends only on the sign of the score (and the label), so read it once.
    decides = {(sign, label): _is_mistake(conv, Fraction(sign), label) for sign in (-1, 0, 1) for label in (-1, 1)}
    order = range(len(samples) - 1) if variant == "skips-last-sample" else range(len(samples))
    U = [0] * len(samples[0])
    ends: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    for _ in range(_VARIANT_EPOCHS):
        clean = True
        for i in order:
            x, label = samples[i], data.y[i]
            score = sum(u * v for u, v in zip(U, x))
            mistake = decides[((score > 0) - (score < 0), label)]
            if variant == "ties-not-mistakes":
                mistake = mistake and score != 0
            elif variant == "updates-every-sample":
                mistake = True
            if not mistake:
                continue
            clean = False
            sign = conv.step_factor * ((1 if label > 0 else 0) if variant == "labels-0-1" else label)
            if variant == "wrong-sign":
                sign = -sign
            step = [sign * Q * v for v in x]
            if variant == "no-bias-update":
                step[bias] = 0
            elif variant == "bias-wrong-sign":
                step[bias] = -step[bias]
            elif variant == "bias-rate":
                step[bias] = sign * P * x[bias]
            U = [u + t for u, t in zip(U, step)]
        state = tuple(U)
        if clean:
            return ends or [state], L * Q, "converged"
        ends.append(state)
        if state in seen:
            return ends, L * Q, "cycles"
        seen.add(state)
    return ends, L * Q, "limit"


def _proportional(mine: Vector, theirs: Vector) -> bool:
    """mine = c·theirs for some c > 0 (0 = c·0)."""
    if not any(theirs):
        return not any(mine)
    j = next(j for j, t in enumerate(theirs) if t != 0)
    c = mine[j] / theirs[j]
    return c > 0 and all(m == c * t for m, t in zip(mine, theirs))


def _variant_match(weights: Vector, ends: list[tuple[int, ...]], scale: int, rate: Fraction | None,
                   how: str) -> tuple[str, dict[str, object]] | None:
    """How the variant's run reaches `weights`: at the end of some epoch, with the learning rate
    `rate` (w = (rate/scale)·U), or, when the rate is unknown (None), at its converged end, up to the
    positive factor a rate introduces from w = 0. Also returned: the parameters of the match (its end,
    the epoch)."""
    if rate is None:
        if how == "converged" and _proportional(weights, tuple(Fraction(u) for u in ends[-1])):
            return "and converges there", {"end": "converged"}
        rate = Fraction(1)  # the usual rate: an exact match with it is still a fact worth showing
    target = tuple(w * scale / rate for w in weights)
    if any(t.denominator != 1 for t in target):
        return None
    wanted = tuple(int(t) for t in target)
    for epoch, state in enumerate(ends, start=1):
        if state == wanted:
            if how == "converged" and epoch == len(ends):
                return "and converges there", {"end": "converged"}
            if how == "cycles":
                return "which never converges on these data: an epoch limit stops it", {"end": "epoch-limit"}
            return f"stopped after {_count(epoch, 'epoch')}", {"end": "stopped", "epochs": epoch}
    return None


def _diagnoses(data: Dataset, conv: Convention, reference: Trace, weights: Vector,
               rate: Fraction | None) -> list[Diagnosis]:
    """Simple departures from the note's algorithm whose output on these data is exactly the implementation's.

    `rate` is the implementation's learning rate when known (declared, or read off its updates);
    unknown, only runs that converge are compared, up to a positive factor.
    """
    found = []
    for variant, text in _VARIANTS:
        if conv.name == "unit-ball" and variant in ("labels-0-1", "bias-rate"):
            continue
        for bias_rate in (_BIAS_RATES if variant == "bias-rate" else (Fraction(1),)):
            ends, scale, how = _variant_ends(data, conv, variant, bias_rate)
            match = _variant_match(weights, ends, scale, rate, how)
            if match is not None:
                detail = f" (rate {bias_rate} on the bias)" if variant == "bias-rate" else ""
                params = {**match[1], **({"bias_rate": str(bias_rate)} if variant == "bias-rate" else {})}
                found.append(Diagnosis(variant, params,
                                       f"consistent with the {conv.name} perceptron that {text}{detail}, {match[0]}"))
                break
    if reference.converged and not _proportional(weights, reference.final_weights):
        for k, update in enumerate(reference.updates[:-1], start=1):
            if weights == _scaled(rate or Fraction(1), update.weights) or (rate is None and _proportional(weights, update.weights)):
                found.append(Diagnosis("early-stop", {"update": k, "of": reference.n_updates, "epoch": update.epoch},
                                       f"consistent with the exact run stopped after update {k} of "
                                       f"{reference.n_updates} (epoch {update.epoch}): an early stop, or earlier "
                                       "weights returned"))
                break
    exact = _scaled(rate or Fraction(1), reference.final_weights)
    if all(w.denominator == 1 for w in weights) and any(w.denominator != 1 for w in exact):
        found.append(Diagnosis("integer-weights", {"exact": [str(v) for v in exact]},
                               f"the weights are whole numbers where the exact run's are {_vec(exact)}: a step "
                               "truncated or rounded to an integer (an integer weight array?)"))
    if 2 <= data.n_samples <= 4:
        for order in itertools.permutations(range(data.n_samples)):
            if list(order) == sorted(order):
                continue
            run = train(data.reordered(order), conv, max_epochs=REFERENCE_EPOCHS)
            if run.converged and (_proportional(weights, run.final_weights) if rate is None
                                  else weights == _scaled(rate, run.final_weights)):
                found.append(Diagnosis("order", {"order": list(order)},
                                       f"consistent with the exact run with the samples presented in the order "
                                       f"{list(order)} instead of the given one (shuffled?)"))
                break
    return found
