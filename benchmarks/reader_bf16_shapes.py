"""Can the held-out reader's bfloat16 encodes be made independent of their batch mates?
Every forward call given one shape family: `--rows` rows (empty texts fill the last) and
each text padded to its own token length rounded up to `--step` (so a row's shape depends
only on itself), then: is each text's embedding bitwise the same whatever the batch
composition, and do the predictions match today's reader (bf16, one passage per call)?

    python -m benchmarks.reader_bf16_shapes --scored RUN/filtered/scored --dataset RUN/dataset
                                            [--rows 16] [--step 16]

Texts: every text the report encodes for the run's dev+test candidates
(`embedding_reader.batch_plan`). Batch compositions, fixed shapes: sorted by length,
shuffled (seed 0), one text per call (filler rows only). Then predictions: today's bf16
reader one passage per call, fp32 one passage per call, and fixed-shape bf16 with 8
passages per call. One torch thread. Prints one JSON line: rows differing bitwise from
the sorted composition, changed predictions, CPU s.
"""
import argparse
import json
import os
import random
import time

import numpy as np


def fixed_shape_encoder(encoder, rows: int, step: int):
    """texts -> rows of embeddings, as `encoder` (a bf16 SentenceEncoder) computes them, in
    forward calls of `rows` rows and per-text lengths rounded up to `step` tokens; `order`
    (optional) is the order texts fill the calls in."""
    from models.embedding_reader import MAX_LENGTH
    torch, tok, model = encoder.torch, encoder.tokenizer, encoder.model

    def encode(texts, order=None, per_call=None):
        lengths = [len(x) for x in tok(texts, truncation=True, max_length=MAX_LENGTH)["input_ids"]]
        buckets = {}
        for j in (order if order is not None else range(len(texts))):
            buckets.setdefault(min(MAX_LENGTH, -(-lengths[j] // step) * step), []).append(j)
        out = np.zeros((len(texts), model.config.hidden_size), dtype=np.float32)
        torch.set_num_threads(1)
        size = per_call or rows
        with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
            for length, idx in sorted(buckets.items()):
                for i in range(0, len(idx), size):
                    part = idx[i:i + size]
                    enc = tok([texts[j] for j in part] + [""] * (rows - len(part)),
                              padding="max_length", truncation=True, max_length=length,
                              return_tensors="pt")
                    hs = model(**enc).last_hidden_state.float()
                    mask = enc["attention_mask"].unsqueeze(-1).to(hs.dtype)
                    pooled = (hs * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
                    out[part] = torch.nn.functional.normalize(pooled, dim=-1).numpy()[:len(part)]
        return out
    return encode


def main(argv=None) -> dict:
    from benchmarks.reader_batching import chunked, run_groups
    from benchmarks.reader_precision import load
    from models.embedding_reader import SentenceEncoder, batch_plan
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scored", required=True)
    ap.add_argument("--dataset", default=None)
    ap.add_argument("--rows", type=int, default=16)
    ap.add_argument("--step", type=int, default=16)
    args = ap.parse_args(argv)
    groups, _ = load(args.scored, args.dataset)
    texts, _ = batch_plan(groups)
    bf16, fp32 = SentenceEncoder(precision="bf16"), SentenceEncoder(precision="fp32")
    fixed = fixed_shape_encoder(bf16, args.rows, args.step)
    shuffled = list(range(len(texts)))
    random.Random(0).shuffle(shuffled)
    ways = {"sorted": fixed(texts), "shuffled": fixed(texts, shuffled),
            "one_per_call": fixed(texts, per_call=1)}
    ref = ways["sorted"].view(np.uint32)
    out = {"rows": args.rows, "step": args.step, "texts": len(texts), "passages": len(groups),
           "candidates": sum(len(g) for g in groups)}
    for name in ("shuffled", "one_per_call"):
        out[f"{name}_rows_differing_bitwise"] = int((ways[name].view(np.uint32) != ref)
                                                    .any(axis=1).sum())
    preds, cpu = {}, {}
    for name, encode, size in (("bf16_today", bf16.encode, 1), ("fp32", fp32.encode, 1),
                               ("bf16_fixed_8", fixed, 8)):
        started = time.process_time()
        preds[name] = run_groups(chunked(groups, size), encode)[0]
        cpu[name] = round(time.process_time() - started, 2)
    for a, b in (("bf16_today", "bf16_fixed_8"), ("fp32", "bf16_today"), ("fp32", "bf16_fixed_8")):
        out[f"changed_{a}_vs_{b}"] = sum(x != y for x, y in zip(preds[a], preds[b]))
    out["cpu_s"] = cpu
    out["load"] = [round(x, 1) for x in os.getloadavg()]
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
