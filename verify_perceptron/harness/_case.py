"""One dataset checked: the exact run, one call of the implementation, then the checks of the table
in `check`'s docstring, in its order, and on failure the diagnosis of what went wrong."""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction

from ..data.dataset import Dataset
from ..data.trace import Trace
from ..errors import InvalidArgument
from ..notes.conventions import get_convention
from ._accepted import _with_accepted
from ._agreement import _agreement, _choose_factor
from ._averaged import averaged_agreement
from ._call import _Call
from ._checks import _ends_at_returned, _invariants, _learning_rate, _returned_weights, _separates
from ._diagnosis import UNEXPLAINED, diagnose
from ._evidence import Evidence
from ._exact import Vector
from ._exact_run import _exact_run, _Rejected
from ._floats import Unrepresentable, _as_doubles, _rounding_notes, code_rate
from ._layout import current_place, largest, largest_others, layout_diagnosis, limit_diagnosis, read_as, written
from ._probes import neighbours, nondeterminism_probe, slow_pairs
from ._process import DELIMITERS, CommandImplementation
from ._options import MAX_REPORTED_UPDATES, REFERENCE_EPOCHS, CheckOptions, updates_to_read
from ._results import CaseResult, Diagnosis, Finding, FloatDecision
from ._runner import Runner
from ._target import _inputs
from ._one_class import PAIR, refused_tokens
from ._tokens import READINGS, expects, flags as label_flags, other_reading, rechecked, shown
from ._wording import _count, _number


class _Case:
    """Checks one dataset: `run` collects the findings, `diagnose` adds notes, `result` is the immutable record."""

    def __init__(self, target: Runner, kind: str, name: str, data: Dataset, options: CheckOptions,
                 label: tuple[str, tuple[str, str] | None], *, generated: bool) -> None:
        self.target, self.kind, self.name, self.options, self.label = target, kind, name, options, label
        self.conv, self.generated = get_convention(options.convention), generated
        self.notes: list[str] = []
        self.findings: list[Finding] = []
        self.unusable: str | None = None  # why float64 cannot hold the data: the case is set aside or refused
        if options.dtype == "float":
            try:
                data, note = _as_doubles(data)
            except Unrepresentable as error:
                self.unusable, note = str(error), None
            if note:
                self.notes.append(note)
        self.data = data
        self.weights: Vector | None = None
        self.n_updates: int | None = None
        self.factor: Fraction | None = None
        self.rounding: FloatDecision | None = None
        self.separable = True
        self.reference: Trace | None = None
        self.output, self.output_bytes = "", 0
        self.diagnoses: list[Diagnosis] = []
        self.relabelled = False  # the other labels were tried (`_on_other_labels`), or this case has them
        self.single = False  # diagnosed alone (`diagnose` without evidence)

    def run(self) -> None:
        """The checks, in the table's order; `_Rejected` (before any call) when a generated dataset is set aside."""
        conv, data, options = self.conv, self.data, self.options
        if self.unusable is not None:
            if self.generated:
                raise _Rejected("float64 cannot hold a value")
            raise InvalidArgument(f"the data of {self.name}: {self.unusable}")
        exact = _exact_run(data, conv, options, self.name, generated=self.generated)
        reference = self.reference = exact.trace
        self.separable = exact.separable
        X, y = _inputs(data, options)
        call = self.target.call(X, y, options, updates_to_read(reference.n_updates, data.n_samples))
        self.output, self.output_bytes = call.output, call.output_bytes
        self.notes.extend(f"the implementation warned: {w}" for w in call.warnings)
        # returns-weights, detects-nonseparable
        weights, found = _returned_weights(call, exact, conv, data, options)
        self.weights = weights
        self.findings += found
        if weights is None:
            return
        updates = self._reported_updates(call, weights)  # reported-updates
        if options.averaged:  # the average need not separate; its reported updates are the online run's
            found, self.factor = averaged_agreement(data, conv, reference, weights, options)
            self.findings += found
            if updates is not None and not found:
                self.findings += _invariants(data, conv, exact.full, updates, self.factor)
            return
        if not exact.capped or not _separates(conv, data, reference.final_weights):
            # final-weights-separate; under an epoch limit only where the run stopped there separates
            self.findings += _separates(conv, data, weights)
        self.factor = c = _choose_factor(options.eta, conv, reference, weights, updates)
        self.findings += _agreement(data, conv, reference, weights, updates, c, options.labels)
        if not any(f.check == "agrees-with-reference" for f in self.findings):
            self.findings += _learning_rate(conv, c)  # c is only meaningful once the weights agree
        self.findings, accepted = _with_accepted(options, conv, data, reference, weights, c, self.findings)
        self.notes += accepted
        if updates is not None:
            self.findings += _invariants(data, conv, exact.full, updates, c, options.mode)  # update-rule, ...

    def _reported_updates(self, call: _Call, weights: Vector) -> list[tuple[int, Vector]] | None:
        """reported-updates: the updates read exactly, or None when there are none or they cannot be read."""
        if call.updates_error is not None:
            self.findings.append(Finding("reported-updates", call.updates_error))
            return None
        updates = call.updates
        if updates is None:
            return None
        if call.updates_cut:  # the list was longer: say so rather than judge a prefix silently
            read = len(updates)
            if read < MAX_REPORTED_UPDATES and self.reference is not None:
                self.findings.append(Finding("reported-updates", f"it reported more than {read} updates, where the "
                                             f"exact run makes {self.reference.n_updates}; the first {read} were read"))
            else:
                self.notes.append(f"only the first {read} reported updates were read")
        elif not self.options.averaged:  # an average is not the weights after the last update
            self.findings += _ends_at_returned(updates, weights)
        self.n_updates = len(updates)
        return updates

    def diagnose(self, evidence: Evidence | None = None) -> None:
        """Name the cause: the one that reproduces the implementation on every dataset in `evidence`
        (this one only when None), and where float rounding changed a decision."""
        if not self.findings or self.reference is None or not self.separable:
            return
        self.single = self.single or evidence is None  # one dataset (`check_dataset`): no search, so none nested
        if self.weights is None:  # no weights to explain: unless other labels give some
            refused = self._refuses_labels(evidence or Evidence()) or self._file_layout(evidence or Evidence(), True)
            self.diagnoses = [] if refused is None else [refused]
            return
        single = evidence is None
        evidence = evidence or Evidence()
        # The declaration before the algorithm: the label read from another column, weights in another order,
        # a run past the declared epochs.
        declared = self._file_layout(evidence) or layout_diagnosis(
            self.data, evidence.observations, self.conv, self.options, self.kind, self._passes, self.recheck)
        if declared is not None and declared.parameters.get("passes") is False:
            declared = self._read_in_order(declared, evidence)
        if declared is None:
            for near in (*neighbours(self.data), *slow_pairs()):  # datasets that tell causes apart (and show a cap)
                seen, weights, _ = self.recheck(near, self.options.labels, self.conv.name)
                evidence.add(seen, weights)
        factor = self.factor if self.factor is not None and self.factor > 0 else Fraction(1)
        rate = self.options.eta or (self.factor if self.n_updates else None)
        if declared is None and self.options.mode == "online":  # its models are online runs
            declared = limit_diagnosis(evidence.leading(self.data, self.weights), self.conv, self.options, rate)
        if declared is not None:
            self.diagnoses = [declared]
        else:
            from ._combinations import SEARCH_SECONDS, SINGLE_SEARCH_SECONDS

            # one dataset and its neighbours (`check_dataset`, a reproduction) get a shorter search than a check;
            # its seconds count from the search's start (the models before it may take long on many datasets)
            self.diagnoses = diagnose(self.data, self.weights, self.conv, self.options, evidence, self.recheck, rate,
                                      self.options.eta or code_rate(self.conv, factor, self.options.labels),
                                      self.target.clock.end, SINGLE_SEARCH_SECONDS if single else SEARCH_SECONDS)
            self.target.clock.check()  # the search of combinations stops at the check's end: say so if it came
            self.diagnoses[0] = self._checked_suggestion(self.diagnoses[0], evidence)
            if self.diagnoses[0].code == UNEXPLAINED:  # no model fits: does it even give one answer? other labels?
                self.diagnoses[0] = self._unseeded(evidence) or self._on_other_labels(evidence) or self.diagnoses[0]
        first, *others = self.diagnoses
        self.notes.append(f"diagnosis: {first.text}")
        self.notes.extend(f"also consistent: {d.text}" for d in others)
        if self.options.dtype == "float":
            self.rounding, notes = _rounding_notes(self.data, self.conv, self.weights,
                                                   self.options.eta or code_rate(self.conv, factor, self.options.labels),
                                                   self.options.max_epochs or REFERENCE_EPOCHS, self.options.labels)
            self.notes.extend(notes)
            first_change = self.rounding
            if first_change is not None:
                where = {"update": first_change.update, "epoch": first_change.epoch, "sample": first_change.sample,
                         "exact_score": _number(first_change.exact_score), "float_score": first_change.float_score}
                self.diagnoses = [Diagnosis(d.code, {**d.parameters, **where}, d.text) if d.code == "float-rounding"
                                  else d for d in self.diagnoses]

    def _read_in_order(self, layout: Diagnosis, evidence: Evidence) -> Diagnosis:
        """`layout` (an order under which the implementation still fails) with what is left: diagnosed as a check
        in that order would (its search's first failing dataset, every dataset it tried as the evidence); where
        that search finds none, the first of this dataset and the others tried (up to `SUGGESTION_DATASETS`)
        that fails in that order, their weights read again in that order."""
        place = str(layout.parameters["bias"])
        options = dataclasses.replace(self.options, bias=place, output="auto")
        seen, failing = self._searched(options)
        case = self._first_failing(options, evidence, [] if failing is None else [failing])
        if case is None:
            return Diagnosis(layout.code, layout.parameters, f"{layout.text}; read in that order, it passes on "
                             "each dataset tried again")
        if failing is None or case.data is not failing:  # only data this check tried fail: they are the evidence
            now = current_place(self.options, self.kind)
            for observed in evidence.observations:
                seen.add(observed.data, observed.weights if now is None else read_as(self.conv, written(
                    self.conv, observed.weights, now), place))
        case.diagnose(seen)
        if not case.diagnoses:
            return layout
        then, text, parameters = case.diagnoses[0], case.diagnoses[0].text, dict(layout.parameters)
        flags = then.parameters.get("passes_with")
        if flags is not None:  # checked under that order: say it with the option that declares it
            parameters["passes_with"] = f"{layout.parameters['option']} {flags}"
            text = text.replace(f"it passes with {flags}", f"it passes with {parameters['passes_with']}")
        return Diagnosis(layout.code, {**parameters, "then": {"code": then.code, "parameters": then.parameters}},
                         f"{layout.text}; read in that order, it still fails"
                         f"{' on the counterexample' if case.data is self.data else ''}: {text}")

    def _searched(self, options: CheckOptions) -> tuple[Evidence, Dataset | None]:
        """What a check's search under `options` saw up to its first failure (or its end): every dataset tried with
        the weights returned there, and the dataset it failed on (None: it passed, no dataset could be generated,
        or this case is diagnosed alone, whose caller may be a Hypothesis test itself)."""
        seen = Evidence()
        if self.single:
            return seen, None
        share = dataclasses.replace(options, examples=min(options.examples, SEARCHED_EXAMPLES))
        searched = _search_aside(self.target, self.kind, self.label, share, seen)
        failed = None if searched is None else searched[0]
        return seen, None if failed is None else failed.data

    def _first_failing(self, options: CheckOptions, evidence: Evidence, first: list[Dataset] | None = None) -> _Case | None:
        """The first of `first`, this dataset and the others tried (up to `SUGGESTION_DATASETS`) on which the
        implementation, called again under `options`, fails a check (its case, run); None where it passes on each."""
        for data in [*(first or []), self.data, *(o.data for o in evidence.observations[:SUGGESTION_DATASETS])]:
            case = _Case(self.target, self.kind, self.name, data, options, self.label, generated=False)
            case.relabelled, case.single = self.relabelled, self.single
            try:
                case.run()
            except (InvalidArgument, _Rejected):
                continue
            if case.findings:
                return case
        return None

    def _on_other_labels(self, evidence: Evidence) -> Diagnosis | None:
        """``label-encoding`` for weights no model explains on these labels, where the implementation given the
        other labels (0/1 for -1/+1) on the datasets tried passes, or fails in a way that is diagnosed there (code
        written for labels 0/1 that also stops at a cap, steps at a float rate and predicts +1 at 0, as
        machinelearningmastery's perceptron does); else None. Tried once: never again from the relabelled case."""
        if self.relabelled:
            return None
        other, classes = other_reading(self.options.labels), self.options.classes
        self.relabelled = True
        options = dataclasses.replace(self.options, labels=other)
        seen, failing = self._searched(options)  # as a check on those labels
        case = self._first_failing(options, evidence, [] if failing is None else [failing])
        said = f"{expects(other, classes)} (given {shown(self.options.labels, classes)}, no model explains its weights)"
        found = {"labels": other, "convention": self.conv.name, "datasets": 1}
        if case is None:
            return self._checked_suggestion(Diagnosis("label-encoding", found, f"{said}: given them, it passes on "
                                                      "each dataset tried again"), evidence)
        if case.weights is not None and not any(case.weights) and not any(any(o.weights) for o in seen.observations):
            return None  # it never moves on those labels: every model that stays at 0 "explains" it, none says why
        case.diagnose(seen)  # a check's search (not one dataset's shorter one): three causes may be needed
        if not case.diagnoses:
            return None
        then, text = case.diagnoses[0], case.diagnoses[0].text
        causes = then.parameters.get("causes")
        codes = {then.code, *(c.get("code") for c in causes if isinstance(c, dict))} if isinstance(causes, list) \
            else {then.code}
        if codes & {UNEXPLAINED, "labels-0-1", "label-encoding"}:  # code that misreads those labels does not expect them
            return None
        flags = then.parameters.get("passes_with")
        if flags is not None:  # checked under those labels: say it with the option that declares them
            found["passes_with"] = f"{label_flags(other, classes)} {flags}"
            text = text.replace(f"it passes with {flags}", f"it passes with {found['passes_with']}")
        return Diagnosis("label-encoding", {**found, "then": {"code": then.code, "parameters": then.parameters}},
                         f"{said}: given them, {text}")

    def _file_layout(self, evidence: Evidence, delimiters: bool = False) -> Diagnosis | None:
        """``label-column`` or ``header-line``: a command that reads ``{train}`` laid out otherwise (the label in
        the first column, a first line naming the columns as pandas' ``read_csv`` and R's ``read.csv`` expect, or
        both) passes every check when called again with it laid out so, on this dataset, on the
        `LAYOUT_RECHECKS` largest others tried (where there are none, its neighbours and a fresh batch); else
        None. With `delimiters` (it gave no weights), also its values apart by another delimiter."""
        command = self.target.target
        if not isinstance(command, CommandImplementation):
            return None
        # never on the counterexample alone (two samples and a header line can pass by chance): its neighbours and
        # a fresh batch then
        others = largest_others(self.data, evidence.observations)
        fresh = not others
        others = others or largest(neighbours(self.data))
        other = "first" if command.label_column == "last" else "last"
        apart = [(command.label_column, command.header, d) for d in DELIMITERS.values() if d != command.delimiter]
        for label_column, header, delimiter in ((other, command.header, command.delimiter),  # one change, then two
                                                (command.label_column, not command.header, command.delimiter),
                                                (other, not command.header, command.delimiter),
                                                *(apart if delimiters else ())):
            changed = dataclasses.replace(command, label_column=label_column, header=header, delimiter=delimiter)
            self.target.target = changed
            try:
                passed = all(self._passes(data, self.options) for data in [self.data, *others]) and (
                    not fresh or _fresh_batch(self.target, self.kind, self.label, self.options) is not None)
            finally:
                self.target.target = command
            if passed:
                return _laid_out(command, changed, len(others))
        return None

    def _refuses_labels(self, evidence: Evidence) -> Diagnosis | None:
        """``label-encoding``, for an implementation that raised or exited with an error on these data: given
        them with the other labels (0/1 for -1/+1) it gives weights; then it passes (and the option is checked
        as `_checked_suggestion` checks it), or what it does then is diagnosed there. mlxtend's Perceptron raises
        on labels -1 ("y array must not contain negative labels"). None when the other labels give no weights
        either, or the call did not end (a timeout is not called again)."""
        first = self.findings[0]
        if first.check != "returns-weights" or not re.search(r"implementation (raised|\(the command\) exited)",
                                                             first.message):
            return None
        if self.relabelled:  # given these labels by a case that had the others: never back again
            return None
        case, other, classes = self._given_labels(self.options.classes is None and self.options.labels == "-1/+1")
        if case is None:
            return refused_tokens(self.options.labels, self.options.classes, f"{first.message}\n{self.output}",
                                  self.conv.name)
        why = first.message.removeprefix("on these data the implementation ").split("\n")[0]
        found = Diagnosis("label-encoding", {"labels": other, "convention": self.conv.name, "datasets": 1,
                                             **({} if classes == self.options.classes else {"classes": list(classes or ())})},
                          f"{expects(other, classes)}: given labels {shown(self.options.labels, self.options.classes)} it {why}, "
                          f"and given labels {shown(other, classes)} it gives weights")
        if not case.findings:
            passing = Diagnosis(found.code, found.parameters, f"{found.text} that pass every check on these data")
            confirmed = self._checked_suggestion(passing, evidence)
            if confirmed is not passing:
                return confirmed
            declared = label_flags(other, classes)
            return Diagnosis(found.code, found.parameters, f"{passing.text}, but it fails on others with {declared}: "
                             f"check it with {declared} to see what else departs")
        case.diagnose(Evidence())
        then = case.diagnoses[0] if case.diagnoses else None
        if then is None:
            return Diagnosis(found.code, found.parameters, f"{found.text} that fail: {case.findings[0].message}")
        return Diagnosis(found.code, {**found.parameters, "then": {"code": then.code, "parameters": then.parameters}},
                         f"{found.text}; given them, {then.text}")

    def _given_labels(self, pairs: bool) -> tuple[_Case | None, str, tuple[str, str] | None]:
        """This dataset called again with the other reading of its labels (0/1 for -1/+1), then with `pairs` labels
        1/2 read as -1/+1 and as 0/1: the first case run that gives weights, its reading and tokens (None, ...:
        none gives any, or the data are set aside)."""
        tried = [other_reading(self.options.labels)] + ([f"{PAIR[0]}/{PAIR[1]}:{r}" for r in READINGS] if pairs else [])
        for labels in tried:
            reading, classes = rechecked(labels, self.options.classes)
            case = _Case(self.target, self.kind, self.name, self.data,
                         dataclasses.replace(self.options, labels=reading, classes=classes), self.label, generated=False)
            case.relabelled = True
            try:
                case.run()
            except (InvalidArgument, _Rejected):
                break
            if case.weights is not None:
                return case, reading, classes
        return None, self.options.labels, self.options.classes

    def _unseeded(self, evidence: Evidence) -> Diagnosis | None:
        """``nondeterministic`` (or a random start, `nondeterminism_probe`) when two more calls on one of the
        `LAYOUT_RECHECKS` largest datasets tried give different weights: an unseeded shuffle that the small
        counterexample hid (two samples have few orders), which no model of a run can reproduce; else None."""
        for data in largest([self.data, *(o.data for o in evidence.observations)]):
            seen, first, _ = self.recheck(data, self.options.labels, self.conv.name)
            _, second, _ = self.recheck(data, self.options.labels, self.conv.name)
            if first is not None and second is not None and first != second:
                return nondeterminism_probe(seen, self.conv, self.recheck, self.options.labels)
        return None

    def _passes(self, data: Dataset, options: CheckOptions) -> bool:
        """Whether the implementation, called again on `data` and checked under `options`, passes every check."""
        case = _Case(self.target, self.kind, "probe", data, options, self.label, generated=False)
        try:
            case.run()
        except (InvalidArgument, _Rejected):
            return False
        return not case.findings

    def _checked_suggestion(self, diagnosis: Diagnosis, evidence: Evidence) -> Diagnosis:
        """`diagnosis` with "it passes with OPTIONS" when the check under those options passed on the same
        datasets and on a fresh batch (`_suggestions`); unchanged when there is none or it failed."""
        from ._suggestions import applied, command_line, suggestion

        overrides = suggestion(diagnosis, self.options)
        if overrides is None:
            return diagnosis
        options = dataclasses.replace(self.options, **applied(overrides, self.options))
        same = [self.data, *(o.data for o in evidence.observations[:SUGGESTION_DATASETS])]
        checked = 0
        for data in same:
            # as the check under those options would take them: data it sets aside are skipped, not failed
            case = _Case(self.target, self.kind, "suggestion", data, options, self.label, generated=True)
            try:
                case.run()
            except (InvalidArgument, _Rejected):
                continue  # data that declaration sets aside (a run longer than its epoch limit)
            if case.findings:
                return diagnosis
            checked += 1
        fresh = _fresh_batch(self.target, self.kind, self.label, options)
        if fresh is None or not checked:
            return diagnosis
        flags = command_line(overrides, self.options)
        return Diagnosis(diagnosis.code, {**diagnosis.parameters, "passes_with": flags},
                         f"{diagnosis.text}; it passes with {flags} (checked on {_number(checked)} of the datasets "
                         f"tried and {_number(fresh)} fresh ones)")

    def recheck(self, data: Dataset, labels: str, convention: str) -> tuple[Dataset, Vector | None, bool]:
        """Call the implementation again on `data` given with `labels`, checked under `convention`: the
        data as it saw them, its weights, and whether it passed (`labels` a reading, or new tokens: `rechecked`)."""
        reading, classes = rechecked(labels, self.options.classes)
        options = dataclasses.replace(self.options, labels=reading, classes=classes, convention=convention)
        case = _Case(self.target, self.kind, "probe", data, options, self.label, generated=False)
        try:
            case.run()
        except (InvalidArgument, _Rejected):
            return case.data, None, False
        return case.data, case.weights, not case.findings

    def result(self) -> CaseResult:
        """The verdict on this dataset, as an immutable record."""
        return CaseResult(self.name, self.data, self.options, self.label[0], tuple(self.findings), tuple(self.notes),
                          self.label[1], self.separable, self.reference, self.weights, self.n_updates, self.factor,
                          self.rounding, self.output, tuple(self.diagnoses), self.output_bytes)


#: Datasets already tried that a suggestion is checked on (the counterexample first), and fresh ones.
SUGGESTION_DATASETS, FRESH_DATASETS = 20, 10
#: The most generated datasets `_Case._searched` tries under a declared order or the other labels: enough evidence
#: for a diagnosis there (a check in that order fails within 25 on the session's NumPy printing), at most that many
#: more calls of a slow program.
SEARCHED_EXAMPLES = 40


def _fresh_batch(target: Runner, kind: str, label: tuple[str, tuple[str, str] | None],
                 options: CheckOptions) -> int | None:
    """The number of fresh generated datasets (another seed) on which the check under `options` passed,
    or None when it failed on one or none could be generated."""
    fresh = dataclasses.replace(options, examples=FRESH_DATASETS, seed=FRESH_SEED, worked_examples=False)
    searched = _search_aside(target, kind, label, fresh, Evidence())
    if searched is None:
        return None
    counterexample, checked, _, flaky, _ = searched
    return None if counterexample is not None or flaky or not checked else checked


def _search_aside(target: Runner, kind: str, label: tuple[str, tuple[str, str] | None], options: CheckOptions,
                  evidence: Evidence) -> tuple[CaseResult | None, int, int, str | None, bool] | None:
    """`_search._search` under `options` without a diagnosis, the check's phase as it was after it; None where no
    dataset could be generated."""
    from ._search import _search

    phase = target.clock.phase
    try:
        return _search(target, kind, label, options, None, evidence, diagnose=False)
    except InvalidArgument:
        return None
    finally:
        target.clock.phase = phase


#: The seed of the fresh batch a suggestion is checked on (the search's own is derandomized).
FRESH_SEED = 20261127


def _laid_out(command: CommandImplementation, changed: CommandImplementation, others: int) -> Diagnosis:
    """The diagnosis of a command that passes with ``{train}`` laid out as `changed`, not as `command`."""
    said, options, python = [], [], []
    if changed.label_column != command.label_column:
        said.append(f"the label from the {changed.label_column} column of {{train}}, where each line holds it "
                    f"{command.label_column}")
        options.append(f"--label-column {changed.label_column}")
        python.append(f"label_column={changed.label_column!r}")
    if changed.header != command.header:
        said.append("the first line of {train} as a header naming the columns (as pandas' read_csv and R's read.csv "
                    "do by default), where the harness writes none" if changed.header else
                    "the first line of {train} as a sample, where --header writes the columns' names there")
        options.append("--header")
        python.append(f"header={changed.header!r}")
    if changed.delimiter != command.delimiter:
        name = next(k for k, v in DELIMITERS.items() if v == changed.delimiter)
        said.append(f"the values of {{train}} apart by {name}s (np.loadtxt(path), fscanf and R's read.table read "
                    f"values apart by spaces), where they are apart by {command.delimiter!r}")
        options.append(f"--delimiter {name}")
        python.append(f"delimiter={changed.delimiter!r}")
    code = "header-line" if changed.header != command.header else (
        "label-column" if changed.label_column != command.label_column else "delimiter")
    parameters = {"label_column": changed.label_column, "header": changed.header, "delimiter": changed.delimiter,
                  "option": " ".join(options),
                  "python": ", ".join(python), "datasets": 1 + others}
    return Diagnosis(code, parameters,
                     f"it takes {' and '.join(said)}; given {{train}} so, it passes every check on the counterexample "
                     f"and on {_count(others, 'other dataset')} tried, each called again; declare it with "
                     f"{' '.join(options)} (command_implementation(..., {', '.join(python)}) in Python)")
