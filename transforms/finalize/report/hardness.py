"""The hardness report of finalize: how well shortcuts and a held-out reader answer the
candidates, the queries the filter dropped and the released ones, per split.

    (scored candidates | kept | released) -> CoGroupByKey on article -> each candidate
    with its article's split and its fate (released, kept, dropped) -> ScoreBaselines
    (side input: the baselines trained on released train) -> per (baseline, split,
    section): n, means and 95% bootstrap intervals (bootstrap.py: Poisson weights seeded by
    query id, fixed-size accumulators) -> one dict, stats.json `hardness`.

Baselines (models/): `most_frequent` (models.hardness), `query_only` and `passage_only`
(models.baselines, trained on the released train split, so scored on dev and test
only), `reader` (models.embedding_reader: frozen MiniLM, dev and test; scored through
RunInference one passage at a time, models/reader_handler.py; the default filter, lexical
fold readers and AFLite over shortcut and lexical features, never uses MiniLM: the
`transformer` fold readers, an option, are fine-tuned from it). Each is scored with the
official ReCoRD EM/F1 (record_metric). A candidate's split is the split of its
article's released queries; candidates of articles with none count in `overall` only.
One grouping holds one article's rows; training holds at most `hardness_train_queries`.
`out_of_fold` (hardness_oof.py): the shortcut baselines out of fold on every released query.
"""
import typing

import apache_beam as beam

from models import hardness as H
from models.baseline_catalog import REPORT, definitions
from transforms.core.constants import OVERALL
from transforms.core.hashing import stable_hash
from transforms.finalize.report import bootstrap

BASELINES = REPORT
TRAINED = ("query_only", "passage_only")
SECTIONS = ("candidates", "dropped", "released")
SHARE, ANSWERED = "most_frequent_share", "adversary_answered"   # 0/1 per query, not baselines
AGREE = "passage_only_agrees"    # passage_only predicts the most_frequent text (0/1)


def fates(item):
    """(article, {cand, kept, released}) -> (row, split, fate) for each candidate. Without
    scored candidates (`cand` empty) the released rows stand for themselves."""
    _, parts = item
    released = list(parts["released"])
    split = released[0]["split"] if released else None
    released_ids = {r["id"] for r in released}
    kept_ids = {r["id"] for r in parts["kept"]}
    cands = list(parts["cand"]) or released
    for row in cands:
        if row.get("adversary_correct", False) is None:
            continue                                  # failed to score: in errors/
        fate = ("released" if row["id"] in released_ids else
                "kept" if row["id"] in kept_ids else "dropped")
        yield row, split, fate


def cells(name: str, split, fate: str, qid: str, values: tuple):
    """The bootstrap inputs of one value: ((name, where, section), (query id, values)) for
    the split and `overall`, the `candidates` section and the query's fate section."""
    sections = ("candidates",) + ((fate,) if fate in ("dropped", "released") else ())
    for w in ((split, OVERALL) if split else (OVERALL,)):
        for section in sections:
            yield (name, w, section), (qid, values)


class ScoreBaselines(beam.DoFn):
    """(row, split, fate) -> ((baseline, split, section), (query id, (EM, F1))),
    ((SHARE, split, section), (query id, (hit,))) and ((ANSWERED, split, section), (query
    id, (answered,))); `overall` holds every split. The query id seeds its bootstrap
    weights (bootstrap.py). The held-out reader is scored apart (`ScoreReader`)."""

    def predictions(self, row: dict, split, trained) -> dict:
        """{baseline: predicted text} (dev and test get every baseline)."""
        from models.baselines import Predictor
        preds = {"most_frequent": H.most_frequent_entity(row)}
        if split in ("dev", "test"):
            if self._predictors is None:
                self._predictors = {t["name"]: Predictor(t) for t in trained}
            for name, p in self._predictors.items():
                preds[name] = p(row)
        return preds

    def process(self, item, trained):
        row, split, fate = item
        qid = row["id"]
        try:
            preds = self.predictions(row, split, trained)
            hit = H.answer_is_most_frequent(row)
        except ValueError:                           # not scorable (counted by the filter)
            preds, hit = {}, None
        values = {name: H.record_scores(pred, row) for name, pred in preds.items()}
        if hit is not None:
            values[SHARE] = (float(hit),)
        if "passage_only" in preds:
            values[AGREE] = (float(preds["passage_only"] == preds["most_frequent"]),)
        answered = row.get("adversary_correct")
        if answered is not None:
            values[ANSWERED] = (float(bool(answered)),)
        for name, v in values.items():
            yield from cells(name, split, fate, qid, v)
        if fate == "released" and hit is not None:
            m, c = H.passage_counts(row)
            yield beam.pvalue.TaggedOutput("passages", ((split, row["passage_id"]), (m, c)))

    _predictors = None


READER = "reader"


SAMPLE_SCALE = 1_000_000


def in_reader_sample(qid: str, population: int, cap: int) -> bool:
    """Whether the reader scores this candidate: all of them when the split holds at most
    `cap` (or cap is 0), else a sample of about `cap` by query-id hash (the same whatever
    the workers)."""
    if not cap or population <= cap:
        return True
    return stable_hash(qid, salt="reader") % SAMPLE_SCALE < SAMPLE_SCALE * cap // population


def reader_passages(item, populations=None, cap=0):
    """(article, {cand, kept, released}) -> one (passage id, [(row, split, fate), ...]) per
    passage of the article's dev and test candidates in the reader's sample
    (`populations`: {split: candidates}), rows in id order (a passage belongs to one
    article, so no further grouping is needed)."""
    by_passage = {}
    for row, split, fate in fates(item):
        if split in ("dev", "test") and in_reader_sample(
                row["id"], (populations or {}).get(split, 0), cap):
            by_passage.setdefault(row["passage_id"], []).append((row, split, fate))
    for pid in sorted(by_passage):
        yield pid, sorted(by_passage[pid], key=lambda t: t[0]["id"])


def reader_cells(keyed):
    """(fates, PredictionResult((passage id, rows), [prediction])) -> the reader's bootstrap
    inputs; a row the reader cannot score (None) gets none, as before."""
    fates_, result = keyed
    (_, rows), preds = result.example, result.inference
    for row, (split, fate), pred in zip(rows, fates_, preds):
        if pred is not None:
            yield from cells(READER, split, fate, row["id"], H.record_scores(pred, row))


class ScoreReader(beam.PTransform):
    """Article groups -> the held-out reader's bootstrap inputs, through RunInference
    (models/reader_handler.py): one element per passage, batched across its queries."""

    def __init__(self, cap: int = 0, handler=None):
        super().__init__()
        self.cap, self.handler = cap, handler

    def expand(self, inputs):
        from apache_beam.ml.inference.base import KeyedModelHandler, RunInference

        from models.reader_handler import PassageReaderHandler
        by_article, populations = inputs
        handler = KeyedModelHandler(self.handler or PassageReaderHandler())
        return (by_article
                | "Passages" >> beam.FlatMap(reader_passages, beam.pvalue.AsDict(populations),
                                             self.cap)
                | "KeyByFates" >> beam.Map(_keyed_by_fates)
                | "RunInference" >> RunInference(handler)
                | "Cells" >> beam.FlatMap(reader_cells))


def _keyed_by_fates(item):
    """(passage id, [(row, split, fate)]) -> ([(split, fate)], (passage id, [row])): the
    handler sees the rows, the key carries each row's split and fate through."""
    pid, items = item
    return [(split, fate) for _, split, fate in items], (pid, [row for row, _, _ in items])


def _sum3(values):
    n = em = f1 = 0
    for a, b, c in values:
        n, em, f1 = n + a, em + b, f1 + c
    return n, em, f1


def _pct(x: float) -> float:
    return round(100 * x, 2)


def cell(summary: dict, names: tuple, percent: bool) -> dict:
    """One report cell from a bootstrap summary: n, each value and its 95% interval, and
    `readable` (n >= bootstrap.MIN_READABLE_N; the card shows smaller cells as too small)."""
    scale = _pct if percent else (lambda x: round(x, 4))
    out = {"n": summary["n"]}
    for name, mean, (lo, hi) in zip(names, summary["mean"], summary["ci"]):
        out[name] = scale(mean)
        out[f"{name}_ci95"] = [scale(lo), scale(hi)]
    out["readable"] = bootstrap.readable(summary["n"])
    return out


def report(cells: list, passages: list, trained: list, populations=None,
           reader_cap: int = 0) -> dict:
    """The stats.json `hardness` dict from the per-cell bootstrap summaries (see
    docs/finalize.md)."""
    base, shares, answered, agree = {}, {}, {}, {}
    for (name, where, section), summary in sorted(cells, key=lambda kv: kv[0]):
        if name == SHARE:
            shares.setdefault(where, {})[section] = cell(summary, ("share",), False)
        elif name == AGREE:
            agree.setdefault(where, {})[section] = cell(summary, ("share",), False)
        elif name == ANSWERED:
            c = cell(summary, ("share",), False)
            c["answered"] = int(round(summary["sum"][0]))
            answered.setdefault(where, {})[section] = c
        else:
            base.setdefault(name, {}).setdefault(where, {})[section] = cell(
                summary, ("exact_match", "f1"), True)
    per_split = {}
    for split, m, c, n in sorted(passages):   # one order whatever the workers
        per_split[split] = {"passages": n, "entities_per_passage": round(m / n, 1),
                            "clusters_per_passage": round(c / n, 1)}
    from transforms.finalize.report.record_reference import RECORD_REFERENCE
    return {"baselines": base, "definitions": definitions(sorted(base)),
            "most_frequent_share": shares, "adversary_answered": answered,
            "passage_only_agrees": agree,
            "passages": per_split,
            "trained_on": {t["name"]: t["queries"] for t in trained},
            "reader_sample": {"cap_per_split": reader_cap, "candidates": dict(
                sorted((populations or {}).items()))},
            "interval": {"level": bootstrap.LEVEL, "method": "Poisson bootstrap, percentile",
                         "replicates": bootstrap.REPLICATES, "seed": bootstrap.SEED,
                         "min_readable_n": bootstrap.MIN_READABLE_N},
            "record": RECORD_REFERENCE}


class Hardness(beam.PTransform):
    """(released rows, kept rows, scored candidates) -> one `hardness` dict."""

    def __init__(self, settings):
        super().__init__()
        self.settings = settings

    def expand(self, inputs):
        released, kept, scored = inputs
        s = self.settings
        p = released.pipeline
        by_article = {
            "released": released | "ReleasedByArticle" >> beam.Map(lambda r: (r["article_id"], r)),
            "kept": kept | "KeptByArticle" >> beam.Map(lambda r: (r["article_id"], {"id": r["id"]})),
            "cand": scored | "CandidatesByArticle" >> beam.Map(lambda r: (r["article_id"], r))}
        joined = by_article | "JoinArticle" >> beam.CoGroupByKey()
        rows = joined | "Fates" >> beam.FlatMap(fates)
        trained = (released
                   | "TrainRows" >> beam.Filter(lambda r: r["split"] == "train")
                   | "CapTrain" >> beam.combiners.Top.Of(
                       s.hardness_train_queries,
                       key=lambda r: -stable_hash(r["id"], salt="hardness"))
                   | "TrainBaselines" >> beam.FlatMap(lambda train: train_all(train, s)))
        scored_out = rows | "ScoreBaselines" >> beam.ParDo(
            ScoreBaselines(), beam.pvalue.AsList(trained)).with_output_types(
                typing.Tuple[typing.Any, typing.Any]).with_outputs("passages", main="main")
        values = scored_out.main
        populations = (rows
                       | "DevTestRows" >> beam.FlatMap(
                           lambda t: [(t[1], 1)] if t[1] in ("dev", "test") else [])
                       | "ReaderPopulation" >> beam.CombinePerKey(sum))
        if s.hardness_reader:
            from models.reader_handler import reader_handler
            reader = (joined, populations) | "ScoreReader" >> ScoreReader(
                s.hardness_reader_queries,
                reader_handler(precision=s.hardness_reader_precision))
            values = (values, reader) | "AllValues" >> beam.Flatten()
        sums = (values
                | "Bootstrap" >> beam.CombinePerKey(bootstrap.BootstrapMean())
                | "Scores" >> beam.combiners.ToList())
        passages = (scored_out.passages
                    | "DistinctPassages" >> beam.Distinct()
                    | "PassageSplit" >> beam.Map(lambda kv: (kv[0][0], (kv[1][0], kv[1][1], 1)))
                    | "SumPassages" >> beam.CombinePerKey(_sum3)
                    | "PassageTuples" >> beam.Map(lambda kv: (kv[0],) + tuple(kv[1]))
                    | "Passages" >> beam.combiners.ToList())
        from transforms.finalize.report.hardness_oof import OutOfFold
        oof = rows | "OutOfFold" >> OutOfFold(s)           # stats.json hardness.out_of_fold
        return (p | "OnceHardness" >> beam.Create([None])
                | "HardnessReport" >> beam.Map(
                    lambda _, sums, passages, trained, pops, oof: dict(reader_precision(report(
                        sums, passages, trained, pops, s.hardness_reader_queries),
                        s.hardness_reader_precision if s.hardness_reader else None),
                        out_of_fold=oof),
                    beam.pvalue.AsSingleton(sums), beam.pvalue.AsSingleton(passages),
                    beam.pvalue.AsList(trained), beam.pvalue.AsDict(populations),
                    beam.pvalue.AsSingleton(oof)))


def reader_precision(rep: dict, setting) -> dict:
    """stats.json `hardness.reader_sample.precision`: the reader's arithmetic as this worker
    resolves the setting (`auto`: bf16 on a CPU with native bfloat16), None without reader."""
    from models.embedding_reader import resolve_precision
    rep["reader_sample"]["precision"] = resolve_precision(setting) if setting else None
    return rep


def read_scored(p, filtered: str, present: bool = True):
    """The filter's scored candidates (DIR/filtered/scored); `present=False` where there are
    none (a kept folder made by hand): the report then covers the released queries only.
    Nothing is listed here, so the graph builds without reading (dry runs)."""
    from transforms.core import io_utils
    if not present:
        return p | "NoScored" >> beam.Create([])
    return p | "ReadScored" >> beam.io.ReadFromParquet(
        io_utils.join(filtered, "scored", "*.parquet"), columns=list(SCORED_COLUMNS),
        validate=False)


SCORED_COLUMNS = ("id", "passage_id", "article_id", "passage", "entities", "query", "answers",
                  "adversary_correct")


def train_all(train_rows: list, settings) -> list:
    """Both partial-input baselines fitted on the (capped) released train rows, id order."""
    from models.baselines import train
    rows = sorted(train_rows, key=lambda r: r["id"])
    return [train(name, rows, seed=settings.hardness_seed) for name in TRAINED]
