"""k-fold adversarial filtering (paper section 3.3): per-fold readers trained in Beam,
served by RunInference; queries the reader of their own fold answers are dropped.

Folds are by article (`fold_of(article_id, k)`, as the generation job assigns them), so
no fold model has seen any query of an article in the fold it scores.
"""
import dataclasses
import hashlib
import logging
import time
from dataclasses import dataclass
from typing import Optional

import apache_beam as beam
import fsspec
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import torch
from apache_beam.ml.inference.base import (KeyedModelHandler, KeyModelMapping, PredictionResult,
                                           RunInference)
from apache_beam.ml.inference.pytorch_inference import PytorchModelHandlerKeyedTensor

from models import reader_module
from models.batching import padded_inference_fn
from models.features import ScoringError, answer_texts, candidates
from models.lexical import LexicalConfig
from models.training import evaluate, featurize, seed_everything
from models.transformer import TransformerConfig
from transforms.core.hashing import fold_of
from transforms.core.io_utils import join, read_json, read_parquet, write_json

log = logging.getLogger(__name__)
NAMESPACE = "adversarial_filter"
ERROR_SCHEMA = pa.schema([pa.field("id", pa.string()), pa.field("fold", pa.int32()),
                          pa.field("error", pa.string())])


def fold_key(fold: int) -> str:
    return f"fold{fold}"


def fold_dir(adversary: str, fold: int) -> str:
    return join(adversary, f"fold-{fold}")


def resolve_device(device: str) -> torch.device:
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    return torch.device(device)


# ----------------------------------------------------------------------------- training

@dataclass(frozen=True)
class TrainFoldsConfig:
    candidates: str                    # DIR/candidates
    output: str                        # DIR/adversary
    model: str = "lexical"
    folds: int = 5                     # the paper's five-fold cross-validation
    seed: int = 13
    device: str = "auto"               # auto: CUDA when the worker has it
    max_train_rows: Optional[int] = None   # slices (first rows by id), for smoke tests
    max_heldout_rows: Optional[int] = None
    lexical: LexicalConfig = LexicalConfig()
    transformer: TransformerConfig = TransformerConfig()

    def reader_config(self):
        return self.lexical if self.model == "lexical" else self.transformer

    def hyperparameters(self) -> dict:
        if self.model == "transformer":
            return reader_module("transformer").config_dict(self.transformer)
        return dataclasses.asdict(self.lexical)


def _sorted_rows(table: pa.Table) -> list:
    """Rows in id order, so training does not depend on how the input was sharded."""
    return table.take(pc.sort_indices(table, [("id", "ascending")])).to_pylist()


def read_fold_split(pattern: str, k: int, fold: int):
    """(train rows, held-out rows) for `fold`: train is every article of the other folds.

    When the candidates' `fold` column agrees with fold_of(article_id, k) (as written by
    the generation job), pyarrow reads each side with a filter on it."""
    keys = read_parquet(pattern, columns=["article_id", "fold"])
    folds = np.array([fold_of(a, k) for a in keys.column("article_id").to_pylist()], np.int64)
    agrees = bool(np.array_equal(folds, keys.column("fold").to_numpy()))
    if agrees:
        train = read_parquet(pattern, filters=[("fold", "!=", fold)])
        held = read_parquet(pattern, filters=[("fold", "==", fold)])
    else:
        table = read_parquet(pattern)
        train, held = table.filter(pa.array(folds != fold)), table.filter(pa.array(folds == fold))
    return _sorted_rows(train), _sorted_rows(held), agrees


def articles_digest(rows) -> str:
    ids = sorted({r["article_id"] for r in rows})
    return hashlib.sha256("\n".join(ids).encode("utf-8")).hexdigest()


def save_state_dict(model: torch.nn.Module, url: str) -> None:
    fs, path = fsspec.core.url_to_fs(url)
    fs.makedirs(path.rsplit("/", 1)[0], exist_ok=True)
    with fs.open(path, "wb") as f:
        torch.save({k: v.detach().cpu() for k, v in model.state_dict().items()}, f)


def train_fold(fold: int, cfg: TrainFoldsConfig) -> dict:
    """Train the reader of `fold` on every other fold; write checkpoint + metadata.json."""
    t0, k = time.time(), cfg.folds
    train_rows, held_rows, agrees = read_fold_split(cfg.candidates, k, fold)
    train_rows, held_rows = train_rows[:cfg.max_train_rows], held_rows[:cfg.max_heldout_rows]
    held_articles = {r["article_id"] for r in held_rows}
    leaked = held_articles & {r["article_id"] for r in train_rows}
    if leaked:   # cannot happen with fold_of; guards the invariant the filter relies on
        raise RuntimeError(f"fold {fold}: {len(leaked)} held-out articles in training rows")
    log.info("fold %d/%d: training %s on %d queries (%d held out)", fold, k, cfg.model,
             len(train_rows), len(held_rows))
    seed = cfg.seed * 1000 + fold
    seed_everything(seed)
    device = resolve_device(cfg.device)
    module = reader_module(cfg.model)
    model, featurizer, model_params = module.build(cfg.reader_config(), device)
    train = featurize(train_rows, featurizer)
    held = featurize(held_rows, featurizer, require_answer=False)
    history = module.fit(model, train, cfg.reader_config(), seed)
    heldout = evaluate(model, held)
    out = fold_dir(cfg.output, fold)
    save_state_dict(model, join(out, "model.pt"))
    extras = module.save_extras(out, featurizer)
    meta = {
        "fold": fold, "folds": k, "model": cfg.model, "seed": seed, "device": str(device),
        "trained_on_folds": [f for f in range(k) if f != fold], "heldout_fold": fold,
        "fold_assignment": "fold_of(article_id, k)", "fold_column_agrees": agrees,
        "rows": {"train": len(train_rows), "train_used": len(train.examples),
                 "train_skipped": train.skipped, "heldout": len(held_rows),
                 "heldout_scored": len(held.examples), "heldout_skipped": held.skipped},
        "articles": {"train": len({r["article_id"] for r in train_rows}),
                     "heldout": len(held_articles),
                     "train_sha256": articles_digest(train_rows)},
        "hyperparameters": cfg.hyperparameters(), "training": history,
        "heldout_accuracy": heldout["accuracy"], "heldout_random_baseline":
            heldout["random_baseline"], "heldout_n": heldout["n"],
        "checkpoint": "model.pt", "model_params": model_params,
        "featurizer": featurizer.params(), "extras": extras,
        "versions": {"torch": torch.__version__, "beam": beam.__version__},
        "elapsed_s": round(time.time() - t0, 2),
    }
    write_json(join(out, "metadata.json"), meta)
    log.info("fold %d/%d: done in %.1fs, held-out accuracy %.3f (random %.3f) on %d queries",
             fold, k, meta["elapsed_s"], heldout["accuracy"] or 0.0,
             heldout["random_baseline"] or 0.0, heldout["n"])
    return meta


class TrainFolds(beam.PTransform):
    """One element per fold, spread over workers; each trains and writes its reader."""

    def __init__(self, cfg: TrainFoldsConfig, hints: Optional[dict] = None):
        super().__init__()
        self.cfg, self.hints = cfg, hints or {}

    def expand(self, pbegin):
        return (pbegin
                | "Folds" >> beam.Create(list(range(self.cfg.folds)))
                | "SpreadFolds" >> beam.Reshuffle()
                | "TrainFold" >> beam.Map(train_fold, self.cfg).with_resource_hints(
                    **self.hints))


def train_summary(metas: list, cfg: TrainFoldsConfig) -> dict:
    metas = sorted(metas, key=lambda m: m["fold"])
    n = sum(m["heldout_n"] for m in metas)
    acc = sum((m["heldout_accuracy"] or 0) * m["heldout_n"] for m in metas)
    rnd = sum((m["heldout_random_baseline"] or 0) * m["heldout_n"] for m in metas)
    return {"job": "train_folds", "model": cfg.model, "folds": cfg.folds,
            "candidates": cfg.candidates, "per_fold": {str(m["fold"]): {
                "train_rows": m["rows"]["train"], "heldout_n": m["heldout_n"],
                "heldout_accuracy": m["heldout_accuracy"],
                "random_baseline": m["heldout_random_baseline"],
                "elapsed_s": m["elapsed_s"]} for m in metas},
            "heldout_n": n, "heldout_accuracy": acc / n if n else None,
            "random_baseline": rnd / n if n else None}


# ----------------------------------------------------------------------------- scoring

@dataclass(frozen=True)
class FilterConfig:
    candidates: str                    # DIR/candidates
    adversary: str                     # DIR/adversary
    output: str                        # DIR/filtered
    max_batch_size: int = 64
    min_batch_size: int = 1
    max_models_per_worker_hint: int = 2
    device: str = "auto"               # auto: GPU if hinted or present, else CPU


def load_adversary(adversary: str) -> list:
    """metadata.json of every fold, checked to form one k-fold set of one reader."""
    first = read_json(join(fold_dir(adversary, 0), "metadata.json"))
    metas = [first] + [read_json(join(fold_dir(adversary, f), "metadata.json"))
                       for f in range(1, first["folds"])]
    for f, m in enumerate(metas):
        if (m["fold"], m["folds"], m["model"]) != (f, first["folds"], first["model"]):
            raise ValueError(f"{fold_dir(adversary, f)}: metadata does not belong to a "
                             f"{first['folds']}-fold {first['model']} adversary")
    return metas


def load_fold_model(adversary: str, meta: dict, device="cpu") -> torch.nn.Module:
    """The fold's reader as the RunInference handler builds it (for loops and tools)."""
    model = reader_module(meta["model"]).Reader(**meta["model_params"])
    with fsspec.open(join(fold_dir(adversary, meta["fold"]), meta["checkpoint"]), "rb") as f:
        model.load_state_dict(torch.load(f, map_location=device))
    return model.to(device).eval()


class FoldModelHandler(KeyedModelHandler):
    """One PyTorch handler per fold. With several handlers Beam ignores their batch
    settings, so the batching of the whole RunInference is set here.

    A batch can span folds; each fold is scored on its own so that a failing fold model
    (say a corrupt checkpoint) fails only its own queries: they get an error result
    inline, or, when the batch holds that fold only, go to RunInference's dead letters."""

    def __init__(self, mappings, batch_kwargs: dict, max_models_per_worker_hint: int):
        super().__init__(mappings, max_models_per_worker_hint=max_models_per_worker_hint)
        self._batch_kwargs = dict(batch_kwargs)

    def batch_elements_kwargs(self):
        return self._batch_kwargs

    def run_inference(self, batch, model, inference_args=None):
        by_fold = {}
        for item in batch:
            by_fold.setdefault(item[0], []).append(item)
        if len(by_fold) == 1:
            return super().run_inference(batch, model, inference_args)
        out = []
        for key, items in by_fold.items():
            try:
                out.extend(super().run_inference(items, model, inference_args))
            except Exception as e:  # pylint: disable=broad-except
                error = {"error": f"{type(e).__name__}: {e}"}
                out.extend((key, (inner, PredictionResult(example, error)))
                           for key, (inner, example) in items)
        return out


class UnavailableModel(torch.nn.Module):
    """Stands in for a fold model that failed to load: every call raises the load error,
    so that fold's queries go to errors/ while the other folds are scored. (Raising from
    load_model instead would leave Beam's multi-model manager holding a dead entry.)"""

    def __init__(self, reason: str):
        super().__init__()
        self.reason = reason

    def forward(self, **_):
        raise RuntimeError(self.reason)


class NumpyKeyedTensorHandler(PytorchModelHandlerKeyedTensor):
    """The PyTorch keyed-tensor handler fed numpy arrays; `padded_inference_fn` pads them
    into tensors per batch."""

    def get_num_bytes(self, batch) -> int:
        return sum(v.nbytes for example in batch for v in example.values())

    def load_model(self):
        try:
            return super().load_model()
        except Exception as e:  # pylint: disable=broad-except
            reason = f"fold model {self._state_dict_path} failed to load: {type(e).__name__}: {e}"
            log.error(reason)
            return UnavailableModel(reason)


def fold_model_handler(adversary: str, metas: list, device: str, max_batch_size: int = 64,
                       min_batch_size: int = 1, max_models_per_worker_hint: int = 2):
    """KeyedModelHandler([KeyModelMapping(["fold0"], h0), ...]); each h_i is keyed in turn
    (by the candidate row), so predictions come back with the row they score."""
    mappings = []
    for m in metas:
        torch_handler = NumpyKeyedTensorHandler(
            state_dict_path=join(fold_dir(adversary, m["fold"]), m["checkpoint"]),
            model_class=reader_module(m["model"]).Reader, model_params=m["model_params"],
            device=device, inference_fn=padded_inference_fn)
        mappings.append(KeyModelMapping([fold_key(m["fold"])], KeyedModelHandler(torch_handler)))
    return FoldModelHandler(mappings, {"min_batch_size": min_batch_size,
                                       "max_batch_size": max_batch_size},
                            max_models_per_worker_hint)


def failure(row: dict, reason: str) -> dict:
    """A query that failed to score, with its reason."""
    return {"row": row, "error": reason[:2000]}


def error_row(f: dict) -> dict:
    """A row of errors/ (ERROR_SCHEMA)."""
    return {"id": f["row"].get("id"), "fold": f["row"].get("fold"), "error": f["error"]}


def unscored_row(f: dict) -> dict:
    """The failed candidate in scored/, with null prediction and correctness."""
    return dict(f["row"], adversary_prediction=None, adversary_correct=None)


class FeaturizeQuery(beam.DoFn):
    """row -> (fold key, (row, tensors)); rows that cannot be featurized go to `errors`."""
    ERRORS = "errors"

    def __init__(self, adversary: str, metas: list):
        self.adversary, self.metas = adversary, metas
        self.featurizers = None
        self.failed = beam.metrics.Metrics.counter(NAMESPACE, "featurize_errors")

    def setup(self):
        self.featurizers = {m["fold"]: reader_module(m["model"]).load_featurizer(
            fold_dir(self.adversary, m["fold"]), m) for m in self.metas}

    def process(self, row):
        fold = row["fold"]
        try:
            _, example = self.featurizers[fold](row)
        except Exception as e:  # pylint: disable=broad-except
            self.failed.inc()
            reason = str(e) if isinstance(e, ScoringError) else f"{type(e).__name__}: {e}"
            yield beam.pvalue.TaggedOutput(self.ERRORS, failure(row, reason))
            return
        yield fold_key(fold), (row, example)


class ToScoredRow(beam.DoFn):
    """(fold key, (row, PredictionResult)) -> the row with adversary_prediction/_correct."""
    ERRORS = "errors"

    def __init__(self):
        self.counters = {n: beam.metrics.Metrics.counter(NAMESPACE, n)
                         for n in ("kept", "dropped", "inference_errors")}

    def process(self, element):
        _, (row, result) = element
        scores = result.inference
        try:
            if isinstance(scores, dict):
                raise ScoringError("inference failed: " + scores["error"])
            cands = candidates(row)
            if len(cands) != len(scores):
                raise ScoringError(f"{len(scores)} scores for {len(cands)} candidates")
        except ScoringError as e:
            self.counters["inference_errors"].inc()
            yield beam.pvalue.TaggedOutput(self.ERRORS, failure(row, str(e)))
            return
        prediction = cands[int(torch.argmax(scores))].text   # ties: first candidate
        correct = prediction in answer_texts(row)
        self.counters["dropped" if correct else "kept"].inc()
        yield dict(row, adversary_prediction=prediction, adversary_correct=correct)


def failed_batch_rows(item):
    """RunInference's dead letters, (batch, (exception type, repr, traceback)), -> one
    failure per query of the batch."""
    batch, error = item
    if isinstance(error, tuple) and len(error) >= 2:
        error = error[1]
    for _, (row, _) in batch:
        yield failure(row, f"inference failed: {error}")


def assign_fold(row: dict, k: int) -> dict:
    return dict(row, fold=fold_of(row["article_id"], k))


class ScoreWithAdversary(beam.PTransform):
    """Candidate rows -> (scored rows, error rows), each query scored by its fold's reader.

    Every candidate comes out in the scored rows; those that failed carry null
    adversary_prediction / adversary_correct and have a row in errors (ERROR_SCHEMA)."""

    def __init__(self, cfg: FilterConfig, metas: list, device: str,
                 hints: Optional[dict] = None):
        super().__init__()
        self.cfg, self.metas, self.device, self.hints = cfg, metas, device, hints or {}

    def expand(self, rows):
        cfg = self.cfg
        handler = fold_model_handler(cfg.adversary, self.metas, self.device,
                                     cfg.max_batch_size, cfg.min_batch_size,
                                     cfg.max_models_per_worker_hint)
        feats = rows | "Featurize" >> beam.ParDo(
            FeaturizeQuery(cfg.adversary, self.metas)).with_outputs(
                FeaturizeQuery.ERRORS, main="examples")
        grouped = (feats.examples
                   | "GroupByFold" >> beam.GroupByKey()
                   | "FoldOrder" >> beam.FlatMap(lambda kv: ((kv[0], v) for v in kv[1])))
        predictions, dead = grouped | "RunInference" >> RunInference(
            handler).with_exception_handling().with_resource_hints(**self.hints)
        scored = predictions | "ToScoredRow" >> beam.ParDo(ToScoredRow()).with_outputs(
            ToScoredRow.ERRORS, main="scored")
        failed = dead.failed_inferences | "FailedBatches" >> beam.FlatMap(failed_batch_rows)
        failures = (feats.errors, scored.errors, failed) | "MergeFailures" >> beam.Flatten()
        unscored = failures | "Unscored" >> beam.Map(unscored_row)
        errors = failures | "ErrorRows" >> beam.Map(error_row)
        return (scored.scored, unscored) | "AllCandidates" >> beam.Flatten(), errors


def filter_stats(counts: list, metas: list) -> dict:
    """Per fold and total: in, scored, kept, dropped, errors; plus the drop share."""
    per = {str(m["fold"]): dict.fromkeys(("in", "scored", "kept", "dropped", "errors"), 0)
           for m in metas}
    for (fold, kind), n in counts:
        per.setdefault(str(fold), dict.fromkeys(("in", "scored", "kept", "dropped",
                                                 "errors"), 0))[kind] += n
    for c in per.values():
        c["scored"] = c["kept"] + c["dropped"]
    totals = {k: sum(c[k] for c in per.values()) for k in ("in", "scored", "kept", "dropped",
                                                           "errors")}
    totals["drop_share"] = totals["dropped"] / totals["scored"] if totals["scored"] else None
    return {"job": "adversarial_filter", "model": metas[0]["model"],
            "folds": len(metas), "per_fold": per, "totals": totals}
