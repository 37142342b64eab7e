"""AFLite in Beam (`models/aflite.py`): the queries featurized in parallel into a feature
store, then every iteration in ONE step that streams the store (`models/aflite_stream.py`).

    rows -> Featurize (errors out) -> (id, row) ; (shard, (id, example)) -> GroupByShard
         -> WriteShard (the store: DIR/filtered/_aflite/, removed when the stage ends)
    Once -> AFLite (side input: the shard urls; sample, heads, scores, plan per iteration)
         -> (id, verdict)
    (id, row) + (id, verdict) -> JoinVerdicts (CoGroupByKey) -> the row with its verdict

Why one step: unrolled as one step group per iteration (sample, heads as a side input of
the scoring, a histogram, the plan as a side input of the marking), 20 iterations made a
graph Flink's batch optimizer never finished compiling: it walks every path from the
sinks to the sources, and each iteration multiplied them (docs/usage.md, "Flink").
The AFLite step holds at most `train_queries` + BATCH_ROWS featurized queries (reported
as the `adversary` account's `max_rows_in_memory`), and four numbers per query; a
WriteShard call holds one shard (about SHARD_ROWS queries). Same input and settings, same
verdicts whatever the worker count or the shards: the sample, the partitions and the
removal order come from query-id hashes, and the heads train on one thread on the sample
in id order, as the in-memory reference `run_in_memory`.
"""
import logging

import apache_beam as beam

from models import aflite as A
from models import aflite_stream as S
from models.featurized import encode_example
from transforms.core import io_utils
from transforms.core.accounting import COUNTS, Count, StepFn, Uncounted

log = logging.getLogger(__name__)
STORE = "_aflite"          # under the stage's output folder, removed when the stage ends


def store_folder(output: str) -> str:
    return io_utils.join(output, STORE)


def remove_store(output: str) -> None:
    """The feature store of a run (or of a failed earlier one) in `output`, if any."""
    import fsspec
    fs, path = fsspec.core.url_to_fs(store_folder(output))
    if fs.exists(path):
        fs.rm(path, recursive=True)


class FeaturizeFn(beam.DoFn):
    """row -> (id, row), and (shard, (id, encoded example)) to `store`; a query no reader
    can score goes to `errors` with its reason."""
    ERRORS, STORE = "errors", "store"

    def process(self, row, shards):
        try:
            _, example = A.featurize(row)
        except ValueError as e:
            yield beam.pvalue.TaggedOutput(self.ERRORS, {"row": row, "error": str(e)[:2000]})
            return
        qid = row["id"]
        yield beam.pvalue.TaggedOutput(
            self.STORE, (S.shard_of(qid, shards), (qid, encode_example(example))))
        yield qid, row


class WriteShardFn(beam.DoFn):
    """(shard, [(id, example)]) -> the shard's url, once written."""

    def __init__(self, folder: str):
        self.folder = folder

    def process(self, item, shards):
        index, items = item
        url = io_utils.join(self.folder, S.shard_name(index, shards))
        S.write_shard(url, list(items))
        yield url


class AfliteFn(StepFn):
    """None -> (query id, verdict) of every query in the store's shards (side input),
    every iteration run here; the counts on the `adversary` account."""
    step = "adversary"

    def __init__(self, config: A.AfliteConfig):
        self.config = config

    def units(self, element) -> int:
        return 0

    def apply(self, _, shards):
        run = S.Streamed(sorted(shards), self.config)
        plans = run.run(log=log.info)
        for it, plan in enumerate(plans):
            if plan.get("too_few_queries"):
                yield Count(self.step, "aflite.too_few_queries", 1)
            yield Count(self.step, f"aflite.iteration{it:02d}.removed", plan["removed"])
            yield Count(self.step, f"aflite.iteration{it:02d}.eligible", plan["eligible"])
        yield Count(self.step, "max_rows_in_memory", run.peak)
        for verdict in run.verdicts():
            yield Uncounted(verdict)


def join_verdict(item):
    """(id, {"row": [row], "verdict": [verdict]}) -> the AFLite state of the row; a row
    without a verdict (never expected) fails to score with that reason."""
    _, group = item
    verdicts = list(group["verdict"])
    for row in group["row"]:
        if verdicts:
            yield dict(verdicts[0], row=row)
        else:
            yield beam.pvalue.TaggedOutput(
                FeaturizeFn.ERRORS, {"row": row, "error": "AFLite gave this query no verdict"})


class Aflite(beam.PTransform):
    """Candidate rows -> (states: {"row", "removed_in", "p", "prediction"} of every
    featurized query, errors: {"row", "error"}, counts on the `adversary` account).
    `store`: the folder of the feature store (see the module docstring)."""

    def __init__(self, config: A.AfliteConfig, store: str):
        super().__init__()
        self.config, self.store = config, store

    def expand(self, rows):
        shards = beam.pvalue.AsSingleton(
            rows | "Count" >> beam.combiners.Count.Globally()
            | "ShardCount" >> beam.Map(S.shard_count))
        feats = rows | "Featurize" >> beam.ParDo(FeaturizeFn(), shards).with_outputs(
            FeaturizeFn.ERRORS, FeaturizeFn.STORE, main="rows")
        urls = (feats[FeaturizeFn.STORE]
                | "GroupByShard" >> beam.GroupByKey()
                | "WriteShard" >> beam.ParDo(WriteShardFn(self.store), shards))
        verdicts = (rows.pipeline
                    | "Once" >> beam.Create([None])
                    | "AFLite" >> beam.ParDo(AfliteFn(self.config), beam.pvalue.AsList(urls))
                    .with_outputs(COUNTS, main="verdicts"))
        joined = ({"row": feats.rows, "verdict": verdicts.verdicts}
                  | "ByQuery" >> beam.CoGroupByKey()
                  | "JoinVerdicts" >> beam.FlatMap(join_verdict).with_outputs(
                      FeaturizeFn.ERRORS, main="states"))
        errors = ((feats[FeaturizeFn.ERRORS], joined[FeaturizeFn.ERRORS])
                  | "Errors" >> beam.Flatten())
        return joined.states, errors, verdicts[COUNTS]


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
    to score (adversary_correct None) pass through as they are. `store`: the folder of
    the feature store (`store_folder(output)`; `remove_store(output)` when done)."""

    def __init__(self, config: A.AfliteConfig, store: str):
        super().__init__()
        self.config, self.store = config, store

    def expand(self, rows):
        parts = rows | "FailedElsewhere" >> beam.Partition(
            lambda r, n: 1 if "adversary_correct" in r and r["adversary_correct"] is None
            else 0, 2)
        states, failures, counts = parts[0] | "Aflite" >> Aflite(self.config, self.store)
        verdicts = states | "Verdicts" >> beam.Map(verdict_row)
        return (verdicts, parts[1]) | "AllRows" >> beam.Flatten(), failures, counts
