"""AFLite in Beam (`models/aflite.py`): the predictability filter, one unrolled step group
per iteration, memory bounded by settings.

    Featurize (errors out) | per iteration i:
      Alive -> SampleKeys | Top.Smallest(train_queries) -> TrainHeads (one element: the
      sample, at most train_queries featurized queries; the m heads trained at once)
      Alive -> Score (side input: the heads; every query's predictability from the heads
      that did not train on it) -> RemovalKeys | CombineGlobally(histogram) -> Plan
      (side inputs: counts, the previous plan) -> Mark (queries with key <= threshold are
      removed in iteration i)

After an iteration whose plan says `stop`, later ones pass the queries through untouched
(no heads are trained). Every iteration holds at most `train_queries` queries in one call
(its sample, `max_rows_in_memory`), and a histogram of at most (LEVELS + 1) x HASH_BINS
entries; nothing else gathers rows. Same input and settings, same verdicts, whatever the
worker count: the sample, the partitions and the removal order come from query-id
hashes; heads train on one thread on the sample in id order.
"""
import collections
import logging

import apache_beam as beam
import numpy as np

from models import aflite as A
from transforms.core.accounting import COUNTS, Count, StepFn, Uncounted

log = logging.getLogger(__name__)


class FeaturizeFn(beam.DoFn):
    """row -> {"row", "example", "removed_in", "p", "answers"}; a query no reader can
    score goes to `errors` with its reason."""
    ERRORS = "errors"

    def process(self, row):
        try:
            _, example = A.featurize(row)
        except ValueError as e:
            yield beam.pvalue.TaggedOutput(self.ERRORS, {"row": row, "error": str(e)[:2000]})
            return
        yield {"row": row, "example": example, "removed_in": None, "p": None,
               "prediction": None}


class TrainHeadsFn(StepFn):
    """The iteration's sample (a list) -> the heads, or None when filtering has stopped;
    reports the sample's size as the `adversary` account's `max_rows_in_memory`."""
    step = "adversary"

    def __init__(self, iteration: int, config: A.AfliteConfig):
        self.iteration, self.config = iteration, config

    def units(self, element) -> int:
        return 0

    def apply(self, sample, previous):
        if previous.get("stop") or not sample:
            yield Uncounted(None)
            return
        items = sorted(sample, key=lambda s: s["row"]["id"])
        yield Count("adversary", "max_rows_in_memory", len(items))
        masks = np.stack([A.head_draws(s["row"]["id"], self.iteration, self.config)
                          for s in items])
        heads = A.train_heads([s["example"] for s in items], masks, self.config,
                              self.config.seed * 1000 + self.iteration)
        heads["sample_max_key"] = max(A.sample_key(s["row"]["id"], self.iteration, self.config)
                                      for s in items)
        yield Uncounted(heads)


def score(state: dict, heads, iteration: int, config: A.AfliteConfig) -> dict:
    """The query's predictability under this iteration's heads, and its removal key (None
    below tau). Without heads (filtering stopped) the state passes untouched."""
    if heads is None:
        return dict(state, key=None)
    qid = state["row"]["id"]
    in_sample = A.sample_key(qid, iteration, config) <= heads["sample_max_key"]
    trained = (A.head_draws(qid, iteration, config) if in_sample
               else np.zeros(config.heads, bool))
    answers, picks = A.head_answers(heads, state["example"], with_picks=True)
    p = A.predictability(answers, trained)
    key = (A.removal_key(p, qid, iteration, config)
           if p is not None and p >= config.tau else None)
    return dict(state, p=p, key=key, prediction=A.majority_pick(picks, trained))


class Histogram(beam.CombineFn):
    """Removal keys -> {key: queries}."""

    def create_accumulator(self):
        return collections.Counter()

    def add_input(self, acc, key):
        acc[key] += 1
        return acc

    def merge_accumulators(self, accs):
        out = collections.Counter()
        for a in accs:
            out.update(a)
        return out

    def extract_output(self, acc):
        return dict(acc)


def plan_of(hist: dict, alive: int, total: int, previous: dict, config) -> dict:
    if previous.get("stop") or alive == 0:
        return {"threshold": -1, "removed": 0, "eligible": 0, "stop": True, "skipped": True}
    return A.removal_plan(hist, alive, total, config)


def mark(state: dict, the_plan: dict, iteration: int) -> dict:
    key = state.pop("key", None)
    if key is not None and key <= the_plan["threshold"]:
        return dict(state, removed_in=iteration)
    return state


class Aflite(beam.PTransform):
    """Candidate rows -> (states: {"row", "example", "removed_in", "p", "prediction"} of
    every featurized query, errors: {"row", "error"}, counts on the `aflite` account)."""

    def __init__(self, config: A.AfliteConfig):
        super().__init__()
        self.config = config

    def expand(self, rows):
        cfg = self.config
        feats = rows | "Featurize" >> beam.ParDo(FeaturizeFn()).with_outputs(
            FeaturizeFn.ERRORS, main="states")
        states = feats.states
        total = beam.pvalue.AsSingleton(states | "Total" >> beam.combiners.Count.Globally())
        previous = beam.pvalue.AsSingleton(
            rows.pipeline | "NoPlan" >> beam.Create([{"stop": False}]))
        counts = []
        for it in range(cfg.max_iterations):
            name = f"Iteration{it:02d}"
            parts = states | f"{name}Split" >> beam.Partition(
                lambda s, n: 0 if s["removed_in"] is None else 1, 2)
            alive, gone = parts[0], parts[1]
            sample = (alive
                      | f"{name}Sample" >> beam.combiners.Top.Smallest(
                          cfg.train_queries, key=_sample_key(it, cfg)))
            trained = sample | f"{name}Train" >> beam.ParDo(
                TrainHeadsFn(it, cfg), previous).with_outputs(COUNTS, main="heads")
            counts.append(trained[COUNTS])
            heads = beam.pvalue.AsSingleton(trained.heads)
            scored = alive | f"{name}Score" >> beam.Map(score, heads, it, cfg)
            hist = (scored
                    | f"{name}Keys" >> beam.FlatMap(
                        lambda s: [] if s["key"] is None else [s["key"]])
                    | f"{name}Histogram" >> beam.CombineGlobally(Histogram()))
            n_alive = beam.pvalue.AsSingleton(
                alive | f"{name}Alive" >> beam.combiners.Count.Globally())
            plan = hist | f"{name}Plan" >> beam.Map(plan_of, n_alive, total, previous, cfg)
            previous = beam.pvalue.AsSingleton(plan)
            marked = scored | f"{name}Mark" >> beam.Map(mark, previous, it)
            states = (marked, gone) | f"{name}Merge" >> beam.Flatten()
            counts.append(plan | f"{name}Counts" >> beam.FlatMap(_plan_counts, it))
        all_counts = counts | "AfliteCounts" >> beam.Flatten()
        return states, feats[FeaturizeFn.ERRORS], all_counts


def _sample_key(iteration, cfg):
    return lambda s: A.sample_key(s["row"]["id"], iteration, cfg)


def _plan_counts(the_plan: dict, iteration: int):
    """The iteration's counts on the `adversary` account (a counts dict, as StepFns emit)."""
    if the_plan.get("too_few_queries"):
        yield {"adversary.aflite.too_few_queries": 1}
    if the_plan["removed"] or not the_plan.get("skipped"):
        yield {f"adversary.aflite.iteration{iteration:02d}.removed": the_plan["removed"],
               f"adversary.aflite.iteration{iteration:02d}.eligible": the_plan["eligible"]}


def verdict_row(state: dict) -> dict:
    """The candidate row with the AFLite verdict merged into the k-fold one (if any):
    `adversary_correct` when either adversary answered, `answered_by` (kfold, aflite,
    kfold+aflite, or None), `aflite_predictability` and `aflite_removed_in`."""
    from models.features import candidates
    row = state["row"]
    kfold = row.get("adversary_correct")           # absent without k-fold readers
    removed = state["removed_in"] is not None
    pick = state.get("prediction")
    aflite_text = candidates(row)[pick].text if pick is not None else None
    by = "+".join(n for n, hit in (("kfold", bool(kfold)), ("aflite", removed)) if hit)
    prediction = row.get("adversary_prediction") if kfold else (
        aflite_text if removed else row.get("adversary_prediction", aflite_text))
    return dict(row, adversary_correct=bool(kfold) or removed, adversary_prediction=prediction,
                answered_by=by or None, aflite_predictability=state["p"],
                aflite_removed_in=state["removed_in"])


class AfliteVerdicts(beam.PTransform):
    """Rows (scored by the k-fold readers, or not scored yet) -> (rows with the AFLite
    verdict merged in, failures {"row", "error"}, counts). Rows the k-fold readers failed
    to score (adversary_correct None) pass through as they are."""

    def __init__(self, config: A.AfliteConfig):
        super().__init__()
        self.config = config

    def expand(self, rows):
        parts = rows | "FailedElsewhere" >> beam.Partition(
            lambda r, n: 1 if "adversary_correct" in r and r["adversary_correct"] is None
            else 0, 2)
        states, failures, counts = parts[0] | "Aflite" >> Aflite(self.config)
        verdicts = states | "Verdicts" >> beam.Map(verdict_row)
        return (verdicts, parts[1]) | "AllRows" >> beam.Flatten(), failures, counts
