"""Human performance from the validation answers (ReCoRD sections 3.4 and 5.2), per split:
stats.json `human_performance`, the card's section (human_card.py) and the explorer's.

Which answers count (as ReCoRD measured its 91.3 EM / 91.7 F1):
- **released**: per released query, ONE answer: its first held-out answer, i.e. the first
  answer (by submission time) of a worker who was not blocked, after the `verdict_answers`
  that decided its verdict (ReCoRD: two workers decided, "an additional worker answer"
  measured). Queries human filtering dropped are not released and not scored; queries a
  worker ticked "not obvious" stay when their verdict passed, and are scored.
- **validated** (before human filtering): per answered query, its first counted answer.
Each is scored against the query's generated answers with the official ReCoRD metric
(x100); 95% CIs are percentile bootstraps over queries (`HumanConfig`). A query's split
is its own when released, else its article's (if any query of the article is released;
else it counts in `overall` only), as in the hardness report.

Agreement: over pairs of counted answers to one query, the share that chose the same
entity (both a generated answer, or the same normalised text). Could not answer: a
counted worker ticked "not obvious". Answered differently: an answer that decided the
verdict is not a generated answer. Dropped: the verdict is `none`.

Reads, in the driver: DIR/validated/{answers.jsonl,validated.jsonl,summary.json} (human
scale), the kept rows of the answered queries and the released ids, in record batches.
"""
import collections
import dataclasses

import fsspec
import numpy as np

from transforms.core import io_utils, safejson
from transforms.core import record_metric as M
from transforms.core.config import setting
from transforms.core.constants import OVERALL, SPLITS
from transforms.human_filtering import answers as A
from transforms.human_filtering.worker_quality import HELDOUT, VERDICT

NOT_MEASURED = "no human performance measured"
#: ReCoRD's own figures (the paper), printed beside ours.
RECORD = {
    "human": {"dev": [91.28, 91.64], "test": [91.31, 91.69]},
    "human_source": "ReCoRD paper, Table 4: an additional worker's answer per dev/test query",
    "first_answer_correct": 0.5, "first_answer_source":
        "ReCoRD 3.4: workers answered 122k of the 244k triples correctly",
    "dev_test_dropped": 0.091, "dev_test_source":
        "ReCoRD 3.4: 20k of 22k dev/test triples answered correctly by both workers",
    "workers": "2,257 (51 blocked)",
}


@dataclasses.dataclass(frozen=True)
class HumanConfig:
    resamples: int = setting(1000, "bootstrap resamples of the queries")
    confidence: float = setting(0.95, "confidence of the intervals")
    seed: int = setting(0, "bootstrap seed")


def bootstrap(units: list, ratio: bool, cfg: HumanConfig) -> list:
    """Percentile interval(s) of the mean of `units` (tuples: one value per figure) over
    resampled units, or with `ratio` of sum(first) / sum(second). Resampling n units is a
    multinomial draw over the distinct units, so memory is bounded by distinct values."""
    if not units:
        return []
    counts = collections.Counter(units)
    values = np.array(list(counts), dtype=float)
    probs = np.array(list(counts.values()), dtype=float) / len(units)
    rng = np.random.Generator(np.random.PCG64(cfg.seed))
    sums = rng.multinomial(len(units), probs, size=cfg.resamples) @ values
    stats = sums[:, :1] / sums[:, 1:2] if ratio else sums / len(units)
    tail = 100 * (1 - cfg.confidence) / 2
    lo, hi = np.percentile(stats, [tail, 100 - tail], axis=0)
    return [[round(float(a), 4), round(float(b), 4)] for a, b in zip(lo, hi)]


def score(answer: str, golds: list) -> tuple:
    """(EM, F1) of one answer, the official metric (0 / 1 each)."""
    return (M.max_over_golds(M.exact_match_score, answer, golds),
            M.max_over_golds(M.f1_score, answer, golds))


def scores(pairs: list, cfg: HumanConfig) -> dict:
    """EM / F1 (x100) of per-query (EM, F1) pairs with their CIs."""
    if not pairs:
        return {"n": 0, "exact_match": None, "f1": None}
    (em_lo, em_hi), (f1_lo, f1_hi) = bootstrap(pairs, False, cfg)
    n = len(pairs)
    return {"n": n, "exact_match": round(100 * sum(p[0] for p in pairs) / n, 2),
            "f1": round(100 * sum(p[1] for p in pairs) / n, 2),
            "exact_match_ci": [round(100 * em_lo, 2), round(100 * em_hi, 2)],
            "f1_ci": [round(100 * f1_lo, 2), round(100 * f1_hi, 2)]}


def same_entity(a: dict, b: dict) -> bool:
    return (a["em"] == 1 and b["em"] == 1) or \
        M.normalize_answer(a["answer"]) == M.normalize_answer(b["answer"])


def agreement(per_query: dict, cfg: HumanConfig) -> dict:
    """Pairwise agreement over queries with two or more counted answers."""
    units = []
    for recs in per_query.values():
        if len(recs) > 1:
            pairs = [(a, b) for i, a in enumerate(recs) for b in recs[i + 1:]]
            units.append((sum(same_entity(a, b) for a, b in pairs), len(pairs)))
    if not units:
        return {"queries": 0, "pairs": 0, "share": None}
    agree, pairs = sum(u[0] for u in units), sum(u[1] for u in units)
    (lo, hi), = bootstrap(units, True, cfg)
    return {"queries": len(units), "pairs": pairs, "share": round(agree / pairs, 4),
            "ci": [lo, hi]}


def _share(hits: int, n: int) -> dict:
    return {"n": n, "queries": hits, "share": round(hits / n, 4) if n else None}


def _batches(pattern: str, columns):
    """Rows of the Parquet files matching `pattern` (sorted paths), a batch at a time."""
    import pyarrow.parquet as pq
    for path in sorted(io_utils.glob(pattern)):
        with fsspec.open(path, "rb") as f:
            reader = pq.ParquetFile(f)
            for batch in reader.iter_batches(batch_size=256, columns=columns, use_threads=False):
                yield from batch.to_pylist()


def read_kept(filtered: str, ids: set) -> dict:
    """{query id: (article id, generated answer texts, most-frequent prediction, random
    expected (EM, F1))} of the answered kept queries."""
    from models.hardness import most_frequent_entity
    out = {}
    cols = ["id", "article_id", "passage", "entities", "answers"]
    for row in _batches(io_utils.join(filtered, "kept", "*.parquet"), cols):
        if row["id"] in ids and row["id"] not in out:
            golds = [a["text"] for a in row["answers"]]
            mentions = [row["passage"][e["start"]:e["end"]] for e in row["entities"]]
            rnd = M.expected_random_scores({row["id"]: mentions}, {row["id"]: golds})
            out[row["id"]] = (row["article_id"], golds, most_frequent_entity(row),
                              (rnd["exact_match"] / 100, rnd["f1"] / 100))
    return out


def read_released(dataset_dir: str, ids: set, articles: set) -> tuple:
    """({answered query id: split}, {article id: split}) of the released queries."""
    queries, by_article = {}, {}
    for split in SPLITS:
        for row in _batches(io_utils.join(dataset_dir, f"{split}-*.parquet"),
                            ["id", "article_id"]):
            if row["id"] in ids:
                queries[row["id"]] = split
            if row["article_id"] in articles:
                by_article.setdefault(row["article_id"], split)
    return queries, by_article


def not_measured(reason: str) -> dict:
    return {"measured": False, "reason": f"{NOT_MEASURED}: {reason}"}


def measure(dataset_dir: str, validated: str | None, filtered: str,
            cfg: HumanConfig = HumanConfig()) -> dict:
    """stats.json `human_performance` of a written release (module docstring)."""
    if not validated:
        return not_measured("this build has no human-validation results (build --results "
                            "RESULTS, or finalize --validated DIR/validated)")
    path = A.path_of(validated)
    if path is None:
        return not_measured("the verdicts carry no answers.jsonl (written by "
                            "`human_validation ingest`)")
    try:
        recs = [r for r in A.read(path) if r["rank"] is not None]
    except ValueError as err:
        return not_measured("answers.jsonl is unreadable (%s)"      # no local path in stats
                            % str(err).replace(path, "answers.jsonl"))
    if not recs:
        return not_measured("no counted answer in answers.jsonl")
    base = path[:-len(A.FILE)]
    verdicts = {}
    if io_utils.glob(base + "validated.jsonl"):
        with fsspec.open(base + "validated.jsonl", "r", encoding="utf-8") as f:
            verdicts = {v["id"]: v for v in map(safejson.loads, filter(str.strip, f))
                        if isinstance(v, dict) and "id" in v}
    ids = {r["id"] for r in recs}
    kept = read_kept(filtered, ids)
    recs = [dict(r, em=s[0], f1=s[1]) for r in recs if r["id"] in kept
            for s in [score(r["answer"], kept[r["id"]][1])]]
    if not recs:
        return not_measured("none of the answered queries is among the kept queries")
    released, by_article = read_released(dataset_dir, ids, {k[0] for k in kept.values()})
    return {"measured": True, "protocol": protocol(base, cfg), "record": RECORD,
            **figures(recs, kept, released, by_article, verdicts, cfg)}


def protocol(base: str, cfg: HumanConfig) -> dict:
    summary = io_utils.read_json(base + "summary.json") \
        if io_utils.glob(base + "summary.json") else {}
    return {"verdict_answers": (summary.get("config") or {}).get("verdict_answers"),
            "released_answer": "first held-out answer per released query",
            "validated_answer": "first counted answer per answered query",
            "bootstrap_resamples": cfg.resamples, "confidence": cfg.confidence,
            "seed": cfg.seed}


def figures(recs, kept, released, by_article, verdicts, cfg) -> dict:
    """Per split and overall: the figures of the module docstring."""
    per_query = collections.defaultdict(list)
    for r in sorted(recs, key=lambda r: r["rank"]):
        per_query[r["id"]].append(r)
    where = {q: released.get(q) or by_article.get(kept[q][0]) for q in per_query}
    out = {}
    for split in SPLITS + (OVERALL,):
        mine = {q: rs for q, rs in per_query.items() if split == OVERALL or where[q] == split}
        out[split] = split_figures(mine, kept, released, verdicts, cfg)
    workers = {r["worker"] for r in recs}
    return {"workers": len(workers), "answers": len(recs), "splits": out,
            "model_in_the_loop": loop_counts(per_query, released, verdicts)}


def split_figures(per_query: dict, kept, released, verdicts, cfg) -> dict:
    held = {q: next((r for r in rs if r["role"] == HELDOUT), None)
            for q, rs in per_query.items() if q in released}
    held = {q: r for q, r in held.items() if r is not None}
    out_released = scores([(r["em"], r["f1"]) for r in held.values()], cfg)
    out_released.update(
        queries=sum(1 for q in per_query if q in released),
        workers=len({r["worker"] for r in held.values()}),
        same_queries={"most_frequent": scores([score(kept[q][2], kept[q][1]) for q in held],
                                              cfg),
                      "random": scores([kept[q][3] for q in held], cfg)})
    first = [rs[0] for rs in per_query.values()]
    out_validated = scores([(r["em"], r["f1"]) for r in first], cfg)
    out_validated["workers"] = len({r["worker"] for rs in per_query.values() for r in rs})
    n = len(per_query)
    return {
        "released": out_released, "validated": out_validated,
        "agreement": agreement(per_query, cfg),
        "could_not_answer": _share(sum(any(r["ambiguous"] for r in rs)
                                       for rs in per_query.values()), n),
        "answered_differently": _share(sum(any(r["em"] == 0 for r in rs
                                               if r["role"] == VERDICT)
                                           for rs in per_query.values()), n),
        "dropped": _share(sum(verdicts.get(q, {}).get("valid_for") == "none"
                              for q in per_query), n),
    }


def loop_counts(per_query: dict, released: dict, verdicts: dict) -> dict:
    """Model in the loop: judgements, judged queries and those flagged as needing more
    than the model used (the verdicts' per-query flag), overall and per released split."""
    judgements = sum(r.get("needs_more_than_model") is not None
                     for rs in per_query.values() for r in rs)
    out = {"judgements": judgements, "queries_judged": 0, "needs_more": 0,
           "released": {s: {"queries_judged": 0, "needs_more": 0} for s in SPLITS}}
    for q in per_query:
        v = verdicts.get(q) or {}
        if not v.get("model_judgements"):
            continue
        flag = bool(v.get("needs_more_than_model"))
        out["queries_judged"] += 1
        out["needs_more"] += flag
        if q in released:
            out["released"][released[q]]["queries_judged"] += 1
            out["released"][released[q]]["needs_more"] += flag
    return out


def add_to_release(out: str, validated: str | None, filtered: str, stats: dict) -> dict:
    """Measure, then rewrite the release's stats.json and card with the section."""
    import json

    from transforms.finalize.exports.files import write_text
    from transforms.finalize.report import dataset_card
    stats = dict(stats, human_performance=measure(out, validated, filtered))
    write_text(io_utils.join(out, "stats.json"), json.dumps(stats, indent=2) + "\n")
    shard_files = {s: stats["shards"][s]["files"] for s in SPLITS}
    write_text(io_utils.join(out, "README.md"), dataset_card.render_card(stats, shard_files))
    return stats


def explorer_part(dataset_dir: str, validated: str | None, ids) -> dict:
    """The explorer's view: the summary per split, and each shown query's counted answers
    (workers named by the order they answered, never by id)."""
    stats = io_utils.join(dataset_dir, "stats.json")
    h = (io_utils.read_json(stats) if io_utils.glob(stats) else {}).get("human_performance") \
        or not_measured("")
    summary = {"measured": h.get("measured", False), "reason": h.get("reason")}
    if h.get("measured"):
        summary["splits"] = {s: {"released": {k: h["splits"][s]["released"].get(k) for k in (
            "n", "queries", "exact_match", "exact_match_ci", "f1", "f1_ci")},
            "agreement": h["splits"][s]["agreement"].get("share")} for s in h["splits"]}
    path = A.path_of(validated) if validated else None
    per_query, ids = {}, set(ids)
    if path and h.get("measured"):
        for r in A.read(path):
            if r["id"] in ids and r["rank"] is not None:
                per_query.setdefault(r["id"], []).append((r["rank"], {
                    "who": f"worker {r['rank']}", "answer": r["answer"], "role": r["role"],
                    "not_obvious": r["ambiguous"],
                    "needs_more_than_model": r.get("needs_more_than_model")}))
    return {"summary": summary, "answers": {q: [a for _, a in sorted(v, key=lambda t: t[0])]
                                            for q, v in sorted(per_query.items())}}


def compare(gold: dict, recs: list, predictions: dict | None, which: str = "heldout",
            cfg: HumanConfig = HumanConfig()) -> dict:
    """`evaluate --human`: people (one answer per query, `answers.person_answers`) and a
    model scored on the same queries of `gold` ({query id: answer texts}), with CIs and a
    paired bootstrap of the difference."""
    people = {q: r for q, r in A.person_answers(recs, which).items() if q in gold}
    if not people:
        raise ValueError(f"none of the {len(gold)} queries has a {which} human answer in the "
                         "results (held-out answers need more workers per query than "
                         "--verdict_answers; try --human_answer first)")
    human = [score(people[q]["answer"], gold[q]) for q in sorted(people)]
    out = {"queries": len(gold), "same_queries": len(people), "human_answer": which,
           "human": dict(scores(human, cfg),
                         workers=len({r["worker"] for r in people.values()}))}
    if predictions is not None:
        model = [score(predictions[q], gold[q]) if q in predictions else (0.0, 0.0)
                 for q in sorted(people)]
        out["model"] = scores(model, cfg)
        diff = [(h[0] - m[0], h[1] - m[1]) for h, m in zip(human, model)]
        out["human_minus_model"] = scores(diff, cfg)
    return out
