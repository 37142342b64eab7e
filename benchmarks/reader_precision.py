"""The hardness report's held-out reader in float32 and in bfloat16, on the same candidates,
in one process: exact match, agreement, CPU seconds per 1,000 candidates.

    python -m benchmarks.reader_precision --scored RUN/filtered/scored [--dataset RUN/dataset]
                                          [--precisions fp32,bf16] [--limit N]

Candidates: the filter's scored rows (with `--dataset`, only those of articles with a
released dev or test query, as the report's reader scores them, and the released ones
apart). Passages in id order; each passage is scored by every precision in turn (the order
alternating per passage, so load swings fall on both), with `passage_predictions`, the
report's own scoring (one encode call per passage), one torch thread, batches of 64.
Printed: one JSON line, per precision: EM x100 with a 95% normal interval (candidates and
released), the share of predictions equal to the first precision's, CPU s (process time)
and CPU s per 1,000 candidates, and the CPU ratio against the first precision.
"""
import argparse
import collections
import json
import math
import time


def load(scored: str, dataset=None) -> tuple:
    """(passage groups in id order, {query id: split} of the released rows or None)."""
    from transforms.core.io_utils import join, read_parquet
    from transforms.finalize.report.hardness import SCORED_COLUMNS
    rows = read_parquet(join(scored, "*.parquet"), columns=list(SCORED_COLUMNS)).to_pylist()
    released = None
    if dataset:
        shards = read_parquet(join(dataset, "*.parquet"), columns=["id", "article_id", "split"])
        shards = shards.to_pylist()
        split_of = {r["article_id"]: r["split"] for r in shards}
        released = {r["id"]: r["split"] for r in shards}
        rows = [r for r in rows if split_of.get(r["article_id"]) in ("dev", "test")
                and r.get("adversary_correct") is not None]
    groups = collections.defaultdict(list)
    for r in sorted(rows, key=lambda r: r["id"]):
        groups[r["passage_id"]].append(r)
    return [groups[p] for p in sorted(groups)], released


def em_cell(hits: list) -> dict:
    n = len(hits)
    p = sum(hits) / n if n else 0.0
    half = 1.96 * math.sqrt(p * (1 - p) / n) if n else 0.0
    return {"n": n, "em": round(100 * p, 1), "ci95": [round(100 * (p - half), 1),
                                                      round(100 * (p + half), 1)]}


def measure(groups, precisions=("fp32", "bf16"), released=None) -> dict:
    from models.embedding_reader import SentenceEncoder, passage_predictions
    encoders = {p: SentenceEncoder(precision=p) for p in precisions}
    for e in encoders.values():
        e(["a short warm-up text"] * 8)
    preds = {p: [] for p in precisions}
    cpu = dict.fromkeys(precisions, 0.0)
    for i, group in enumerate(groups):
        for p in (precisions if i % 2 == 0 else tuple(reversed(precisions))):
            started = time.process_time()
            preds[p].extend(passage_predictions(group, encoders[p].encode))
            cpu[p] += time.process_time() - started
    rows = [r for g in groups for r in g]
    first = precisions[0]
    out = {"candidates": len(rows), "passages": len(groups)}
    for p in precisions:
        scored = [(r, x) for r, x in zip(rows, preds[p]) if x is not None]
        hit = {r["id"]: float(any(x == a["text"] for a in r["answers"])) for r, x in scored}
        out[p] = {"candidates": em_cell(list(hit.values())),
                  "agree_with_" + first: round(sum(
                      a == b for a, b in zip(preds[p], preds[first])) / max(len(rows), 1), 4),
                  "cpu_s": round(cpu[p], 2),
                  "cpu_s_per_1000": round(1000 * cpu[p] / max(len(rows), 1), 2),
                  "cpu_ratio_to_" + first: round(cpu[p] / max(cpu[first], 1e-9), 3)}
        if released is not None:
            out[p]["released"] = em_cell([h for q, h in hit.items() if q in released])
    return out


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scored", required=True)
    ap.add_argument("--dataset", default=None)
    ap.add_argument("--precisions", default="fp32,bf16")
    ap.add_argument("--limit", type=int, default=0, help="at most this many passages (0: all)")
    args = ap.parse_args(argv)
    groups, released = load(args.scored, args.dataset)
    if args.limit:
        groups = groups[:args.limit]
    import os
    out = measure(groups, tuple(args.precisions.split(",")), released)
    out["load"] = [round(x, 1) for x in os.getloadavg()]
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
