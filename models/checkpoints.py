"""Fold checkpoints of the adversarial filter: where each fold's reader lives, how it is
saved, and how its metadata is read back (paper section 3.3).

A fold is finished when its `metadata.json` is in place: written last, atomically, with
the `fingerprint` of what the fold was trained from and the SHA-256 of its `model.pt`.
A rerun with the same fingerprint reuses the fold (`finished_fold`) instead of training it."""
import hashlib
import io
import json
import posixpath

import fsspec
import torch

from models import reader_module
from transforms.core.io_utils import join, read_json


def fold_key(fold: int) -> str:
    return f"fold{fold}"


def fold_dir(adversary: str, fold: int) -> str:
    return join(adversary, f"fold-{fold}")


def resolve_device(device: str) -> torch.device:
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    elif device == "gpu":
        device = "cuda"
    return torch.device(device)


METADATA = "metadata.json"


def write_atomic(url: str, data: bytes) -> None:
    """Write `data` beside `url`, then move it into place: a reader never sees it half
    written (a rename on local disks; object stores publish an object whole anyway)."""
    fs, path = fsspec.core.url_to_fs(url)
    fs.makedirs(posixpath.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with fs.open(tmp, "wb") as f:
        f.write(data)
    fs.mv(tmp, path)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def save_state_dict(model: torch.nn.Module, url: str) -> str:
    """Write the model's state dict atomically; returns the SHA-256 of the bytes written."""
    buf = io.BytesIO()
    torch.save({k: v.detach().cpu() for k, v in model.state_dict().items()}, buf)
    write_atomic(url, buf.getvalue())
    return sha256(buf.getvalue())


def fingerprint(parts: dict) -> str:
    blob = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return sha256(blob.encode("utf-8"))[:16]


def write_metadata(fold_url: str, meta: dict) -> None:
    """The fold's completion marker: written last, atomically."""
    write_atomic(join(fold_url, METADATA), (json.dumps(meta, indent=2) + "\n").encode())


def unfinish(fold_url: str) -> None:
    """Remove the fold's marker before it is retrained: a fold whose files are being
    rewritten is never taken as finished."""
    fs, path = fsspec.core.url_to_fs(join(fold_url, METADATA))
    if fs.exists(path):
        fs.rm(path)


def finished_fold(fold_url: str, expected: str) -> tuple:
    """(metadata, None) when the fold at `fold_url` finished with fingerprint `expected`
    and its checkpoint is the one it wrote; else (None, why it must be trained)."""
    try:
        meta = read_json(join(fold_url, METADATA))
    except FileNotFoundError:
        return None, "not trained yet"
    except (ValueError, OSError) as err:
        return None, f"{METADATA} unreadable ({err})"
    if not isinstance(meta, dict) or meta.get("fingerprint") is None:
        return None, "no fingerprint in its metadata"
    if meta["fingerprint"] != expected:
        return None, "trained from other inputs or settings"
    try:
        with fsspec.open(join(fold_url, meta.get("checkpoint", "model.pt")), "rb") as f:
            found = sha256(f.read())
    except (FileNotFoundError, OSError) as err:
        return None, f"checkpoint unreadable ({err})"
    if found != meta.get("checkpoint_sha256"):
        return None, "checkpoint does not match its metadata"
    return meta, None


def _metadata(adversary: str, fold: int) -> dict:
    path = join(fold_dir(adversary, fold), "metadata.json")
    try:
        meta = read_json(path)
    except FileNotFoundError:
        raise FileNotFoundError(f"{path} is missing; run train_folds first") from None
    except ValueError as err:
        raise ValueError(f"{path} is not valid JSON ({err})") from None
    if not isinstance(meta, dict):
        raise ValueError(f"{path} does not hold a fold's metadata")
    return meta


def load_adversary(adversary: str) -> list:
    """metadata.json of every fold, checked to form one k-fold set of one reader."""
    first = _metadata(adversary, 0)
    metas = [first] + [_metadata(adversary, f) for f in range(1, first["folds"])]
    for f, m in enumerate(metas):
        if (m.get("fold"), m.get("folds"), m.get("model")) != (f, first["folds"],
                                                               first["model"]):
            raise ValueError(f"{fold_dir(adversary, f)}: metadata does not belong to a "
                             f"{first['folds']}-fold {first['model']} adversary")
    return metas


def load_fold_model(adversary: str, meta: dict, device="cpu") -> torch.nn.Module:
    """The fold's reader as the RunInference handler builds it (for loops and tools)."""
    model = reader_module(meta["model"]).Reader(**meta["model_params"])
    with fsspec.open(join(fold_dir(adversary, meta["fold"]), meta["checkpoint"]), "rb") as f:
        model.load_state_dict(torch.load(f, map_location=device))
    return model.to(device).eval()
