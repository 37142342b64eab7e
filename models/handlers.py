"""RunInference model handlers of the adversarial filter: one PyTorch handler per fold,
keyed by fold, fed numpy features (paper section 3.3)."""
import logging

import torch
from apache_beam.ml.inference.base import (
    KeyedModelHandler,
    KeyModelMapping,
    PredictionResult,
)
from apache_beam.ml.inference.pytorch_inference import PytorchModelHandlerKeyedTensor

from models import reader_module
from models.batching import padded_inference_fn
from models.checkpoints import fold_dir, fold_key
from transforms.core.io_utils import join

log = logging.getLogger(__name__)


class FoldModelHandler(KeyedModelHandler):
    """One PyTorch handler per fold. With several handlers Beam ignores their batch
    settings, so the batching of the whole RunInference is set here; `prebatched`: the
    input is already batches (lists of (fold key, (row, example))), RunInference skips
    its own BatchElements. (Beam's `with_no_batching()` wrapper does not pass the keyed
    handler's per-model metrics on, so the keyed handler says it itself.)

    A batch can span folds; each fold is scored on its own so that a failing fold model
    (say a corrupt checkpoint) fails only its own queries: they get an error result
    inline, or, when the batch holds that fold only, go to RunInference's dead letters."""

    def __init__(self, mappings, batch_kwargs: dict, max_models_per_worker_hint: int,
                 prebatched: bool = False):
        super().__init__(mappings, max_models_per_worker_hint=max_models_per_worker_hint)
        self._batch_kwargs = dict(batch_kwargs)
        self._prebatched = prebatched

    def batch_elements_kwargs(self):
        return self._batch_kwargs

    def should_skip_batching(self) -> bool:
        return self._prebatched

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
                       min_batch_size: int = 1, max_models_per_worker_hint: int = 2,
                       prebatched: bool = False):
    """KeyedModelHandler([KeyModelMapping(["fold0"], h0), ...]); each h_i is keyed in turn
    (by the candidate row), so predictions come back with the row they score.
    `prebatched`: RunInference receives batches (the filter forms them per fold with
    GroupIntoBatches) instead of batching with the min/max batch sizes."""
    mappings = []
    for m in metas:
        torch_handler = NumpyKeyedTensorHandler(
            state_dict_path=join(fold_dir(adversary, m["fold"]), m["checkpoint"]),
            model_class=reader_module(m["model"]).Reader, model_params=m["model_params"],
            device=device, inference_fn=padded_inference_fn)
        mappings.append(KeyModelMapping([fold_key(m["fold"])], KeyedModelHandler(torch_handler)))
    return FoldModelHandler(mappings, {"min_batch_size": min_batch_size,
                                       "max_batch_size": max_batch_size},
                            max_models_per_worker_hint, prebatched)
