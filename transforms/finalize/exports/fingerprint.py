"""The release fingerprint: one sha256 that names every byte of a released folder.

What it covers (docs/dataset-contract.md, "Release fingerprint"): the sha256 of the
canonical JSON (`sort_keys`, separators `,` and `:`, ASCII) of the `files` map of
`_MANIFEST.json` (every file's `size`, `rows` for Parquet, `sha256`), with one change: the
card's (`README.md`) entry is that of the card with its fingerprint value written as 64
zeros. The card states the fingerprint, so hashing the stamped card would be circular; the
masked card still covers every other byte of it (a changed licence changes the
fingerprint). `_MANIFEST.json` itself is not a file of its own map.

`stamp` is finalize's last step before the manifest is written: it computes the value from
the folder and writes it on the card; `validate` recomputes it from the files and compares
it with the card's and with `--expect`.
"""
import hashlib
import json
import re
from typing import Optional

CARD = "README.md"
ZEROS = "0" * 64
PREFIX = "sha256:"
_STATED = re.compile(r"Release fingerprint: `sha256:([0-9a-f]{64})`")


def card_lines() -> list:
    """The card's section (the value is filled in by `stamp` once every file is written)."""
    return ["## Release fingerprint", "",
            f"Release fingerprint: `{PREFIX}{ZEROS}`", "",
            "The sha256 of `_MANIFEST.json`'s `files` map as canonical JSON, this card's entry "
            "taken with the value above written as 64 zeros: it names every byte of the "
            "release. `python -m beam_pipelines.validate DIR --expect FINGERPRINT` "
            "recomputes it from the files."]


def stated(card_text: str) -> list:
    """Every fingerprint the card states (a stamped card states exactly one)."""
    return _STATED.findall(card_text)


def masked(card_text: str) -> str:
    """The card with the fingerprint it states written as zeros (the hashed form)."""
    return _STATED.sub(f"Release fingerprint: `{PREFIX}{ZEROS}`", card_text)


def compute(files: dict, card_bytes: Optional[bytes]) -> str:
    """The fingerprint of a manifest's `files` map, `card_bytes` being the card as written
    (its entry is replaced by the masked card's); 64 hex digits."""
    entries = {name: dict(entry) for name, entry in files.items()}
    if card_bytes is not None:
        card = masked(card_bytes.decode("utf-8", errors="surrogateescape")).encode(
            "utf-8", errors="surrogateescape")
        entries[CARD] = {"size": len(card), "sha256": hashlib.sha256(card).hexdigest()}
    blob = json.dumps(entries, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(blob.encode("ascii")).hexdigest()


def on_card(dataset: str) -> str:
    """`sha256:<hex>` as the card of the release at `dataset` states it (a courtesy for
    messages: `validate` checks it against the files)."""
    import fsspec
    try:
        with fsspec.open(f"{dataset.rstrip('/')}/{CARD}", "r", encoding="utf-8") as f:
            found = stated(f.read())
    except (OSError, UnicodeDecodeError):
        found = []
    return f"{PREFIX}{found[0]}" if len(found) == 1 else "(none on the card)"


def normalise(value: str) -> str:
    """A fingerprint as given by a user (`sha256:` prefix optional, any case)."""
    value = value.strip().lower()
    return value[len(PREFIX):] if value.startswith(PREFIX) else value


def stamp(folder: str) -> tuple:
    """(fingerprint, the folder's manifest) after writing the fingerprint on the card; the
    manifest is not written (the caller writes it once, from this)."""
    import fsspec

    from transforms.core import manifest
    m = manifest.describe(folder)
    fs, root = fsspec.core.url_to_fs(folder)
    path = f"{root.rstrip('/')}/{CARD}"
    with fs.open(path, "rb") as f:
        card = f.read()
    value = compute(m["files"], card)
    text = card.decode("utf-8")
    if len(stated(text)) != 1:
        raise ValueError(f"{CARD} must hold exactly one release fingerprint line")
    stamped = _STATED.sub(f"Release fingerprint: `{PREFIX}{value}`", text).encode("utf-8")
    with fs.open(path, "wb") as f:
        f.write(stamped)
    m["files"][CARD] = dict(m["files"][CARD], size=len(stamped),
                            sha256=hashlib.sha256(stamped).hexdigest())
    return value, m
