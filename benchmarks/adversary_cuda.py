"""The transformer adversary and the hardness reader on a GPU: training and scoring
throughput of the project's own `models.transformer.Reader` and the reader's encoder.

    python -m benchmarks.adversary_cuda prepare --candidates RUN/candidates --out DIR
                                                [--limit N] [--weights]
    python -m benchmarks.adversary_cuda measure --data DIR [--device cuda] [--steps 40]

`prepare` (here, CPU): featurizes real candidates with the adversary's own featurizer
(all-MiniLM-L6-v2 tokenizer, max_length 256) and writes the examples, gold masks, the
encoder's config.json and the reader texts (each passage's sentences and filled queries)
to DIR (a few MB: what a GPU machine without this project's dependencies needs).
`measure` (on the GPU machine: torch and transformers only, no Beam): builds the Reader
from that config (weights randomly initialised: the same shapes, so the same arithmetic
per step as the pretrained model) and times, after warm-up, training steps as
`models.training.train_loop` takes them (batch 8, AdamW, fp32, cloze loss) and scoring
batches of 64 as the filter's RunInference does (`score_batch`); then the hardness
reader's encoder (mean-pooled MiniLM, batches of 64, max_length 128) over the reader
texts. Prints one JSON line: queries/s for training and scoring, texts/s for the reader.
"""
import argparse
import json
import os
import pathlib
import time


def prepare(candidates, out: str, limit: int = 600, weights: bool = False) -> dict:
    """`candidates`: one candidates directory or several (their rows together, by id);
    `limit` 0 keeps every row. `weights`: also the encoder's pretrained weights in fp16
    (`encoder.safetensors`, ~45 MB), for `benchmarks.adversary_batch_quality`."""
    import numpy as np

    from models.configs import TransformerConfig
    from models.embedding_reader import passage_plan
    from models.features import correct_mask
    from models.transformer import default_encoder, make_featurizer
    from transforms.core.io_utils import join, read_parquet
    dirs = [candidates] if isinstance(candidates, str) else list(candidates)
    rows = [r for d in dirs for r in read_parquet(join(d, "*.parquet")).to_pylist()]
    rows = sorted(rows, key=lambda r: r["id"])[:limit or None]
    feat = make_featurizer(TransformerConfig())
    out_dir = pathlib.Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    examples, golds, passages, ids = [], [], [], []
    for r in rows:
        try:
            cands, ex = feat(r)
        except Exception:  # noqa: BLE001 - unscorable rows are skipped, as training skips them
            continue
        examples.append(ex)
        golds.append(np.asarray(correct_mask(r, cands), dtype=bool))
        passages.append(r["passage_id"])
        ids.append(r["id"])
    if not examples:
        raise SystemExit(f"error: no scorable candidate among {len(rows)} rows of {dirs}")
    # one concatenated array per key and each example's length: an array per example
    # (a zip entry each) took 38 MB for 18k examples, this 2.1 MB
    cols = {k: [ex[k] for ex in examples] for k in examples[0]}
    cols["gold"] = golds
    arrays = {k: np.concatenate(v).astype(np.int32 if k != "gold" else bool)
              for k, v in cols.items()}
    arrays.update({f"{k}:len": np.asarray([len(x) for x in v], dtype=np.int64)
                   for k, v in cols.items()})
    np.savez_compressed(out_dir / "examples.npz", **arrays)
    (out_dir / "passages.json").write_text(json.dumps(passages))
    (out_dir / "ids.json").write_text(json.dumps(ids))
    for name in ("config.json", "vocab.txt"):
        (out_dir / name).write_bytes((pathlib.Path(default_encoder()) / name).read_bytes())
    if weights:
        from safetensors.torch import save_file
        from transformers import AutoModel
        enc = AutoModel.from_pretrained(default_encoder())
        save_file({k: v.detach().half().contiguous() for k, v in enc.state_dict().items()},
                  str(out_dir / "encoder.safetensors"))
    groups = {}
    for r in rows:
        groups.setdefault(r["passage_id"], []).append(r)
    texts = [t for g in groups.values() for t in passage_plan(g)[0]]
    (out_dir / "reader_texts.json").write_text(json.dumps(texts))
    info = {"examples": len(examples), "reader_texts": len(texts)}
    (out_dir / "info.json").write_text(json.dumps(info))
    return info


def _load(data: pathlib.Path):
    """examples.npz -> (examples as int64 arrays per key, gold masks as bool tensors)."""
    import numpy as np
    import torch
    z = np.load(data / "examples.npz")
    split = {k: np.split(z[k], np.cumsum(z[f"{k}:len"])[:-1])
             for k in z.files if not k.endswith(":len")}
    golds = [torch.as_tensor(g) for g in split.pop("gold")]
    keys = list(split)
    examples = [{k: split[k][i].astype(np.int64) for k in keys} for i in range(len(golds))]
    return examples, golds


def _sync(device):
    import torch
    if device.type == "cuda":
        torch.cuda.synchronize()


def _reset_peak(device):
    import torch
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats(device)


def _peak_mib(device):
    import torch
    if device.type != "cuda":
        return None
    return round(torch.cuda.max_memory_allocated(device) / 2**20)


def measure(data: str, device: str = "cuda", steps: int = 40, batch: int = 8,
            score_batch_size: int = 64, train_batches: tuple = (),
            score_batches: tuple = ()) -> dict:
    import torch
    from torch.nn.utils.rnn import pad_sequence
    from transformers import AutoConfig, AutoModel

    from models.batching import pad_batch, score_batch
    from models.training import cloze_loss, to_device
    from models.transformer import Reader
    data, dev = pathlib.Path(data), torch.device(device)
    config = json.loads((data / "config.json").read_text())
    examples, golds = _load(data)
    torch.manual_seed(0)
    model = Reader(config).to(dev)
    opt = torch.optim.AdamW(model.param_groups(5e-5), lr=5e-5, weight_decay=0.01)
    out = {"device": torch.cuda.get_device_name(dev) if dev.type == "cuda" else "cpu",
           "torch": torch.__version__, "examples": len(examples),
           "tokens_per_example": round(sum(len(e["input_ids"]) for e in examples)
                                       / len(examples), 1)}

    def train_steps(k):
        model.train()
        for s in range(k):
            i = (s * batch) % (len(examples) - batch)
            b = to_device(pad_batch(examples[i:i + batch]), dev)
            g = to_device({"g": pad_sequence(golds[i:i + batch], batch_first=True)}, dev)["g"]
            loss = cloze_loss(model(**b), g, b["n_cand"])
            opt.zero_grad()
            loss.backward()
            opt.step()
        _sync(dev)

    def timed_training(b):
        nonlocal batch
        batch = b
        train_steps(5)                                  # warm-up: kernels, allocator
        _reset_peak(dev)
        t = time.perf_counter()
        train_steps(steps)
        return round(steps * b / (time.perf_counter() - t), 1), _peak_mib(dev)

    def timed_scoring(b):
        model.eval()
        score_batch(model, examples[:b], dev)
        _sync(dev)
        _reset_peak(dev)
        t, n = time.perf_counter(), 0
        for i in range(0, len(examples), b):
            score_batch(model, examples[i:i + b], dev)
            n += len(examples[i:i + b])
        _sync(dev)
        return round(n / (time.perf_counter() - t), 1), _peak_mib(dev)

    out["train_queries_per_s"], _ = timed_training(batch)
    out["score_queries_per_s"], _ = timed_scoring(score_batch_size)
    # --batch_size sweeps (models.training's step and the filter's score_batch at other
    # batch sizes): queries/s and the peak GPU memory a worker needs at each
    for b in train_batches:
        qps, mib = timed_training(b)
        out.setdefault("train_sweep", {})[str(b)] = {"queries_per_s": qps, "peak_mib": mib}
    for b in score_batches:
        qps, mib = timed_scoring(b)
        out.setdefault("score_sweep", {})[str(b)] = {"queries_per_s": qps, "peak_mib": mib}
    # the hardness reader's encoder: same arithmetic as models.embedding_reader
    texts = json.loads((data / "reader_texts.json").read_text())
    enc = AutoModel.from_config(AutoConfig.for_model(**config)).to(dev).eval()
    from transformers import BertTokenizerFast
    vocab = data / "vocab.txt"
    tok = BertTokenizerFast(str(vocab)) if vocab.exists() else None
    if tok is not None:
        def encode(batch_texts):
            e = tok(batch_texts, padding=True, truncation=True, max_length=128,
                    return_tensors="pt").to(dev)
            with torch.no_grad():
                hs = enc(**e).last_hidden_state
                m = e["attention_mask"].unsqueeze(-1).to(hs.dtype)
                return torch.nn.functional.normalize((hs * m).sum(1) / m.sum(1), dim=-1)
        texts = sorted(texts, key=len)
        encode(texts[:64])
        _sync(dev)
        t = time.perf_counter()
        for i in range(0, len(texts), 64):
            encode(texts[i:i + 64])
        _sync(dev)
        out["reader_texts"] = len(texts)
        out["reader_texts_per_s"] = round(len(texts) / (time.perf_counter() - t), 1)
    print(json.dumps(out))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("prepare")
    a.add_argument("--candidates", required=True, nargs="+",
                   help="one or more candidates directories")
    a.add_argument("--out", required=True)
    a.add_argument("--limit", type=int, default=600, help="rows kept by id; 0: all")
    a.add_argument("--weights", action="store_true",
                   help="also write the pretrained encoder in fp16 (for batch quality)")
    b = sub.add_parser("measure")
    b.add_argument("--data", required=True)
    b.add_argument("--device", default="cuda")
    b.add_argument("--steps", type=int, default=40)
    b.add_argument("--train_batches", default="",
                   help="comma-separated training batch sizes to sweep, e.g. 8,32,64")
    b.add_argument("--score_batches", default="",
                   help="comma-separated scoring batch sizes to sweep, e.g. 64,256")
    args = p.parse_args(argv)
    if args.cmd == "prepare":
        print(json.dumps(prepare(args.candidates, args.out, args.limit, args.weights)))
    else:
        measure(args.data, args.device, args.steps,
                train_batches=_sizes(args.train_batches),
                score_batches=_sizes(args.score_batches))


def _sizes(text: str) -> tuple:
    try:
        sizes = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise SystemExit(f"error: batch sizes must be comma-separated integers, got {text!r}")
    if any(n < 1 for n in sizes):
        raise SystemExit(f"error: batch sizes must be at least 1, got {text!r}")
    return sizes


if __name__ == "__main__":
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    main()
