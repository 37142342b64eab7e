"""Every step accounts for what came in, what went out and what was rejected.

One scheme for every stage:
- a step is a `StepFn` (a DoFn) whose `apply(element)` yields what it keeps, `Rejected`
  rows for what it drops (stage, reason, ids, detail), and `Count`s for anything else
  worth counting; the base class counts `in`, `out` and `rejected.<reason>` for its step;
- counts leave each bundle as one small dict on the `counts` output (and as Beam Metrics,
  for runner UIs: no step calls Beam Metrics itself); `SumCounts` adds them up (keys
  starting `max_` keep the maximum), and is the one combiner of every count dict;
- a step that rejects is a `RuleStep`: it judges records by a table of rules (rules.py)
  and writes each rejection as its row of DIR/rejected, counted by reason;
- `funnel` turns the sums into the stats layout, one entry per step in pipeline order:
  `{"unit", "in", "out", "rejected", "reasons": {...}, ...}`. A step that changes the unit
  (files -> records, passages -> sentences) is an `expand` step: its `in` is the previous
  step's `out`, its `out` is counted in the new unit. `chain_gaps` lists every break.
"""
import collections
from typing import Any, NamedTuple, Optional

import apache_beam as beam
from apache_beam.metrics import Metrics
from apache_beam.transforms.window import GlobalWindows

from transforms.core.funnel import add_count, chain_gaps, funnel
from transforms.core.io_utils import write_json
from transforms.core.progress import Reporter
from transforms.core.rules import Reject, first_rejection, rejected_row

REJECTED = "rejected"
COUNTS = "counts"


class Rejected(NamedTuple):
    """A record a step drops, as its row of DIR/rejected."""
    row: dict


class Uncounted(NamedTuple):
    """An output a step passes on without counting it as `out` (it counts itself)."""
    value: object


class Count(NamedTuple):
    """An extra count a step reports: `step.key += n` (`max_` keys keep the maximum)."""
    step: str
    key: str
    n: int = 1


def reject(stage, reason, article_id=None, record_id=None, source_file=None, detail=None):
    return Rejected(rejected_row(stage, reason, article_id=article_id, record_id=record_id,
                                 source_file=source_file, detail=detail))


class StepFn(beam.DoFn):
    """Base DoFn of an accounted step (see the module docstring).

    Subclasses set `step` (the funnel step name) and implement `apply`; `units(element)`
    says how many of the step's units one element carries (default 1)."""
    step: str = ""

    def units(self, element) -> int:
        return 1

    def apply(self, element, *args, **kwargs):
        raise NotImplementedError

    def start_bundle(self):
        self._counts = collections.Counter()
        if getattr(self, "_reporter", None) is None:
            self._reporter = Reporter(self.step)

    def process(self, element, *args, **kwargs):
        counts, step = self._counts, self.step
        key_in, key_out = f"{step}.in", f"{step}.out"
        before_in, before_out = counts[key_in], counts[key_out]
        n_in = self.units(element)
        if n_in:
            counts[key_in] += n_in
        yield from self._outputs(element, args, kwargs)
        self._reporter.add(counts[key_in] - before_in, counts[key_out] - before_out)

    def _outputs(self, element, args, kwargs):
        counts, step = self._counts, self.step
        for out in self.apply(element, *args, **kwargs):
            if isinstance(out, Rejected):
                counts[f"{out.row['stage']}.rejected.{out.row['reason']}"] += 1
                yield beam.pvalue.TaggedOutput(REJECTED, out.row)
            elif isinstance(out, Count):
                add_count(counts, f"{out.step}.{out.key}", out.n)
            elif isinstance(out, Uncounted):
                yield out.value
            elif isinstance(out, beam.pvalue.TaggedOutput):
                yield out
            else:
                counts[f"{step}.out"] += 1
                yield out

    def teardown(self):
        if getattr(self, "_reporter", None) is not None:
            self._reporter.add(0, 0, force=True)

    def finish_bundle(self):
        # flushed here: a runner need not call teardown (Flink does not), and its counts
        # would never reach the progress line
        self._reporter.add(0, 0, force=True)
        if self._counts:
            for key, n in self._counts.items():
                step, name = key.split(".", 1)
                if not name.startswith("max_"):
                    Metrics.counter(step, name).inc(n)
            yield beam.pvalue.TaggedOutput(COUNTS, GlobalWindows.windowed_value(
                dict(self._counts)))
            self._counts = collections.Counter()


class RuleStep(StepFn):
    """A step that judges records by a table of rules (rules.py; the shape of DataTrove's
    `BaseFilter.run`): a record every rule keeps goes on (`out`); one a rule rejects
    becomes its row of DIR/rejected with that rule's reason and detail, counted
    `rejected.<reason>` (the step's `in` counts what it judged).

    Subclasses set `step` and `rules` (or `self.rules`, `self.config` in `__init__`).
    `apply` judges the element itself; a step judging several records per element (a
    passage's sentences) or a pure function that returns a `Reject` (clean_article)
    calls `judge` / `rejected` itself. `ids(record)` names the record in its row."""
    rules: tuple = ()
    config: Any = None

    def ids(self, record) -> dict:
        """article_id, record_id (a row's `id`) and source_file of the rejected row."""
        if isinstance(record, dict):
            return {"article_id": record.get("article_id"), "record_id": record.get("id")}
        return {"article_id": getattr(record, "article_id", None),
                "source_file": getattr(record, "source_file", None)}

    def context(self, element):
        """What the rules see beside the record (None by default)."""
        return None

    def verdict(self, record, context=None, rules=None) -> Optional[Reject]:
        return first_rejection(self.rules if rules is None else rules, record, context,
                               self.config)

    def rejected(self, why: Reject, record=None, detail=None, **ids) -> Rejected:
        """The Rejected row of `why`; `ids` default to `self.ids(record)`, `detail` to
        the rule's."""
        return reject(self.step, why.reason, detail=why.detail if detail is None else detail,
                      **(ids or self.ids(record)))

    def judge(self, record, context=None, rules=None):
        """The record when every rule keeps it, else its Rejected row."""
        why = self.verdict(record, context, rules)
        return record if why is None else self.rejected(why, record)

    def apply(self, element):
        yield self.judge(element, self.context(element))


def accounted(pcoll, label: str, fn: StepFn, *args, **kwargs):
    """`pcoll | label >> ParDo(fn)` with its main, `rejected` and `counts` outputs."""
    return pcoll | label >> beam.ParDo(fn, *args, **kwargs).with_outputs(
        REJECTED, COUNTS, main="main")


def merged(label: str, *results):
    """(rejected, counts) of several accounted results, each flattened into one PCollection."""
    rejected = tuple(r[REJECTED] for r in results) | f"{label}Rejected" >> beam.Flatten()
    counts = tuple(r[COUNTS] for r in results) | f"{label}Counts" >> beam.Flatten()
    return rejected, counts, rejected.pipeline


class SumCounts(beam.CombineFn):
    """Adds up count dicts {key: n} (string keys `step.max_*` keep the maximum): the one
    combiner of the project's counts, whatever the key (a funnel key, a (step, reason)
    pair, a bucket); the accumulator is one small dict whatever the corpus size. The
    output is in key order."""

    def create_accumulator(self):
        return collections.Counter()

    def add_input(self, acc, counts):
        for key, n in counts.items():
            add_count(acc, key, n)
        return acc

    def merge_accumulators(self, accs):
        total = collections.Counter()
        for a in accs:
            self.add_input(total, a)
        return total

    def extract_output(self, acc):
        try:
            return dict(sorted(acc.items()))
        except TypeError:          # keys of mixed types: ordered by their text
            return dict(sorted(acc.items(), key=lambda kv: repr(kv[0])))


def count_of(key) -> dict:
    """The count dict of one occurrence of `key`, for `SumCounts`."""
    return {key: 1}


class WriteFunnel(beam.PTransform):
    """Sum every step's counts and write `{**meta, stages, gaps, summary}` as JSON.

    `first_in`: the count the first step's `in` must equal (e.g. the upstream manifest's
    rows); `summarise(accounts)` -> the summary dict."""

    def __init__(self, path: str, steps, meta: dict, summarise=None, first_in=None):
        super().__init__()
        self.path, self.steps, self.meta = path, tuple(steps), dict(meta)
        self.summarise, self.first_in = summarise, first_in

    def expand(self, counts):
        path, steps, meta = self.path, self.steps, self.meta
        summarise, first_in = self.summarise, self.first_in

        def write(flat):
            accounts = funnel(flat, steps)
            stats = dict(meta, stages=accounts, gaps=chain_gaps(accounts, first_in),
                         summary=summarise(accounts) if summarise else {})
            write_json(path, stats)
            return stats

        return (counts
                | "SumCounts" >> beam.CombineGlobally(SumCounts())
                | "WriteStatsJson" >> beam.Map(write))
