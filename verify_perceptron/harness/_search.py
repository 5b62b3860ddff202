"""The search for a failing dataset: Hypothesis's search and shrink, one search per kind of data,
then a polish that drops features and samples while the implementation still fails."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..data.dataset import Dataset
from ..errors import InvalidArgument
from ._case import _Case
from ._evidence import Evidence
from ._exact_run import _Rejected
from ._options import CheckOptions, harness_settings
from ._results import CaseResult
from ._runner import Runner

if TYPE_CHECKING:  # Hypothesis loads only when a check runs
    from hypothesis.strategies import SearchStrategy


def _strategies(options: CheckOptions, strategy: SearchStrategy[Dataset] | None) -> list[tuple[SearchStrategy[Dataset], int]]:
    """The searches to run, each with its share of the examples: one per kind of data, simplest first.

    Searching each kind on its own guarantees it its share: in one mixed
    search Hypothesis's generation clusters, and a small budget can miss a
    kind entirely. The first kind that fails gives the counterexample.
    """
    if strategy is not None:
        return [(strategy, options.examples)]
    from .strategies import DATASET_KINDS, datasets, nonseparable_datasets

    bounds: dict[str, Any] = {"numbers": options.numbers, "max_features": options.max_features,
                              "max_samples": options.max_samples}
    searches = [datasets(kinds=[kind], convention=options.convention, **bounds) for kind in DATASET_KINDS]
    if options.detects_nonseparable:
        searches.append(nonseparable_datasets(**bounds))
    searches = searches[:options.examples]  # fewer examples than kinds: the simplest kinds, one each
    share, extra = divmod(options.examples, len(searches))
    return [(s, share + (extra if i == 0 else 0)) for i, s in enumerate(searches)]


def _search(target: Runner, kind: str, label: tuple[str, tuple[str, str] | None], options: CheckOptions,
            strategy: SearchStrategy[Dataset] | None,
            evidence: Evidence, *, diagnose: bool = True) -> tuple[CaseResult | None, int, int, str | None, bool]:
    """Hypothesis's search and shrink; the minimal failing case (polished and diagnosed), or None.

    Every dataset the implementation returned weights on goes into `evidence` (the diagnosis's), and
    the one tried last is kept there for a probe of an implementation that is not deterministic.
    """
    from hypothesis import assume, given, seed
    from hypothesis.errors import Flaky, Unsatisfiable

    counts = Counter[str]()
    last: list[_Case] = []
    reasons = Counter[str]()

    class _Failed(Exception):
        pass

    def attempt(data: Dataset) -> None:
        case = _Case(target, kind, "generated", data, options, label, generated=True)
        try:
            case.run()
        except _Rejected as reason:
            counts["rejected"] += 1
            reasons[str(reason)] += 1
            assume(False)
        evidence.last = data
        if case.separable:
            evidence.add(case.data, case.weights)
        if not last:
            counts["checked"] += 1
        if case.n_updates is not None:
            counts["with updates"] += 1
        if case.findings:
            last[:] = [case]
            raise _Failed

    def fresh(data: Dataset) -> None:  # one function per search: Hypothesis decorates each once
        attempt(data)

    flaky = None
    usable = 0
    target.clock.phase = "searching generated data (and shrinking what fails)"
    for strategy_of_kind, examples in _strategies(options, strategy):
        test: Callable[[], None] = given(strategy_of_kind)(
            harness_settings(examples=examples, seed=options.seed)(_function_copy(fresh)))
        if options.seed is not None:
            test = seed(options.seed)(test)
        try:
            test()
        except _Failed:
            pass
        except Flaky:
            flaky = ("the implementation failed on a dataset and passed when given the same dataset again; it is "
                     "not deterministic (unseeded shuffling?)")
        except Unsatisfiable:
            continue
        usable += 1
        if last or flaky:
            break
    if not usable:
        common = ", ".join(f"{r} ({n})" for r, n in reasons.most_common(3))
        raise InvalidArgument(f"no generated dataset could be used: {common}; loosen max_epochs or the data bounds")
    with_updates = counts["with updates"] > 0
    if not last:
        return None, counts["checked"], counts["rejected"], flaky, with_updates
    if not diagnose:  # a check of a suggestion: that it fails is all it needs to know
        return last[0].result(), counts["checked"], counts["rejected"], flaky, with_updates
    target.clock.phase = "shrinking the counterexample"
    minimal = _polish(last[0], target, kind, label, options, evidence)
    target.clock.phase = "diagnosing the counterexample"
    minimal.diagnose(evidence)
    return minimal.result(), counts["checked"], counts["rejected"], flaky, with_updates


def _function_copy(function: Callable[[Dataset], None]) -> Callable[[Dataset], None]:
    """A new function object with the same code: the same derandomized seed, a fresh place for Hypothesis's marks."""
    import types

    return types.FunctionType(function.__code__, function.__globals__, function.__name__, function.__defaults__,
                              function.__closure__)


def _smaller(data: Dataset) -> Iterator[Dataset]:
    """Simpler datasets to try after Hypothesis's shrink: without one feature (first those that are 0 in
    every sample, on which no weight ever moves), then without one sample."""
    from ..errors import DataError

    zero_first = sorted(range(data.n_features), key=lambda j: any(x[j] != 0 for x in data.X))
    for j in zero_first if data.n_features > 1 else ():
        yield Dataset(X=tuple(x[:j] + x[j + 1:] for x in data.X), y=data.y, source=data.source)
    for i in range(data.n_samples):
        try:
            yield Dataset(X=data.X[:i] + data.X[i + 1:], y=data.y[:i] + data.y[i + 1:], source=data.source)
        except DataError:  # one class left
            continue


def _polish(case: _Case, target: Runner, kind: str, label: tuple[str, tuple[str, str] | None],
            options: CheckOptions, evidence: Evidence) -> _Case:
    """Keep removing features and samples while the implementation still fails (on data the harness
    would use): a case from which no single feature or sample can be dropped."""
    improved = True
    while improved:
        improved = False
        for data in _smaller(case.data):
            candidate = _Case(target, kind, "generated", data, options, label, generated=True)
            try:
                candidate.run()
            except _Rejected:
                continue
            if candidate.separable:
                evidence.add(candidate.data, candidate.weights)
            if candidate.findings:
                case, improved = candidate, True
                break
    return case
