"""Where a transformer fold's training time goes on CPU, and what the thread count does.

    python -m benchmarks.adversary_training --candidates DIR/candidates [--steps 3]
        [--reps 2] [--heldout 32] [--threads 2,1]

One process, one run, the variants alternating within each repetition (this machine is
shared and noisy: compare ratios, not seconds across runs):
- tokenization: the transformer featurizer over every candidate (ms per query; the stage
  does it once, in `featurize`, never per epoch);
- padding: the share of pad tokens in the training batches (padded per batch) against
  padding every query to `max_length`;
- per thread count: `--steps` training steps of the stage's batch size (same batches, a
  fresh AdamW each time) timed by phase (batch: padding the examples; forward; backward;
  optimizer), wall and CPU seconds, then the held-out evaluation (`--heldout` queries in
  the stage's batches of 64) per query. Ratio: wall of the first thread count over each.
CUDA is used when present (the stage's `--device auto`); on CPU only here.
"""
import argparse
import json
import statistics
import time

import torch
from torch.nn.utils.rnn import pad_sequence

from models.batching import pad_batch, score_batch
from models.configs import TransformerConfig
from models.features import ScoringError, correct_mask
from models.training import cloze_loss, seed_everything, to_device, torch_threads
from models.transformer import build, make_featurizer
from transforms.core.hashing import fold_of
from transforms.core.io_utils import read_parquet
from transforms.machine_filtering.config import parquet_pattern


def featurize(rows, config):
    fz, out, t0 = make_featurizer(config), [], time.perf_counter()
    for row in rows:
        try:
            cands, example = fz(row)
        except ScoringError:
            continue
        out.append((row, example, torch.tensor(correct_mask(row, cands), dtype=torch.bool)))
    return out, (time.perf_counter() - t0) / max(len(rows), 1)


def padding_share(batches, max_length: int) -> dict:
    real = sum(len(e["input_ids"]) for b in batches for e, _ in b)
    padded = sum(max(len(e["input_ids"]) for e, _ in b) * len(b) for b in batches)
    full = sum(len(b) for b in batches) * max_length
    return {"pad_share_per_batch": round(1 - real / padded, 3),
            "pad_share_at_max_length": round(1 - real / full, 3)}


class Clock:
    def __init__(self):
        self.t = {}

    def add(self, phase, wall, cpu):
        w, c = self.t.get(phase, (0.0, 0.0))
        self.t[phase] = (w + wall, c + cpu)

    def time(self, phase, fn):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        self.add(phase, time.perf_counter() - w, time.process_time() - c)
        return out


def train_steps(model, batches, config, device, clock):
    opt = torch.optim.AdamW(model.param_groups(config.lr), lr=config.lr,
                            weight_decay=config.weight_decay)
    model.train()
    for b in batches:
        batch = clock.time("batch", lambda: to_device(pad_batch([e for e, _ in b]), device))
        gold = pad_sequence([g for _, g in b], batch_first=True).to(device)
        loss = clock.time("forward", lambda: cloze_loss(model(**batch), gold, batch["n_cand"]))
        clock.time("backward", lambda: (opt.zero_grad(), loss.backward()))
        clock.time("optimizer", opt.step)
    model.eval()


def evaluate(model, held, device, clock):
    with torch.no_grad():
        for i in range(0, len(held), 64):
            clock.time("heldout", lambda: score_batch(model, [e for e, _ in held[i:i + 64]],
                                                      device))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--candidates", required=True)
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--reps", type=int, default=2)
    p.add_argument("--heldout", type=int, default=32)
    p.add_argument("--threads", default=f"{torch.get_num_threads()},1",
                   help="thread counts to compare; the first is the baseline (torch's "
                        "default: the cores)")
    p.add_argument("--json")
    args = p.parse_args(argv)
    config = TransformerConfig()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    rows = sorted(read_parquet(parquet_pattern(args.candidates)).to_pylist(), key=lambda r: r["id"])
    examples, tok_s = featurize(rows, config)
    train = [(e, g) for r, e, g in examples if fold_of(r["article_id"], 3) != 0 and g.any()]
    held = [(e, g) for r, e, g in examples if fold_of(r["article_id"], 3) == 0][:args.heldout]
    bs = config.batch_size
    batches = [train[i * bs:(i + 1) * bs] for i in range(args.steps)]
    report = {"queries": len(rows), "featurized": len(examples), "device": str(device),
              "tokenize_ms_per_query": round(1000 * tok_s, 2),
              **padding_share([train[i:i + bs] for i in range(0, len(train), bs)],
                              config.max_length), "threads": {}}
    seed_everything(0)
    model = build(config, device)[0]
    counts = [int(t) for t in args.threads.split(",")]
    runs = {n: [] for n in counts}
    for rep in range(args.reps):
        for n in (counts if rep % 2 == 0 else counts[::-1]):
            clock = Clock()
            with torch_threads(n):
                train_steps(model, batches, config, device, clock)
                evaluate(model, held, device, clock)
            runs[n].append(clock.t)
    for n, clocks in runs.items():
        med = {ph: (statistics.median(c[ph][0] for c in clocks),
                    statistics.median(c[ph][1] for c in clocks)) for ph in clocks[0]}
        per = {ph: {"wall_s": round(w / (len(held) if ph == "heldout" else args.steps), 3),
                    "cpu_s": round(c / (len(held) if ph == "heldout" else args.steps), 3)}
               for ph, (w, c) in med.items()}
        step = sum(w for ph, (w, _) in med.items() if ph != "heldout") / args.steps
        per["step"] = {"wall_s": round(step, 3), "examples_per_s": round(bs / step, 2)}
        report["threads"][n] = per
    base = report["threads"][counts[0]]
    for n in counts:
        r = report["threads"][n]
        r["step_speedup_vs_baseline"] = round(base["step"]["wall_s"] / r["step"]["wall_s"], 2)
        r["heldout_speedup_vs_baseline"] = round(base["heldout"]["wall_s"]
                                                 / r["heldout"]["wall_s"], 2)
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")
    return report


if __name__ == "__main__":
    main()
