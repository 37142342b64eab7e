"""The hardness report's shortcut baselines out of fold on the WHOLE release (stats.json
`hardness.out_of_fold`, the card's primary shortcut check): released dev+test is too small
(about 50 queries on the corpora here, +/- 10-12 points) to read "each shortcut baseline
on released <= its candidates' figure + 2 points"; every released query is.

- Rows: every scored candidate of the articles with a released query (the report's
  `candidates` section), those released marked; without scored candidates the released
  rows stand for themselves.
- Out of fold: articles in `folds` folds by `stable_hash(article, "oof-<s>")`; for each
  fold the trained baselines (`models.baselines.fit`, seed `train_seed + s`) learn on the
  released queries of the other folds' articles and predict every row of the fold. Each of
  `fold_seeds` seeds gives every row one prediction; a row's EM is the mean over them.
  `most_frequent` needs no training: its EM is the plain rule's.
- Intervals: percentile bootstrap over articles (queries of one article are not
  independent), the same resampled articles for released and candidates, seeded.
- Cost: a row is featurized once (`features`: examples, gold masks, each candidate's EM);
  the trainings are independent (baseline, fold seed) jobs.
The functions are pure (unit-tested without Beam); `section` runs them in turn, and
`OutOfFold`, in hardness.py's graph, featurizes the rows in parallel and spreads the jobs
over the workers; `benchmarks/shortcut_oof.py` calls the same functions. Above
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


def features(row: dict):
    """What the check needs of a row, computed once however many folds and fold seeds train
    on or predict it: per trained baseline its example, gold mask and each candidate's EM,
    and the most-frequent rule's EM. None: a row no baseline can score (counted by the
    filter)."""
    from models import hardness as H
    from models.baselines import FEATURIZERS
    from models.features import check_query, correct_mask
    try:
        out = {"id": row["id"], "article_id": row["article_id"],
               "released": bool(row.get("released")),
               "most_frequent": H.record_scores(H.most_frequent_entity(row), row)[0]}
        check_query(row)
        for name in TRAINED:
            cands, example = FEATURIZERS[name](row)
            out[name] = {"example": example, "gold": correct_mask(row, cands),
                         "em": [H.record_scores(c.text, row)[0] for c in cands]}
    except ValueError:                       # models.features.ScoringError among them
        return None
    return out


def featurized(rows: list) -> list:
    """`features` of the scorable rows, id order."""
    return sorted((f for f in map(features, rows) if f is not None), key=lambda f: f["id"])


def fold_ems(feats: list, train_ids: set, name: str, folds: int, fold_seed: int,
             train_seed: int = 13) -> dict:
    """{row id: EM 0/1} of trained baseline `name` (`models.baselines.fit`, seed
    train_seed + fold_seed), trained per fold on the `train_ids` rows of the other folds'
    articles (id order) that have an answer among their candidates."""
    import torch

    from models.baselines import fit
    from models.batching import score_loop
    from models.training import Featurized
    feats = sorted(feats, key=lambda f: f["id"])
    fold = {f["article_id"]: fold_of(f["article_id"], folds, fold_seed) for f in feats}
    em = {}
    for k in range(folds):
        train = [f[name] for f in feats if f["id"] in train_ids
                 and fold[f["article_id"]] != k and any(f[name]["gold"])]
        model = fit(name, Featurized([t["example"] for t in train],
                                     [torch.tensor(t["gold"], dtype=torch.bool)
                                      for t in train], []), seed=train_seed + fold_seed)
        held = [f for f in feats if fold[f["article_id"]] == k]
        scores = score_loop(model, [f[name]["example"] for f in held])
        for f, sc in zip(held, scores):
            em[f["id"]] = f[name]["em"][int(torch.argmax(sc))]
    return em


def out_of_fold(rows: list, train_ids: set, name: str, folds: int, fold_seed: int,
                train_seed: int = 13, feats: list = None) -> dict:
    """`fold_ems` on rows (or on their `featurized` form, when given)."""
    return fold_ems(feats if feats is not None else featurized(rows), train_ids, name,
                    folds, fold_seed, train_seed)


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


def jobs(folds: int, fold_seeds: int) -> list:
    """The check's trainings as independent jobs: (baseline, fold seed), each `folds`
    trainings (the Beam step spreads them over workers)."""
    return [(name, s) for name in TRAINED for s in range(fold_seeds)]


def unfit(feats: list, folds: int):
    """Why the check cannot compare released with candidates, or None."""
    released = {f["id"] for f in feats if f["released"]}
    if released == {f["id"] for f in feats}:
        return ("no candidates beyond the released queries (no scored candidates in "
                "DIR/filtered/scored): nothing to compare them with")
    if not released or len({fold_of(f["article_id"], folds, 0) for f in feats}) < 2:
        return "fewer than two article folds hold a released query"
    return None


def run_job(job: tuple, feats: list, folds: int, train_seed: int) -> tuple:
    """(baseline, fold seed, {row id: EM}) of one job; {} when the check cannot run."""
    name, fold_seed = job
    if unfit(feats, folds):
        return name, fold_seed, {}
    with quiet_training():
        released = {f["id"] for f in feats if f["released"]}
        return name, fold_seed, fold_ems(feats, released, name, folds, fold_seed, train_seed)


def _cell(n: int, em, ci) -> dict:
    return {"n": n, "exact_match": em, "exact_match_ci95": ci, "readable": n >= 30}


def section(rows: list, folds: int = 5, fold_seeds: int = 10, train_seed: int = 13,
            replicates: int = REPLICATES, seed: int = SEED) -> dict:
    """stats.json `hardness.out_of_fold` from the rows (each with `released`: bool): per
    baseline released and candidates EM x100 with 95% intervals and their difference.
    The jobs run here one after another; the Beam step runs them on workers."""
    feats = featurized(rows)
    start = time.process_time()
    done = [run_job(j, feats, folds, train_seed) for j in jobs(folds, fold_seeds)]
    if done and not unfit(feats, folds):
        log.info("hardness: out of fold: %d rankers trained in %.1f s of CPU",
                 folds * len(done), time.process_time() - start)
    return assemble(feats, done, folds, fold_seeds, train_seed, replicates, seed)


def assemble(feats: list, done: list, folds: int, fold_seeds: int, train_seed: int,
             replicates: int = REPLICATES, seed: int = SEED) -> dict:
    """The section from the rows' `features` and the jobs' (baseline, fold seed, EMs): a
    trained baseline's EM of a row is its mean over the fold seeds."""
    feats = sorted(feats, key=lambda f: f["id"])
    rows = [{"id": f["id"], "article_id": f["article_id"]} for f in feats]
    released = {f["id"] for f in feats if f["released"]}
    ids = {f["id"] for f in feats}
    out = {"folds": folds, "fold_seeds": fold_seeds, "train_seed": train_seed,
           "bar_points": BAR,
           "interval": {"level": LEVEL, "method": "percentile bootstrap over articles, the "
                        "same draws for released and candidates", "replicates": replicates,
                        "seed": seed},
           "released": len(released), "candidates": len(ids),
           "articles": len({f["article_id"] for f in feats}), "baselines": {}}
    why = unfit(feats, folds)
    if why:
        out["reason"] = why
        return out
    ems = {"most_frequent": {f["id"]: f["most_frequent"] for f in feats}}
    per_seed = {}
    for name in TRAINED:
        runs = [em for n, _, em in sorted(done, key=lambda d: (d[0], d[1])) if n == name]
        per_seed[name] = [round(100 * float(np.mean([em[i] for i in sorted(released)])
                                            - np.mean([em[i] for i in sorted(ids)])), 1)
                          for em in runs]
        ems[name] = {i: sum(em[i] for em in runs) / len(runs) for i in sorted(ids)}
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
    (None when the setting turns it off) from the rows of the released articles (a sample
    by article hash above `hardness_oof_queries`): rows featurized in parallel, the
    (baseline, fold seed) trainings spread over the workers, the section on one."""

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
        cap, folds, seed = s.hardness_oof_queries, s.hardness_oof_folds, s.hardness_seed
        feats = (slim
                 | "OofSample" >> beam.Filter(
                     lambda r, n: in_sample(r["article_id"], n, cap),
                     beam.pvalue.AsSingleton(population))
                 | "OofFeaturize" >> beam.FlatMap(lambda r: [f] if (f := features(r)) else [])
                 | "OofFeaturesAsList" >> beam.combiners.ToList())
        done = (rows.pipeline
                | "OofJobs" >> beam.Create(jobs(folds, s.hardness_oof_fold_seeds))
                | "SpreadOofJobs" >> beam.Reshuffle()
                | "OofTrain" >> beam.Map(run_job, beam.pvalue.AsSingleton(feats), folds, seed))

        def report(feats, done, population):
            out = assemble(feats, done, folds, s.hardness_oof_fold_seeds, seed)
            out["sample"] = {"cap": cap, "released_in_release": population}
            return out
        return feats | "OutOfFoldSection" >> beam.Map(
            report, beam.pvalue.AsList(done), beam.pvalue.AsSingleton(population))
