"""Readers of the adversarial filter (paper section 3.3), both scoring candidate entities.

Each reader module exposes: NAME, a frozen config dataclass, `Reader` (torch module),
`Featurizer` (row -> (candidates, dict of numpy arrays)), `make_featurizer` (config ->
the featurizer every fold shares), `build`, `fit` (on in-memory or streamed rows),
`save_extras`, `load_featurizer`.
"""
import importlib

READERS = ("lexical", "transformer")


def reader_module(name: str):
    """The module of reader `name`, imported lazily (lexical never imports transformers)."""
    if name not in READERS:
        raise ValueError(f"unknown reader {name!r}; expected one of {READERS}")
    return importlib.import_module(f"models.{name}")
