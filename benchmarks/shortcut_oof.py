"""A build's trained shortcut baselines (passage-only, query-only) and the most-frequent rule
on ALL its released queries against ALL their candidates, with article-cluster 95% CIs
(docs/adversary.md, "Drop sampler"): the hardness report scores the trained baselines on
dev and test only (about 50-90 released queries on the corpora here, +/- 10 points), so a
"released minus candidates" there is within noise of any bar of a few points.

    python -m benchmarks.shortcut_oof RUN [--seeds 10] [--folds 5] [--random_drops 30]
        [--json out.json]

- Out of fold, the hardness report's protocol: articles in `--folds` folds by a seeded
  hash; for each fold a baseline (`models.baselines.fit`, the report's code, seed 13 +
  fold seed) is trained on the released queries of the other folds' articles and predicts
  every scored candidate of the fold's articles. Each of `--seeds` fold seeds gives every
  query one prediction; a query's EM is its mean over the seeds.
- Sets: `released` (dataset/), `candidates` (scored candidates of the articles with a
  released query, as the report's candidates section), `pre_balance` (what the release
  rules kept: released + the balance step's drops) and `balance_dropped`; the most-frequent
  strata (`models.hardness.stratum`).
- CIs: percentile bootstrap over the articles holding a query of either set (queries of
  one article are not independent), the same resamples for both sets of a difference.
- The fold training, prediction and bootstrap are finalize's own
  (transforms/finalize/report/hardness_oof.py): `released_vs_candidates` is stats.json
  `hardness.out_of_fold` of the same build (same folds and fold seeds); this adds the
  other sets, the strata and `--random_drops`.
- `--random_drops N`: the balance step's selection against chance: N times, the same
  number of queries per stratum dropped from `pre_balance` at random, the baseline retrained
  on what is left (one fold seed each), and released minus candidates measured the same way.
"""
import argparse
import collections
import json

import numpy as np

from transforms.core.io_utils import join, read_parquet
from transforms.finalize.report.hardness_oof import (
    cluster_diff,
    featurized,
    out_of_fold,
)

TRAINED = ("passage_only", "query_only")


def fates(run: str) -> tuple:
    """(scored rows, {id: fate}): fate released, balance_dropped, release_rejected,
    adversary_dropped or kept_not_released (in kept/, not in the release: dedupe)."""
    scored = [r for r in read_parquet(join(run, "filtered", "scored", "*.parquet")).to_pylist()
              if r["adversary_correct"] is not None]
    kept = set(read_parquet(join(run, "filtered", "kept", "*.parquet"), columns=["id"])
               .column("id").to_pylist())
    released = set(read_parquet(join(run, "dataset", "*.parquet"), columns=["id"])
                   .column("id").to_pylist())
    rej = read_parquet(join(run, "filtered", "rejected", "*.parquet"),
                       columns=["stage", "record_id"]).to_pylist()
    stage = {r["record_id"]: r["stage"] for r in rej}
    fate = {}
    for r in scored:
        i = r["id"]
        fate[i] = ("released" if i in released else "kept_not_released" if i in kept else
                   {"balance": "balance_dropped", "release": "release_rejected"}.get(
                       stage.get(i), "adversary_dropped"))
    return scored, fate


def measure(run: str, seeds: int = 10, folds: int = 5, random_drops: int = 0) -> dict:
    from models import hardness as H
    rows, fate = fates(run)
    feats = featurized(rows)
    by = collections.defaultdict(set)
    for i, f in fate.items():
        by[f].add(i)
    released = by["released"]
    arts = {r["article_id"] for r in rows if r["id"] in released}
    cands = {r["id"] for r in rows if r["article_id"] in arts}
    pre = released | by["balance_dropped"]
    left = pre | by["release_rejected"]          # what the adversary left
    strat = {r["id"]: H.stratum(r) for r in rows}
    out = {"run": run, "seeds": seeds, "folds": folds,
           "n": dict(sorted(collections.Counter(fate.values()).items()),
                     candidates_of_released_articles=len(cands)),
           "most_frequent_share": {k: round(float(np.mean([strat[i] == H.MOST_FREQUENT
                                                           for i in s])), 3)
                                   for k, s in (("candidates", cands), ("adversary_left", left),
                                                ("pre_balance", pre), ("released", released))
                                   if s}}
    ems = {"most_frequent": {r["id"]: H.record_scores(H.most_frequent_entity(r), r)[0]
                             for r in rows}}
    per_seed = collections.defaultdict(list)
    for name in TRAINED:
        mean = collections.defaultdict(float)
        for s in range(seeds):
            em = out_of_fold(rows, released, name, folds, s, feats=feats)
            per_seed[name].append(cluster_diff(rows, em, released, cands, reps=200)["diff"])
            for i, v in em.items():
                mean[i] += v / seeds
        ems[name] = dict(mean)
    for name, em in ems.items():
        res = {"released_vs_candidates": cluster_diff(rows, em, released, cands),
               "released_vs_pre_balance": cluster_diff(rows, em, released, pre),
               "pre_balance_vs_adversary_left": cluster_diff(rows, em, pre, left)}
        if by["balance_dropped"]:
            res["balance_dropped_vs_released"] = cluster_diff(rows, em, by["balance_dropped"],
                                                              released)
        for s in (H.MOST_FREQUENT, H.OTHER):
            res[f"stratum_{s}"] = cluster_diff(rows, em, released & {i for i in cands
                                                                       if strat[i] == s},
                                               {i for i in cands if strat[i] == s})
        if name in per_seed:
            res["diff_per_fold_seed"] = per_seed[name]
        out[name] = res
    if random_drops and by["balance_dropped"]:
        need = collections.Counter(strat[i] for i in by["balance_dropped"])
        pool = {s: sorted(i for i in pre if strat[i] == s) for s in need}
        diffs, kept_em = [], []
        for c in range(random_drops):
            rng = np.random.default_rng(1000 + c)
            drop = set()
            for s, n in sorted(need.items()):
                drop |= set(rng.choice(pool[s], size=n, replace=False).tolist())
            keep = pre - drop
            ka = {r["article_id"] for r in rows if r["id"] in keep}
            em = out_of_fold(rows, keep, "passage_only", folds, c, feats=feats)
            cd = cluster_diff(rows, em, keep, {r["id"] for r in rows if r["article_id"] in ka},
                              200)
            diffs.append(cd["diff"])
            kept_em.append(cd["a"])
        out["passage_only"]["random_drops"] = {
            "n": len(diffs), "diff_mean": round(float(np.mean(diffs)), 1),
            "diff_sd": round(float(np.std(diffs)), 1),
            "released_mean": round(float(np.mean(kept_em)), 1),
            "released_sd": round(float(np.std(kept_em)), 1),
            "at_least_actual": int(sum(d >= np.mean(per_seed["passage_only"])
                                       for d in diffs)),
            "diffs": diffs}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run", help="a build's run folder (filtered/ and dataset/)")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--random_drops", type=int, default=0)
    ap.add_argument("--json")
    a = ap.parse_args()
    result = measure(a.run, a.seeds, a.folds, a.random_drops)
    print(json.dumps(result, indent=1))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
