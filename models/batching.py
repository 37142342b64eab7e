"""Per-batch padding, shared by training, the plain scoring loop and RunInference.

An example is a dict of numpy arrays (cheap to pickle through a Beam shuffle, unlike
torch tensors) whose first dimension varies (candidates or tokens); `n_cand` (shape [1]) is
its number of candidates. Beam's default torch inference fn stacks tensors, which fails on
ragged examples, so `padded_inference_fn` pads instead.
"""
from typing import Any, Iterable, Optional, Sequence

import torch
from torch.nn.utils.rnn import pad_sequence

PAD_VALUES = {"cand_index": -1}   # everything else pads with 0
MASKED = -1e4                     # score of a padded candidate slot


def pad_batch(examples: Sequence[dict]) -> dict:
    """Pad every key along its first dimension and stack: [B, max_len, ...]."""
    return {k: pad_sequence([torch.as_tensor(e[k]) for e in examples], batch_first=True,
                            padding_value=PAD_VALUES.get(k, 0))
            for k in examples[0]}


def candidate_mask(n_cand: torch.Tensor, n_max: int) -> torch.Tensor:
    """[B, n_max] bool: True where a slot holds a real candidate."""
    return torch.arange(n_max, device=n_cand.device)[None, :] < n_cand.view(-1, 1)


def model_device(model: torch.nn.Module) -> torch.device:
    return next(model.parameters()).device


def usable_device(device: Any) -> torch.device:
    device = torch.device(device)
    return device if device.type != "cuda" or torch.cuda.is_available() else torch.device("cpu")


@torch.no_grad()
def score_batch(model: torch.nn.Module, examples: Sequence[dict], device: Any) -> list:
    """Scores of each example's candidates, as CPU tensors of length n_cand.

    `model` may be Beam's cross-process proxy of the module: only call it."""
    batch = {k: v.to(device) for k, v in pad_batch(examples).items()}
    scores = model(**batch).float().cpu()
    return [scores[i, :int(e["n_cand"][0])] for i, e in enumerate(examples)]


def score_loop(model: torch.nn.Module, examples: Sequence[dict], batch_size: int = 64) -> list:
    """The plain batched torch loop (evaluation and the benchmark's reference)."""
    model.eval()
    device, out = model_device(model), []
    for i in range(0, len(examples), batch_size):
        out.extend(score_batch(model, examples[i:i + batch_size], device))
    return out


def padded_inference_fn(batch: Sequence[dict], model: torch.nn.Module, device: Any,
                        inference_args: Optional[dict] = None,
                        model_id: Optional[str] = None) -> Iterable:
    """`inference_fn` for PytorchModelHandlerKeyedTensor: pads instead of stacking.

    If the padded batch fails, each example is retried alone so one bad query does not
    take its batch with it; an example that still fails gets `{"error": reason}`.
    """
    from apache_beam.ml.inference.base import PredictionResult
    device = usable_device(device)
    try:
        scores = score_batch(model, batch, device)
    except Exception:  # pylint: disable=broad-except
        scores = []
        for example in batch:
            try:
                scores.extend(score_batch(model, [example], device))
            except Exception as e:  # pylint: disable=broad-except
                scores.append({"error": f"{type(e).__name__}: {e}"})
    return [PredictionResult(x, s, model_id) for x, s in zip(batch, scores)]
