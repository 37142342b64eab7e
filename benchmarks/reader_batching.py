"""The held-out reader scored one passage per encode call against several passages per call
(`batch_predictions`, as the RunInference handler does), on the same candidates, in one
process: changed predictions, the largest score difference, CPU seconds.

    python -m benchmarks.reader_batching --scored RUN/filtered/scored --dataset RUN/dataset
                                         [--precision fp32] [--passages 8] [--limit N]

Candidates: as `benchmarks.reader_precision` (with `--dataset`, the report's dev+test).
Three ways, each over every passage in id order, one torch thread, batches of 64:
`alone` (one encode call per passage, `passage_predictions`), `batched` (groups of
`--passages` passages per call) and `shifted` (the same groups moved by half a group, so
each passage has other batch mates). Printed: one JSON line with, against `alone`, the
number of queries whose predicted answer changed and the max abs difference of any
candidate's score, and CPU s (process time) per way.
"""
import argparse
import json
import os
import time

import numpy as np


def scores_from(vectors, plan) -> list:
    """Per planned row, its candidates' scores (None: not scorable), as `predictions_from`."""
    return [None if p is None else (vectors[p[1]] @ vectors[p[2]].T).max(axis=1)
            for p in plan]


def run_groups(chunks, encode) -> tuple:
    """(predictions, scores) per row over chunks of passages, one encode call per chunk."""
    from models.embedding_reader import batch_plan, predictions_from
    preds, scores = [], []
    for chunk in chunks:
        texts, plans = batch_plan(chunk)
        vectors = encode(texts)
        for plan in plans:
            preds += predictions_from(vectors, plan)
            scores += scores_from(vectors, plan)
    return preds, scores


def chunked(groups, size, offset=0) -> list:
    cuts = [0] + list(range(offset or size, len(groups), size)) + [len(groups)]
    return [groups[a:b] for a, b in zip(cuts, cuts[1:]) if b > a]


def compare(base, other) -> dict:
    (p0, s0), (p1, s1) = base, other
    diffs = [float(np.abs(a - b).max()) for a, b in zip(s0, s1) if a is not None]
    return {"changed_predictions": sum(a != b for a, b in zip(p0, p1)),
            "max_abs_score_diff": max(diffs, default=0.0)}


def main(argv=None) -> dict:
    from benchmarks.reader_precision import load
    from models.embedding_reader import SentenceEncoder
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scored", required=True)
    ap.add_argument("--dataset", default=None)
    ap.add_argument("--precision", default="fp32")
    ap.add_argument("--passages", type=int, default=8, help="passages per encode call")
    ap.add_argument("--limit", type=int, default=0, help="at most this many passages (0: all)")
    args = ap.parse_args(argv)
    groups, _ = load(args.scored, args.dataset)
    groups = groups[:args.limit] if args.limit else groups
    encoder = SentenceEncoder(precision=args.precision)
    encoder(["a short warm-up text"] * 8)
    ways = {"alone": chunked(groups, 1), "batched": chunked(groups, args.passages),
            "shifted": chunked(groups, args.passages, max(args.passages // 2, 1))}
    results, cpu = {}, {}
    for name, chunks in ways.items():
        started = time.process_time()
        results[name] = run_groups(chunks, encoder.encode)
        cpu[name] = round(time.process_time() - started, 2)
    out = {"precision": encoder.precision, "passages": len(groups),
           "candidates": sum(len(g) for g in groups), "cpu_s": cpu,
           "cpu_ratio_alone_over_batched": round(cpu["alone"] / max(cpu["batched"], 1e-9), 3)}
    for name in ("batched", "shifted"):
        out[name] = compare(results["alone"], results[name])
    out["shifted_vs_batched"] = compare(results["batched"], results["shifted"])
    out["load"] = [round(x, 1) for x in os.getloadavg()]
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
