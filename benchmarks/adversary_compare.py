"""The adversaries side by side on the same candidates (docs/adversary.md, "Choosing the
adversary"): for each, the share it answers (drops), what the shortcut baselines and the
held-out reader score on what it keeps against the candidates, and its CPU time.

    python -m benchmarks.adversary_compare --corpus cnn --workdir /tmp/cmp-cnn \
        [--transformer_steps 30] [--skip transformer] [--json out.json]

- Candidates: the generate job on the corpus (`benchmarks/adversary_corpora.py`: `cnn`,
  the real corpus every default was tuned on; `bbc`, BBC News with lede highlights, which
  nothing was tuned on).
- Adversaries, each run through its stage (in-process, `--workers 1`, `--balance none`):
  `lexical` and `transformer` k-fold readers (train_folds + adversarial_filter; the
  transformer's steps per fold bounded by --transformer_steps on CPU), `aflite`
  (adversarial_filter --adversary_kind aflite) and `lexical+aflite` (--adversary_kind
  kfold+aflite with the lexical folds: a query goes when either answers it; its CPU time
  is the lexical run's plus the aflite run's, as its own run reuses the lexical folds).
  Unions with the transformer are formed from the runs' verdicts (CPU: the sum of the
  parts). A finished run in the workdir (`cost-NAME.json` beside `filtered-NAME/`) is
  read back, not rerun.
- CPU time: user + system seconds of this process and its children around each stage
  run (getrusage), per 1,000 candidates; the machine was shared, so wall time is not used.
- For each adversary two kept sets: `plain` (every answered query dropped) and `drop`
  (then the default drop sampler, `balance.py`, on the same verdicts: unanswered queries
  of the over-represented stratum dropped until the most-frequent share is in 0.25-0.45).
- Scores on a set (official ReCoRD EM x100, 95% bootstrap CI over its queries, 1,000
  resamples): most frequent entity; query-only and passage-only baselines, cross-fitted by
  article fold (5 folds: trained on the set's other folds, so each set trains on its own
  queries, as the release's baselines train on its train split); the held-out reader
  (`models/embedding_reader.py`, frozen MiniLM similarity, untrained). The most-frequent
  share is `models/hardness.py`'s.
"""
import argparse
import json
import os
import resource
import time

import numpy as np

from transforms.core.io_utils import join, read_parquet

ADVERSARIES = ("lexical", "transformer", "aflite", "lexical+aflite")
UNIONS = (("lexical+transformer", ("lexical", "transformer")),
          ("transformer+aflite", ("transformer", "aflite")),
          ("lexical+transformer+aflite", ("lexical", "transformer", "aflite")))
BASELINES = ("most_frequent", "query_only", "passage_only", "reader")


def cpu_seconds() -> float:
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def timed(fn, *args):
    t0, w0 = cpu_seconds(), time.time()
    out = fn(*args)
    return out, cpu_seconds() - t0, time.time() - w0


def generate(corpus: str, workdir: str) -> str:
    from beam_pipelines import generate as gen
    from benchmarks.adversary_corpora import inputs
    out = join(workdir, "gen")
    if not os.path.exists(join(out, "candidates", "_MANIFEST.json")):
        argv = [a for p in inputs(corpus, workdir) for a in ("--input", p)]
        gen.run(argv + ["--output", out, "--workers", "1"])
    return join(out, "candidates")


def run_adversary(name: str, cands: str, workdir: str, steps: int) -> tuple:
    """({query id: answered}, CPU seconds, wall seconds) of one adversary's stage runs
    (a finished run in the workdir, `cost-NAME.json` beside its output, is read back)."""
    from beam_pipelines import adversarial_filter, train_folds
    out, cost_file = join(workdir, f"filtered-{name}"), join(workdir, f"cost-{name}.json")
    if os.path.exists(cost_file) and os.path.exists(join(out, "scored", "_MANIFEST.json")):
        with open(cost_file) as f:
            cost = json.load(f)
        rows = read_parquet(join(out, "scored", "*.parquet")).to_pylist()
        return ({r["id"]: bool(r["adversary_correct"]) for r in rows}, cost["cpu_s"],
                cost["wall_s"])
    cpu = wall = 0.0
    kind, model = {"lexical": ("kfold", "lexical"), "transformer": ("kfold", "transformer"),
                   "aflite": ("aflite", None), "lexical+aflite": ("kfold+aflite", "lexical")}[name]
    adv = join(workdir, f"adversary-{model}")
    if model:
        argv = ["--candidates", cands, "--output", adv, "--model", model, "--workers", "1"]
        if model == "transformer":
            argv += ["--max_steps", str(steps)]
        _, c, w = timed(train_folds.run, argv)
        cpu, wall = cpu + c, wall + w
    _, c, w = timed(adversarial_filter.run, [
        "--candidates", cands, "--adversary", adv, "--output", out, "--adversary_kind", kind,
        "--balance", "none", "--workers", "1"])
    rows = read_parquet(join(out, "scored", "*.parquet")).to_pylist()
    with open(cost_file, "w") as f:
        json.dump({"cpu_s": cpu + c, "wall_s": wall + w}, f)
    return {r["id"]: bool(r["adversary_correct"]) for r in rows}, cpu + c, wall + w


def drop_balanced(rows: list, answered: dict) -> list:
    """The rows the default drop sampler keeps of those the adversary did not answer."""
    from transforms.machine_filtering import balance as B
    from transforms.machine_filtering.config import FilterSettings
    s = FilterSettings()
    tally = B.BalanceTally(s.balance_salt)
    acc = tally.create_accumulator()
    for r in rows:
        acc = tally.add_input(acc, (B.row_stratum(dict(r, adversary_correct=answered[r["id"]])),
                                    answered[r["id"]], r["id"]))
    the_plan = B.plan(acc, s.most_frequent_share_min, s.most_frequent_share_max, s.balance)
    return [r for r in rows if not answered[r["id"]] and not B.drops(
        r, B.row_stratum(dict(r, adversary_correct=False)), the_plan, s.balance_salt)]


def bootstrap(values, n: int = 1000, seed: int = 0) -> dict:
    x = np.asarray(values, dtype=float)
    if not len(x):
        return {"n": 0, "em": None, "lo": None, "hi": None}
    means = x[np.random.default_rng(seed).integers(0, len(x), (n, len(x)))].mean(1)
    return {"n": len(x), "em": round(100 * x.mean(), 1),
            "lo": round(100 * float(np.percentile(means, 2.5)), 1),
            "hi": round(100 * float(np.percentile(means, 97.5)), 1)}


def crossfit(rows: list, name: str, k: int = 5) -> dict:
    """{query id: prediction} of baseline `name` trained on the set's other folds."""
    from models.baselines import Predictor, train
    from transforms.core.hashing import fold_of
    preds = {}
    for f in range(k):
        train_rows = [r for r in rows if fold_of(r["article_id"], k) != f]
        test = [r for r in rows if fold_of(r["article_id"], k) == f]
        if train_rows and test:
            p = Predictor(train(name, train_rows))
            preds.update((r["id"], p(r)) for r in test)
    return preds


def reader_predictions(rows: list, workdir: str) -> dict:
    """The held-out reader's prediction of every candidate (cached in the workdir)."""
    path = join(workdir, "reader.json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    from models.embedding_reader import SentenceCache, SentenceEncoder, predict
    enc = SentenceEncoder()
    cache = SentenceCache(enc)
    out = {r["id"]: predict(r, enc, cache) for r in sorted(rows, key=lambda r: r["passage_id"])}
    with open(path, "w") as f:
        json.dump(out, f)
    return out


def scores(rows: list, reader: dict, workdir=None) -> dict:
    """The baselines on `rows` (cached in the workdir by the set's query ids)."""
    import hashlib
    path = None
    if workdir:
        digest = hashlib.sha256("\n".join(sorted(r["id"] for r in rows)).encode()).hexdigest()
        path = join(workdir, "scores", digest[:24] + ".json")
        if os.path.exists(path):
            with open(path) as f:
                return json.load(f)
    out = _scores(rows, reader)
    if path:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump(out, f)
    return out


def _scores(rows: list, reader: dict) -> dict:
    from models import hardness as H
    em = lambda pred, r: H.record_scores(pred, r)[0]  # noqa: E731
    out = {"n": len(rows), "most_frequent_share": round(float(np.mean(
        [H.answer_is_most_frequent(r) for r in rows])), 3) if rows else None,
        "most_frequent": bootstrap([em(H.most_frequent_entity(r), r) for r in rows]),
        "reader": bootstrap([em(reader[r["id"]], r) for r in rows])}
    for name in ("query_only", "passage_only"):
        p = crossfit(rows, name)
        out[name] = bootstrap([em(p[r["id"]], r) for r in rows if r["id"] in p])
    return out


def compare(corpus: str, workdir: str, steps: int, skip=()) -> dict:
    os.makedirs(workdir, exist_ok=True)
    cands = generate(corpus, workdir)
    rows = sorted((r for r in read_parquet(join(cands, "*.parquet")).to_pylist()),
                  key=lambda r: r["id"])
    reader = reader_predictions(rows, workdir)
    verdicts, cost = {}, {}
    for name in ADVERSARIES:
        if name.split("+")[0] in skip or name in skip:
            continue
        verdicts[name], cpu, wall = run_adversary(name, cands, workdir, steps)
        cost[name] = {"cpu_s": round(cpu, 1), "wall_s": round(wall, 1)}
    if all(p in cost for p in ("lexical", "aflite", "lexical+aflite")):
        # its Beam run reused the lexical folds: count their training as the lexical run's
        cost["lexical+aflite"] = {k: round(cost["lexical"][k] + cost["aflite"][k], 1)
                                  for k in ("cpu_s", "wall_s")}
    for name, parts in UNIONS:
        if all(p in verdicts for p in parts):
            verdicts[name] = {i: any(verdicts[p][i] for p in parts) for i in verdicts[parts[0]]}
            cost[name] = {"cpu_s": round(sum(cost[p]["cpu_s"] for p in parts), 1),
                          "wall_s": round(sum(cost[p]["wall_s"] for p in parts), 1)}
    out = {"corpus": corpus, "candidates": scores(rows, reader, workdir),
           "transformer_steps": steps,
           "adversaries": {}}
    for name, answered in verdicts.items():
        plain = [r for r in rows if not answered[r["id"]]]
        balanced = drop_balanced(rows, answered)
        out["adversaries"][name] = {
            "answered_share": round(sum(answered.values()) / len(rows), 3),
            "cpu_s_per_1000": round(1000 * cost[name]["cpu_s"] / len(rows), 1),
            "wall_s": cost[name]["wall_s"],
            "plain": dict(scores(plain, reader, workdir),
                          drop_share=round(1 - len(plain) / len(rows), 3)),
            "drop": dict(scores(balanced, reader, workdir),
                         drop_share=round(1 - len(balanced) / len(rows), 3))}
    return out


def release_figures(run_dir: str, workdir: str) -> dict:
    """A build's release against its candidates, as the hardness report measures them
    (split of a candidate: its article's released split; query-only and passage-only
    trained on released train), with CIs, on dev+test; and the checks of issue 26: no
    released query an adversary answered, the filter's account saying so."""
    from models import hardness as H
    from models.baselines import Predictor, train
    scored = read_parquet(join(run_dir, "filtered", "scored", "*.parquet")).to_pylist()
    released = read_parquet(join(run_dir, "dataset", "*.parquet")).to_pylist()
    stats = json.load(open(join(run_dir, "filtered", "stats", "adversarial_filter.json")))
    split_of = {r["article_id"]: r["split"] for r in released}
    answered = {r["id"] for r in scored if r["adversary_correct"]}
    reader = reader_predictions(scored, workdir)
    train_rows = sorted((r for r in released if r["split"] == "train"), key=lambda r: r["id"])
    predictors = {n: Predictor(train(n, train_rows)) for n in ("query_only", "passage_only")}
    sets = {"candidates": [r for r in scored if split_of.get(r["article_id"]) in ("dev", "test")
                           and r["adversary_correct"] is not None],
            "released": [r for r in released if r["split"] in ("dev", "test")]}
    em = lambda pred, r: H.record_scores(pred, r)[0]  # noqa: E731
    out = {"released_queries": len(released), "candidate_queries": len(scored),
           "released_answered": len({r["id"] for r in released} & answered),
           "filter_summary": {k: stats["summary"].get(k) for k in (
               "answered", "readmitted", "kept_answered", "dropped_for_balance",
               "drop_share", "balance_drop_share", "most_frequent_share")},
           "released_most_frequent_share": round(float(np.mean(
               [H.answer_is_most_frequent(r) for r in released])), 3)}
    for name, rows in sets.items():
        out[name] = {"n": len(rows),
                     "most_frequent": bootstrap([em(H.most_frequent_entity(r), r) for r in rows]),
                     "reader": bootstrap([em(reader[r["id"]], r) for r in rows]),
                     **{n: bootstrap([em(p(r), r) for r in rows]) for n, p in predictors.items()}}
    return out


def _cell(d) -> str:
    return "-" if not d or d.get("em") is None else f"{d['em']:.1f} [{d['lo']:.1f}, {d['hi']:.1f}]"


def table(result: dict) -> str:
    """The markdown table of docs/adversary.md."""
    c = result["candidates"]
    lines = [f"{result['corpus']}: {c['n']:,} candidates (EM x100 [95% CI])", "",
             "| adversary | kept by | drop | MF share | most frequent | query only | "
             "passage only | held-out reader | CPU s / 1,000 |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|",
             f"| candidates | | 0% | {c['most_frequent_share']:.2f} | "
             + " | ".join(_cell(c[b]) for b in BASELINES) + " | |"]
    for name, a in result["adversaries"].items():
        for kept in ("plain", "drop"):
            k = a[kept]
            lines.append(f"| {name} | {kept} | {100 * k['drop_share']:.0f}% | "
                         f"{k['most_frequent_share']:.2f} | "
                         + " | ".join(_cell(k[b]) for b in BASELINES)
                         + f" | {a['cpu_s_per_1000']} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", choices=("cnn", "bbc"), default="cnn")
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--transformer_steps", type=int, default=30)
    ap.add_argument("--skip", action="append", default=[], choices=ADVERSARIES)
    ap.add_argument("--json")
    ap.add_argument("--release", help="a build's run folder: measure its release instead "
                    "(dev+test against their candidates; reader cache in --workdir)")
    a = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if a.release:
        result = release_figures(a.release, a.workdir)
        print(json.dumps(result, indent=1))
        if a.json:
            with open(a.json, "w") as f:
                json.dump(result, f, indent=1)
        return
    result = compare(a.corpus, a.workdir, a.transformer_steps, a.skip)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
    print(table(result))


if __name__ == "__main__":
    main()
