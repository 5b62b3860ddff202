"""agrees-with-reference: the implementation's weights are c times the exact run's (c > 0, the factor a
learning rate introduces from w = 0), update by update when it reports its updates; the first
difference is named as precisely as the numbers allow (a wrong sign, a bias that never moves, ...)."""

from __future__ import annotations

from fractions import Fraction

from ..data.dataset import Dataset
from ..data.trace import Trace
from ..notes.conventions import Convention, dot
from ._exact import Vector, _add, _factor, _is_mistake, _scaled
from ._results import Finding
from ._wording import _count, _judged, _names, _number, _vec


def _choose_factor(declared: Fraction | None, conv: Convention, reference: Trace, weights: Vector,
                   updates: list[tuple[int, Vector]] | None) -> Fraction:
    """c: the declared learning rate, else read off the first reported step, else off the final weights (1 when none fits)."""
    if declared is not None:
        return declared
    if updates is not None:  # read off the first step; the final weights may have gone astray
        if updates and reference.updates and updates[0][0] in reference.updates[0].samples:
            c = _factor(updates[0][1], reference.updates[0].weights, conv)
            if c is not None:
                return c
        return Fraction(1)
    c = _factor(weights, reference.final_weights, conv)
    return c if c is not None else Fraction(1)


def _agreement(data: Dataset, conv: Convention, reference: Trace, weights: Vector,
               updates: list[tuple[int, Vector]] | None, c: Fraction, labels: str) -> list[Finding]:
    """agrees-with-reference: the first reported update that departs from c times the exact run's,
    or else final weights that are not c times the exact run's final ones."""
    if updates is not None:
        first = _batch_divergence if reference.mode == "batch" else _first_divergence
        divergence = first(data, conv, reference, updates, c, labels)
        if divergence is not None:
            return [divergence]
    want = _scaled(c, reference.final_weights)
    if weights == want:
        return []
    names = conv.weight_names(data.n_features)
    per = "; ".join(
        f"{name}: {_number(m)} vs {_number(r)}" + (f" (ratio {_number(m / r)})" if r != 0 else "")
        for name, m, r in zip(names, weights, reference.final_weights))
    other = _factor(weights, reference.final_weights, conv)
    if other is not None and weights == _scaled(other, reference.final_weights):
        how = f"they are {_number(other)} times them, not {_number(c)} (the declared learning rate)"
    else:
        how = f"not {_number(c)} times them, nor any positive multiple of them"
    return [Finding("agrees-with-reference",
                    f"the final weights {_vec(weights)} {_names(conv, data)} do not match the exact "
                    f"run's {_vec(reference.final_weights)} (learning rate 1): {how}; coordinate by coordinate: {per}")]


def _first_divergence(data: Dataset, conv: Convention, reference: Trace, updates: list[tuple[int, Vector]],
                      c: Fraction, labels: str) -> Finding | None:
    """Compare update by update; the first difference, or None when the reported run is c times the exact one."""
    samples = [conv.augment(x) for x in data.X]
    zero = tuple(Fraction(0) for _ in samples[0])
    ref_updates = list(reference.updates)
    for k in range(1, max(len(ref_updates), len(updates)) + 1):
        mine = updates[k - 1] if k <= len(updates) else None
        ref = ref_updates[k - 1] if k <= len(ref_updates) else None
        if mine is not None and ref is not None and mine[0] == ref.samples[0] and mine[1] == _scaled(c, ref.weights):
            continue
        before = _scaled(c, ref_updates[k - 2].weights) if k >= 2 else zero
        if mine is None:
            assert ref is not None
            i = ref.samples[0]
            score = dot(before, samples[i])
            return Finding("agrees-with-reference",
                           f"the implementation stopped after {_count(k - 1, 'update')}, but the exact run goes on: "
                           f"with w = {_vec(before)}, sample {i} (epoch {ref.epoch}) scores w·x~ = {_number(score)}, "
                           f"{_judged(conv, score, data.y[i])}: update {k} of {reference.n_updates}",
                           update=k, sample=i)
        i, after = mine
        score = dot(before, samples[i])
        if ref is None:
            return Finding("agrees-with-reference",
                           f"update {k}: the implementation updated on sample {i} after the exact run had "
                           f"converged (at {reference.n_updates} updates): with w = {_vec(before)} it scores "
                           f"w·x~ = {_number(score)}, {_judged(conv, score, data.y[i])}", update=k, sample=i)
        if i != ref.samples[0]:
            text = _other_sample_text(data, conv, k, i, ref.samples[0], before, score)
        else:
            text = _step_text(data, conv, labels, k, i, before, after, _scaled(c, ref.delta))
        return Finding("agrees-with-reference", text, update=k, sample=i)
    return None


def _batch_divergence(data: Dataset, conv: Convention, reference: Trace, updates: list[tuple[int, Vector]],
                      c: Fraction, labels: str) -> Finding | None:
    """Batch mode: the first reported step that is not c times the exact run's step of that pass (its index
    one of the samples that pass misclassifies), or None when the reported run is c times the exact one."""
    steps = list(reference.updates)
    for k in range(1, max(len(steps), len(updates)) + 1):
        mine = updates[k - 1] if k <= len(updates) else None
        ref = steps[k - 1] if k <= len(steps) else None
        if mine is not None and ref is not None and mine[0] in ref.samples and mine[1] == _scaled(c, ref.weights):
            continue
        if mine is None or ref is None:
            said = (f"the implementation stopped after {_count(k - 1, 'batch step')}, the exact run makes "
                    f"{reference.n_updates}" if mine is None else
                    f"the implementation made batch step {k} after the exact run had converged (at "
                    f"{_count(reference.n_updates, 'step')})")
            return Finding("agrees-with-reference", said, update=k)
        if mine[0] not in ref.samples:
            said = (f"batch step {k} (pass {ref.epoch}): the implementation reported sample {mine[0]}, which that "
                    f"pass's starting weights do not misclassify (it sums samples {list(ref.samples)})")
        else:
            said = (f"batch step {k} (pass {ref.epoch}, summing samples {list(ref.samples)}): the weights became "
                    f"{_vec(mine[1])}, the rule makes them {_vec(_scaled(c, ref.weights))}")
        return Finding("agrees-with-reference", said, update=k, sample=mine[0])
    return None


def _other_sample_text(data: Dataset, conv: Convention, k: int, i: int, j: int, before: Vector, score: Fraction) -> str:
    """Update `k` was on sample `i` (scoring `score`), where the exact run's is on sample `j`."""
    ref_score = dot(before, conv.augment(data.X[j]))
    text = (f"update {k}: the implementation updated on sample {i}, the exact run on sample {j}: with "
            f"w = {_vec(before)}, sample {j} scores {_number(ref_score)}, {_judged(conv, ref_score, data.y[j])}")
    if not _is_mistake(conv, score, data.y[i]):
        text += f"; sample {i} scores {_number(score)}, {_judged(conv, score, data.y[i])}"
    else:
        text += f"; sample {i} is a mistake too, but the samples are presented in order and {j} comes first"
    return text


def _step_text(data: Dataset, conv: Convention, labels: str, k: int, i: int, before: Vector, after: Vector,
               want: Vector) -> str:
    """Update `k` moved the weights from `before` to `after` where the rule moves them by `want`: how the step differs."""
    step = tuple(a - b for a, b in zip(after, before))
    names = conv.weight_names(data.n_features)
    bias = 0 if conv.bias_first else data.n_features
    label = data.y[i]
    text = (f"update {k} (sample {i}, label {label:+d}): the weights moved by {_vec(step)} {_names(conv, data)}, "
            f"the rule moves them by {_vec(want)}")
    others = [j for j in range(len(step)) if j != bias]
    if not any(step):
        text += ": they did not move at all"
        if labels == "0/1" and label < 0:
            text += " (the 0/1 label 0 used as the update's sign?)"
    elif step == tuple(-t for t in want):
        text += ": the opposite sign (w -= η·y·x~ instead of w += η·y·x~)"
    elif all(step[j] == want[j] for j in others):
        if step[bias] == 0:
            text += f": the bias weight {names[bias]} did not move"
        elif step[bias] == -want[bias]:
            text += f": the bias weight {names[bias]} moved the wrong way"
        elif want[bias] != 0:
            text += (f": the bias weight {names[bias]} moved {_number(step[bias] / want[bias])} times the rule's step, the "
                     "other weights exactly the rule's step")
    elif all(t.denominator == 1 for t in after) and any(t.denominator != 1 for t in _add(before, want)):
        text += ": whole numbers where the rule gives fractions (truncated or rounded to integers?)"
    elif step[bias] == want[bias] and all(want[j] != 0 for j in others) and len({step[j] / want[j] for j in others}) == 1:
        text += (f": the weights other than {names[bias]} moved {_number(step[others[0]] / want[others[0]])} times the "
                 "rule's step, the bias exactly the rule's step")
    return text
