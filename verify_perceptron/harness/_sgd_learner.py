"""scikit-learn's ``_plain_sgd`` with the perceptron loss as a learner (`_learners.Spec` with
``arithmetic="sklearn"``): its float64 arithmetic step by step (w kept as a scale times a vector, the intercept
apart), its penalties, schedules, class weights, seeded shuffle and stop on the mean objective, so that its
configuration's departures reproduce its weights bit for bit (`_configured`)."""

from __future__ import annotations

import math

from ..data.dataset import Dataset
from ..notes.conventions import Convention
from ._learners import Run, Spec, _rate


def _truncate(v: list[float], q: list[float], wscale: float, u: float) -> None:
    """scikit-learn's l1 penalty after a step: each weight pulled toward 0 by the cumulative u plus what it
    was not yet pulled (q), never across 0 (the truncated gradient), in place."""
    for j, old in enumerate(v):
        if wscale * old > 0.0:
            v[j] = max(0.0, v[j] - ((u + q[j]) / wscale))
        elif wscale * old < 0.0:
            v[j] = min(0.0, v[j] + ((u - q[j]) / wscale))
        q[j] += wscale * (v[j] - old)


def sklearn_run(data: Dataset, conv: Convention, spec: Spec, epochs: int) -> Run:
    """scikit-learn's ``_plain_sgd`` with the perceptron loss, in its own float64 arithmetic: w = wscale·v,
    the intercept apart (never penalised), the mean objective's stop, in the given order."""
    assert spec.step is not None
    rows = [tuple(float(v) for v in x) for x in data.X]
    d = data.n_features
    v, wscale, intercept = [0.0] * d, 1.0, 0.0
    sq_norm, l1_norm = 0.0, 0.0
    q, u = [0.0] * d, 0.0
    l1_ratio = {"l2": 0.0, "l1": 1.0}.get(spec.penalty or "", spec.l1_ratio)
    result = Run(presentations=len(rows))
    t = 1
    best, quiet = math.inf, 0

    def weights() -> tuple[float, ...]:  # conv.from_canonical in float64 (bias_input is ±1, exact as a double)
        scaled, bias = [wscale * a for a in v], conv.bias_input * intercept
        return (bias, *scaled) if conv.bias_first else (*scaled, bias)

    index = list(range(len(rows)))
    negative, positive = _class_weights(spec.class_weight, data.y)
    seed = None if spec.random_state is None else sklearn_seed(spec.random_state)
    for _ in range(epochs):
        objective = 0.0
        clean = True
        if seed is not None:
            _shuffle(index, seed)
        for i in index:
            x, label = rows[i], data.y[i]
            p = 0.0
            for a, xj in zip(v, x):
                p += a * xj
            p = p * wscale + intercept
            eta = float(_rate(spec, t)) if spec.schedule else spec.step
            z = p * label
            objective += max(0.0, -z)
            if spec.penalty is not None:
                objective += spec.alpha * ((1 - l1_ratio) * 0.5 * math.sqrt(sq_norm) ** 2 + l1_ratio * l1_norm)
            if z == 0:
                result.fired.add("tie")
            update = (eta * label) * (positive if label > 0 else negative) if z <= 0 else 0.0
            if update != 0.0:
                clean = False
            if spec.penalty in ("l2", "elasticnet"):
                c = max(0.0, 1.0 - ((1.0 - l1_ratio) * eta * spec.alpha))
                wscale *= c
                sq_norm *= c * c
                l1_norm *= abs(c)
                if wscale < 1e-9:
                    v, wscale = [a * wscale for a in v], 1.0
            if update != 0.0:
                l2acc = l1acc = 0.0
                for j in range(d):
                    v[j] += x[j] * (update / wscale)
                    l2acc += v[j] * v[j]
                    l1acc += abs(v[j])
                sq_norm, l1_norm = l2acc * (wscale * wscale), l1acc * wscale
                intercept += update
            if spec.penalty in ("l1", "elasticnet"):
                u += l1_ratio * eta * spec.alpha
                _truncate(v, q, wscale, u)
            t += 1
        if not (math.isfinite(intercept) and all(math.isfinite(a) for a in v)):
            result.stop = "overflow"
            return result
        result.ends.append(weights())
        result.sums.append(weights())
        if spec.stop is not None:
            mean = objective / len(rows)
            quiet = quiet + 1 if mean > best - spec.stop[0] else 0
            best = min(best, mean)
            if quiet >= spec.stop[1]:
                result.stop = "stopped"
                break
        elif clean and spec.penalty is None:  # no change any more: every later epoch ends here too
            result.stop = "converged"
            break
    return result



def _class_weights(weights: str | tuple[float, float] | None, labels: tuple[int, ...]) -> tuple[float, float]:
    """The (negative, positive) classes' step factors: 1 each, given ones, or ``"balanced"``'s n / (2·n_class).

    Examples
    --------
    >>> _class_weights("balanced", (1, -1, -1, -1)), _class_weights(None, (1,)), _class_weights((2.0, 0.5), (1,))
    ((0.6666666666666666, 2.0), (1.0, 1.0), (2.0, 0.5))
    """
    if weights is None:
        return 1.0, 1.0
    if isinstance(weights, str):  # "balanced"
        n = len(labels)
        return n / (2 * float(labels.count(-1) or 1)), n / (2 * float(labels.count(1) or 1))
    negative, positive = weights
    return float(negative), float(positive)


def sklearn_seed(random_state: int) -> int:
    """The seed scikit-learn's ``fit_binary`` gives ``_plain_sgd`` for an integer ``random_state``: the second
    draw of its generator (the first seeds the dataset object)."""
    import numpy as np

    generator = np.random.RandomState(random_state)
    generator.randint(1, np.iinfo(np.int32).max)
    return int(generator.randint(np.iinfo(np.int32).max))


def _shuffle(index: list[int], seed: int) -> None:
    """scikit-learn's per-epoch Fisher-Yates shuffle of the sample indices, in place: its xorshift generator
    restarted from the same seed every epoch (the seed is passed by value), applied to the current order."""
    state = seed & 0xFFFFFFFF
    n = len(index)
    for i in range(n - 1):
        if state == 0:
            state = 1
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        j = i + (state % 2**31) % (n - i)
        index[i], index[j] = index[j], index[i]
