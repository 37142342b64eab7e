"""Fold checkpoints of the adversarial filter: where each fold's reader lives, how it is
saved, and how its metadata is read back (paper section 3.3)."""
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
    return torch.device(device)


def save_state_dict(model: torch.nn.Module, url: str) -> None:
    fs, path = fsspec.core.url_to_fs(url)
    fs.makedirs(path.rsplit("/", 1)[0], exist_ok=True)
    with fs.open(path, "wb") as f:
        torch.save({k: v.detach().cpu() for k, v in model.state_dict().items()}, f)


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
