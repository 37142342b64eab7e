"""Process-level costs of running spaCy in a Beam worker: importing it and exiting.

- thinc (under spaCy) imports torch whenever torch is installed, and it is (for the adversary).
  A CNN pipeline such as en_core_web_sm never uses it: the import costs ~1.4 s and ~180 MB per
  worker process. `import_spacy` imports spaCy without torch when the pipeline does not need it.
- At exit, Python's garbage collector walks every object of the interpreter, models included:
  ~1.1 s per worker with spaCy and Beam loaded, and the local runner stops its workers one after
  the other. `freeze_long_lived` moves what is loaded once per worker out of the collector's sight
  (the worker then exits in ~0.1 s).
"""
import gc
import importlib.util
import json
import os
import pathlib
import sys
import threading

# Pipeline components and package requirements that run on torch (through thinc).
TORCH_COMPONENTS = ("transformer", "curated_transformer")
TORCH_REQUIREMENTS = ("spacy-transformers", "spacy_transformers", "spacy-curated-transformers",
                      "spacy_curated_transformers", "torch")


def model_meta(model: str):
    """meta.json of an installed spaCy pipeline package or a pipeline folder; None if unknown."""
    candidates = []
    path = pathlib.Path(model)
    if path.is_dir():
        candidates.append(path / "meta.json")
    else:
        try:
            spec = importlib.util.find_spec(model)
        except (ImportError, ValueError):
            spec = None
        for location in (spec.submodule_search_locations or []) if spec else []:
            candidates.append(pathlib.Path(location) / "meta.json")
    for candidate in candidates:
        try:
            return json.loads(candidate.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
    return None


def _runs_on_torch(meta: dict) -> bool:
    requirements = " ".join(meta.get("requirements") or []).lower()
    components = set(meta.get("pipeline") or []) | set(meta.get("components") or [])
    return (any(r in requirements for r in TORCH_REQUIREMENTS)
            or any(c in components for c in TORCH_COMPONENTS))


def needs_torch(model: str) -> bool:
    """Whether a spaCy pipeline runs on torch; True when its meta.json cannot be read."""
    meta = model_meta(model)
    return meta is None or _runs_on_torch(meta)


_IMPORT_LOCK = threading.Lock()   # SDK harnesses set up DoFns on several threads
_FROZEN = False


def import_spacy(model: str):
    """`import spacy`; without importing torch when `model` does not need it and neither spaCy,
    thinc nor torch is loaded yet. `import torch` keeps working afterwards for code that needs it
    (the adversary uses torch directly, not through thinc), but thinc stays torch-less for the
    life of the process: a torch-based spaCy pipeline asked for later gets a clear error."""
    meta = model_meta(model)
    with _IMPORT_LOCK:
        loaded = any(name in sys.modules for name in ("spacy", "thinc", "torch"))
        if loaded or meta is None or _runs_on_torch(meta):
            import spacy
            compat = sys.modules.get("thinc.compat")
            if (meta is not None and _runs_on_torch(meta) and compat is not None
                    and not compat.has_torch and importlib.util.find_spec("torch")):
                raise RuntimeError(
                    f"spaCy pipeline {model!r} runs on torch, but this process imported spaCy "
                    "without torch for a CNN pipeline earlier; load it in a fresh process "
                    "(a new job or worker)")
            return spacy
        sys.modules["torch"] = None  # thinc.compat then records has_torch = False
        try:
            import spacy
        finally:
            if sys.modules.get("torch", 0) is None:
                del sys.modules["torch"]
        return spacy


def in_worker_process() -> bool:
    """Whether this is a Beam SDK worker process started with its control endpoint in the
    environment (the local multi-process runner, the SDK containers of Dataflow and of portable
    runners), not the process that built the pipeline (the in-process runner, a test session)."""
    return bool(os.environ.get("CONTROL_API_SERVICE_DESCRIPTOR"))


def freeze_long_lived() -> bool:
    """In a worker process, once per process: keep everything alive now (imported modules, the
    loaded model) out of future garbage collections, so that the worker exits in ~0.1 s instead
    of ~1.2 s. Call once the model is loaded. Elsewhere nothing happens (cycles alive now could
    then never be collected)."""
    global _FROZEN
    with _IMPORT_LOCK:
        if _FROZEN or not in_worker_process():
            return False
        gc.freeze()
        _FROZEN = True
        return True
