"""Does a fold trained at a larger batch read as well? The transformer adversary,
fine-tuned from all-MiniLM-L6-v2's weights, at several (batch size, learning-rate)
settings on the same folds of real candidates: held-out accuracy, and whether the
settings answer the same queries (the filter drops what the adversary answers).

    python -m benchmarks.adversary_cuda prepare --candidates RUN1/candidates ... \\
        --out DIR --limit 0 --weights                                  # here, CPU
    python -m benchmarks.adversary_batch_quality --data DIR \\
        --settings 8:1,8:1:1,32:1,32:2,32:4 --folds 5 --run_folds 2   # on the GPU

A setting `B:M` trains at batch B with the default learning rates times M (encoder
5e-5, head 1e-3: `models.configs.TransformerConfig`) and seed S (head initialisation
and batch order; `B:M` uses `--seed`), one epoch through
`models.training.train_loop`, as `train_folds` does. Passages are split into `--folds`
folds by a hash of their id; the first `--run_folds` are held out in turn, each fold's
held-out queries scored by the model trained on the others. Every setting starts from
the same weights and head initialisation. Prints a JSON line per setting, then a summary
with each setting's agreement with the first (`--out` writes it to a file too).
"""
import argparse
import hashlib
import json
import os
import pathlib
import time


def fold_of(passage_id: str, folds: int) -> int:
    return int(hashlib.sha1(passage_id.encode()).hexdigest(), 16) % folds


def parse_settings(text: str, seed: int = 0) -> tuple:
    """"8:1,32:2,8:1:1" -> ((8, 1.0, 0), (32, 2.0, 0), (8, 1.0, 1)): batch, learning-rate
    multiplier and, optionally, a seed (else `seed`: two seeds of one setting show how
    far verdicts move by chance alone)."""
    try:
        out = tuple((int(p[0]), float(p[1]), int(p[2]) if len(p) == 3 else seed)
                    for p in (s.split(":") for s in text.split(",")) if len(p) in (2, 3))
    except (ValueError, IndexError):
        out = ()
    if (len(out) != len(text.split(",")) or len(set(out)) != len(out)
            or any(b < 1 or m <= 0 for b, m, _ in out)):
        raise SystemExit(f"error: settings are distinct BATCH:LR_MULTIPLIER[:SEED] with "
                         f"batch >= 1 and multiplier > 0, comma-separated; got {text!r}")
    return out


def _model(data: pathlib.Path, config: dict, device, seed: int):
    from safetensors.torch import load_file

    from models.training import seed_everything
    from models.transformer import Reader
    seed_everything(seed)
    model = Reader(config)
    weights = load_file(str(data / "encoder.safetensors"))
    model.encoder.load_state_dict({k: v.float() for k, v in weights.items()})
    return model.to(device)


def held_out_hits(model, examples, golds, device, batch: int = 64) -> list:
    from models.batching import score_batch
    hits = []
    for i in range(0, len(examples), batch):
        scores = score_batch(model, examples[i:i + batch], device)
        hits += [bool(g[int(s.argmax())]) for s, g in zip(scores, golds[i:i + batch])]
    return hits


def agreement(a: list, b: list) -> dict:
    """How often two settings' held-out verdicts (answered or not) agree."""
    n = len(a)
    same = sum(x == y for x, y in zip(a, b))
    pa, pb = sum(a) / n, sum(b) / n
    chance = pa * pb + (1 - pa) * (1 - pb)
    return {"agree": round(same / n, 4),
            "kappa": round((same / n - chance) / (1 - chance), 4) if chance < 1 else None,
            "only_first": sum(x and not y for x, y in zip(a, b)),
            "only_this": sum(y and not x for x, y in zip(a, b))}


def run(data: str, settings: tuple, folds: int = 5, run_folds: int = 2,
        device: str = "cuda", out: str = None, verdicts_out: str = None) -> dict:
    import torch

    from benchmarks.adversary_cuda import _load
    from models.configs import TransformerConfig
    from models.training import Featurized, train_loop
    data, dev, base = pathlib.Path(data), torch.device(device), TransformerConfig()
    config = json.loads((data / "config.json").read_text())
    examples, golds = _load(data)
    passages = json.loads((data / "passages.json").read_text())
    answerable = [i for i, g in enumerate(golds) if bool(g.any())]
    summary = {"device": torch.cuda.get_device_name(dev) if dev.type == "cuda" else "cpu",
               "torch": torch.__version__, "examples": len(examples),
               "answerable": len(answerable), "folds": folds, "run_folds": run_folds,
               "settings": {}}
    fold = {i: fold_of(passages[i], folds) for i in answerable}
    held_ids = [i for f in range(run_folds) for i in answerable if fold[i] == f]
    verdicts = {}
    for batch, mult, seed in settings:
        name, hits, fits = f"{batch}:{mult:g}:{seed}", [], []
        for f in range(run_folds):
            train = [i for i in answerable if fold[i] != f]
            test = [i for i in answerable if fold[i] == f]
            model = _model(data, config, dev, seed)
            model.head_lr = base.head_lr * mult
            fit = train_loop(model, Featurized([examples[i] for i in train],
                                               [golds[i] for i in train], [None] * len(train)),
                             lr=base.lr * mult, epochs=1, batch_size=batch, seed=seed,
                             weight_decay=base.weight_decay, label=f"{name} fold {f}")
            if dev.type == "cuda":
                torch.cuda.synchronize()
            t = time.perf_counter()
            hits += held_out_hits(model, [examples[i] for i in test], [golds[i] for i in test], dev)
            fit["score_seconds"] = round(time.perf_counter() - t, 3)
            fit["train"], fit["test"] = len(train), len(test)
            fits.append(fit)
        verdicts[name] = hits
        row = {"batch": batch, "lr_multiplier": mult, "seed": seed, "held_out": len(hits),
               "accuracy": round(sum(hits) / len(hits), 4),
               "train_queries_per_s": round(sum(x["train"] for x in fits)
                                            / sum(x["seconds"] for x in fits), 1),
               "final_loss": [round(x["final_loss"], 4) for x in fits], "fits": fits}
        summary["settings"][name] = row
        print(json.dumps({name: row}), flush=True)
    first = next(iter(verdicts))
    summary["agreement_with_" + first] = {k: agreement(verdicts[first], v)
                                          for k, v in verdicts.items() if k != first}
    print(json.dumps(summary), flush=True)
    if verdicts_out:                   # query id -> {setting: answered}, for item analyses
        ids = json.loads((data / "ids.json").read_text())
        pathlib.Path(verdicts_out).write_text(json.dumps(
            {ids[i]: {k: v[n] for k, v in verdicts.items()} for n, i in enumerate(held_ids)}))
    if out:
        pathlib.Path(out).write_text(json.dumps(summary, indent=1))
    return summary


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", required=True, help="a directory from `adversary_cuda prepare "
                   "--weights`")
    p.add_argument("--settings", default="8:1,8:1:1,32:1,32:2,32:4",
                   help="BATCH:LR_MULTIPLIER[:SEED], comma-separated; the first is the "
                        "reference")
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--run_folds", type=int, default=2)
    p.add_argument("--device", default="cuda")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="also write the summary JSON here")
    p.add_argument("--verdicts", help="write each held-out query's verdicts (query id -> "
                   "{setting: answered}) here")
    args = p.parse_args(argv)
    if not 1 <= args.run_folds <= args.folds:
        raise SystemExit("error: --run_folds must be between 1 and --folds")
    if not (pathlib.Path(args.data) / "encoder.safetensors").exists():
        raise SystemExit(f"error: {args.data} has no encoder.safetensors: run "
                         "`adversary_cuda prepare` with --weights")
    run(args.data, parse_settings(args.settings, args.seed), args.folds, args.run_folds,
        args.device, args.out, args.verdicts)


if __name__ == "__main__":
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    main()
