"""The hardness report's shortcut baselines out of fold on the WHOLE release (stats.json
`hardness.out_of_fold`, the card's primary shortcut check): released dev+test is too small
(about 50 queries on the corpora here, +/- 10-12 points) to read "each shortcut baseline
on released <= its candidates' figure + 2 points"; every released query is.

- Rows: every scored candidate of the articles with a released query (the report's
  `candidates` section), those released marked; without scored candidates the released
  rows stand for themselves.
- Out of fold: articles in `folds` folds by `stable_hash(article, "oof-<s>")`; for each
  fold the trained baselines (`models.baselines.train`, seed `train_seed + s`) learn on the
  released queries of the other folds' articles and predict every row of the fold. Each of
  `fold_seeds` seeds gives every row one prediction; a row's EM is the mean over them.
  `most_frequent` needs no training: its EM is the plain rule's.
- Intervals: percentile bootstrap over articles (queries of one article are not
  independent), the same resampled articles for released and candidates, seeded.
The functions are pure (unit-tested without Beam); `OutOfFold`, in hardness.py's graph,
collects the rows on one worker and calls `section`; `benchmarks/shortcut_oof.py` calls
the same functions. Above
`hardness_oof_queries` released queries a sample of articles by hash enters the check (its
cost grows with fold seeds x released queries: the baselines train folds x fold seeds x 2
times).
"""
import contextlib
import logging
import time

import apache_beam as beam
import numpy as np

from transforms.core.hashing import stable_hash

BASELINES = ("most_frequent", "query_only", "passage_only")   # models/baseline_catalog.py
TRAINED = ("query_only", "passage_only")
BAR = 2.0            # points: a shortcut on released at most its candidates' figure + BAR
REPLICATES, SEED, LEVEL = 2000, 0, 95
SCALE = 1_000_000
log = logging.getLogger(__name__)


@contextlib.contextmanager
def quiet_training():
    """The rankers' progress lines off while the check trains them folds x seeds x 2
    times (one summary line instead)."""
    logger = logging.getLogger("models.training")
    level = logger.level
    logger.setLevel(max(level, logging.WARNING))
    try:
        yield
    finally:
        logger.setLevel(level)


def fold_of(article_id: str, folds: int, fold_seed: int) -> int:
    return stable_hash(article_id, salt=f"oof-{fold_seed}") % folds


def cached(featurizer):
    """The featurizer with its (candidates, example) kept per row id (a row is featurized
    once however many folds and seeds train on or predict it)."""
    memo = {}

    def featurize(row):
        if row["id"] not in memo:
            memo[row["id"]] = featurizer(row)
        return memo[row["id"]]
    return featurize


def out_of_fold(rows: list, train_ids: set, name: str, folds: int, fold_seed: int,
                train_seed: int = 13, featurizer=None) -> dict:
    """{row id: EM 0/1} of trained baseline `name`, trained per fold on the `train_ids`
    rows of the other folds' articles (id order)."""
    import torch

    from models import hardness as H
    from models.baselines import FEATURIZERS, Predictor, train
    from models.batching import score_loop
    featurizer = featurizer or FEATURIZERS[name]
    fold = {r["article_id"]: fold_of(r["article_id"], folds, fold_seed) for r in rows}
    em = {}
    for f in range(folds):
        model = Predictor(train(name, sorted(
            (r for r in rows if r["id"] in train_ids and fold[r["article_id"]] != f),
            key=lambda r: r["id"]), seed=train_seed + fold_seed, featurizer=featurizer)).model
        held = [r for r in rows if fold[r["article_id"]] == f]
        feats = [featurizer(r) for r in held]
        scores = score_loop(model, [example for _, example in feats])
        for r, (cands, _), sc in zip(held, feats, scores):
            em[r["id"]] = H.record_scores(cands[int(torch.argmax(sc))].text, r)[0]
    return em


def cluster_diff(rows: list, em: dict, a: set, b: set, reps: int = REPLICATES,
                 seed: int = SEED) -> dict:
    """Mean EM x100 on id sets a and b and a - b, each with a 95% percentile interval from
    resampling the articles that hold a row of a or b (the same draws for both)."""
    arts = sorted({r["article_id"] for r in rows if r["id"] in a or r["id"] in b})
    at = {x: i for i, x in enumerate(arts)}
    sums = np.zeros((4, len(arts)))              # sum a, n a, sum b, n b per article
    for r in rows:
        for k, s in ((0, a), (2, b)):
            if r["id"] in s:
                sums[k, at[r["article_id"]]] += em[r["id"]]
                sums[k + 1, at[r["article_id"]]] += 1
    n_a, n_b = int(sums[1].sum()), int(sums[3].sum())
    if not n_a or not n_b:
        return {"a": None, "a_ci": None, "n_a": n_a, "b": None, "b_ci": None, "n_b": n_b,
                "diff": None, "diff_ci": None, "articles": len(arts)}
    w = np.random.default_rng(seed).multinomial(len(arts), [1 / len(arts)] * len(arts), reps)
    with np.errstate(invalid="ignore", divide="ignore"):   # a draw without a's articles
        ra, rb = (w @ sums[0]) / (w @ sums[1]), (w @ sums[2]) / (w @ sums[3])
    pa, pb = sums[0].sum() / n_a, sums[2].sum() / n_b
    tail = (100 - LEVEL) / 2

    def ci(x):
        return [round(100 * float(np.nanpercentile(x, q)), 1) for q in (tail, 100 - tail)]
    return {"a": round(100 * float(pa), 1), "a_ci": ci(ra), "n_a": n_a,
            "b": round(100 * float(pb), 1), "b_ci": ci(rb), "n_b": n_b,
            "diff": round(100 * float(pa - pb), 1), "diff_ci": ci(ra - rb),
            "articles": len(arts)}


def scorable(rows: list) -> list:
    """The rows every baseline can score (the others are counted by the filter), id order."""
    from models import hardness as H
    from models.features import check_query
    out = []
    for r in sorted(rows, key=lambda r: r["id"]):
        try:
            H.most_frequent_entity(r)
            check_query(r)
        except ValueError:
            continue
        out.append(r)
    return out


def baseline_ems(rows: list, released: set, folds: int, fold_seeds: int,
                 train_seed: int) -> tuple:
    """({baseline: {row id: EM}}, {trained baseline: [released - candidates per fold
    seed]}): EM a mean over the fold seeds for the trained baselines."""
    from models import hardness as H
    from models.baselines import FEATURIZERS
    ems = {"most_frequent": {r["id"]: H.record_scores(H.most_frequent_entity(r), r)[0]
                             for r in rows}}
    ids = {r["id"] for r in rows}
    per_seed = {}
    for name in TRAINED:
        featurizer = cached(FEATURIZERS[name])
        mean = dict.fromkeys(sorted(ids), 0.0)
        per_seed[name] = []
        for s in range(fold_seeds):
            em = out_of_fold(rows, released, name, folds, s, train_seed, featurizer)
            per_seed[name].append(round(100 * float(np.mean([em[i] for i in sorted(released)])
                                                     - np.mean([em[i] for i in sorted(ids)])),
                                        1))
            for i, v in em.items():
                mean[i] += v
        ems[name] = {i: v / fold_seeds for i, v in mean.items()}
    return ems, per_seed


def _cell(n: int, em, ci) -> dict:
    return {"n": n, "exact_match": em, "exact_match_ci95": ci, "readable": n >= 30}


def section(rows: list, folds: int = 5, fold_seeds: int = 10, train_seed: int = 13,
            replicates: int = REPLICATES, seed: int = SEED) -> dict:
    """stats.json `hardness.out_of_fold` from the rows (each with `released`: bool): per
    baseline released and candidates EM x100 with 95% intervals and their difference."""
    rows = scorable(rows)
    released = {r["id"] for r in rows if r["released"]}
    ids = {r["id"] for r in rows}
    out = {"folds": folds, "fold_seeds": fold_seeds, "train_seed": train_seed,
           "bar_points": BAR,
           "interval": {"level": LEVEL, "method": "percentile bootstrap over articles, the "
                        "same draws for released and candidates", "replicates": replicates,
                        "seed": seed},
           "released": len(released), "candidates": len(ids),
           "articles": len({r["article_id"] for r in rows}), "baselines": {}}
    if released == ids:
        out["reason"] = ("no candidates beyond the released queries (no scored candidates in "
                         "DIR/filtered/scored): nothing to compare them with")
        return out
    if not released or len({fold_of(r["article_id"], folds, 0) for r in rows}) < 2:
        out["reason"] = "fewer than two article folds hold a released query"
        return out
    start = time.process_time()
    with quiet_training():
        ems, per_seed = baseline_ems(rows, released, folds, fold_seeds, train_seed)
    log.info("hardness: out of fold: %d released and %d candidate queries of %d articles, "
             "%d rankers trained in %.1f s of CPU", len(released), len(ids), out["articles"],
             folds * fold_seeds * len(TRAINED), time.process_time() - start)
    for name in BASELINES:
        d = cluster_diff(rows, ems[name], released, ids, replicates, seed)
        cell = {"released": _cell(d["n_a"], d["a"], d["a_ci"]),
                "candidates": _cell(d["n_b"], d["b"], d["b_ci"]),
                "difference": d["diff"], "difference_ci95": d["diff_ci"],
                "within_bar": bool(d["diff"] is not None and d["diff"] <= BAR)}
        if name in per_seed:
            cell["difference_per_fold_seed"] = per_seed[name]
        out["baselines"][name] = cell
    return out


def in_sample(article_id: str, population: int, cap: int) -> bool:
    """Whether an article's rows enter the out-of-fold check: all when the release holds at
    most `cap` queries (or cap is 0), else a sample of about `cap` by article hash."""
    if not cap or population <= cap:
        return True
    return stable_hash(article_id, salt="oof") % SCALE < SCALE * cap // population


ROW_COLUMNS = ("id", "article_id", "passage", "entities", "query", "answers")


def oof_row(item) -> list:
    """(row, split, fate) from hardness.fates -> [the row's columns the baselines read,
    with `released`], or [] for a candidate of an article with no released query."""
    row, split, fate = item
    if split is None:
        return []
    return [dict({k: row[k] for k in ROW_COLUMNS}, released=fate == "released")]


class OutOfFold(beam.PTransform):
    """hardness.fates' (row, split, fate) -> one stats.json `hardness.out_of_fold` dict
    (None when the setting turns it off), computed on one worker from the rows of the
    released articles (a sample by article hash above `hardness_oof_queries`)."""

    def __init__(self, settings):
        super().__init__()
        self.settings = settings

    def expand(self, rows):
        s = self.settings
        if not s.hardness_out_of_fold:
            return rows.pipeline | "NoOutOfFold" >> beam.Create([None])
        slim = rows | "OofRows" >> beam.FlatMap(oof_row)
        population = (slim | "OofReleased" >> beam.Filter(lambda r: r["released"])
                      | "CountReleased" >> beam.combiners.Count.Globally())
        cap = s.hardness_oof_queries

        def report(rows, population):
            out = section(rows, s.hardness_oof_folds, s.hardness_oof_fold_seeds,
                          s.hardness_seed)
            out["sample"] = {"cap": cap, "released_in_release": population}
            return out
        return (slim
                | "OofSample" >> beam.Filter(
                    lambda r, n: in_sample(r["article_id"], n, cap),
                    beam.pvalue.AsSingleton(population))
                | "OofRowsOnOneWorker" >> beam.combiners.ToList()
                | "OutOfFoldSection" >> beam.Map(report, beam.pvalue.AsSingleton(population)))
