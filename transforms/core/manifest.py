"""Manifests: what a stage wrote (files, sizes, row counts), so the next stage can check
that its input is exactly that before it runs, and `build` can tell a finished stage from
a damaged one (a shard deleted after the run).

`<folder>/_MANIFEST.json` = {"files": {name: {"size": bytes, "rows": n, "sha256": hex}},
"rows": total}. Row counts come from Parquet footers; other files have no `rows`. The
sha256 of every file lets a downloader (and `validate`, and `build` before it skips a
stage) tell a rewritten file from the one the stage wrote, even at the same size and row
count. Manifests written before hashes existed have none, and are checked by size only.
"""
import hashlib
import json
import posixpath
from typing import Optional

import fsspec

NAME = "_MANIFEST.json"


class ManifestError(ValueError):
    """The input does not match what the upstream stage wrote."""


def _fs(url):
    return fsspec.core.url_to_fs(url)


def describe(folder: str, rows: bool = True, hashes: bool = True) -> dict:
    """The manifest of every file under `folder` (recursive), the manifest itself excluded;
    `rows=False` skips the Parquet footers, `hashes=False` the sha256 (reads every byte)."""
    fs, root = _fs(folder)
    root = root.rstrip("/")
    files = {}
    if fs.exists(root):
        for path, info in sorted(fs.find(root, detail=True).items()):
            name = path[len(root) + 1:]
            if posixpath.basename(name) == NAME or info.get("type") == "directory":
                continue
            entry = {"size": int(info.get("size") or 0)}
            if rows and name.endswith(".parquet"):
                entry["rows"] = parquet_rows(fs, path)
            if hashes:
                entry["sha256"] = sha256_of(fs, path)
            files[name] = entry
    total = sum(f.get("rows") or 0 for f in files.values())
    return {"files": files, "rows": total}


def parquet_rows(fs, path) -> Optional[int]:
    import pyarrow.parquet as pq
    try:
        with fs.open(path, "rb") as f:
            return pq.ParquetFile(f).metadata.num_rows
    except Exception:  # noqa: BLE001 - an unreadable shard has no row count
        return None


def sha256_of(fs, path, block: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with fs.open(path, "rb") as f:
        for chunk in iter(lambda: f.read(block), b""):
            h.update(chunk)
    return h.hexdigest()


def write(folder: str, described: Optional[dict] = None) -> dict:
    """Describe `folder` (or take `described`, its description made just before) and store
    the manifest inside it; returns the manifest."""
    m = describe(folder) if described is None else described
    fs, root = _fs(folder)
    fs.makedirs(root, exist_ok=True)
    with fs.open(posixpath.join(root.rstrip("/"), NAME), "w") as f:
        json.dump(m, f, indent=1, sort_keys=True)
    return m


def read(folder: str) -> Optional[dict]:
    """The stored manifest of `folder`, or None when there is none or it is unreadable."""
    fs, root = _fs(folder)
    path = posixpath.join(root.rstrip("/"), NAME)
    try:
        with fs.open(path, "r") as f:
            m = json.load(f)
        return m if isinstance(m, dict) and isinstance(m.get("files"), dict) else None
    except (FileNotFoundError, ValueError, OSError):
        return None


def unhashed(m: dict) -> list:
    """Names of the entries that carry no sha256 (they could change unseen)."""
    return sorted(name for name, e in m.get("files", {}).items()
                  if not (isinstance(e, dict) and isinstance(e.get("sha256"), str)
                          and len(e["sha256"]) == 64))


def differences(expected: dict, actual: dict, limit: int = 3) -> list:
    """What differs between two manifests, as short sentences (empty: identical)."""
    out = []
    want, got = expected.get("files", {}), actual.get("files", {})
    for name in sorted(set(want) - set(got))[:limit]:
        out.append(f"{name} is missing")
    for name in sorted(set(got) - set(want))[:limit]:
        out.append(f"{name} was not written by this stage")
    for name in sorted(set(want) & set(got)):
        change = file_change(want[name], got[name])
        if change:
            out.append(f"{name} changed ({change})")
            if len(out) >= 3 * limit:
                break
    return out


def file_change(a: dict, b: dict) -> Optional[str]:
    """How entry `b` differs from the stored entry `a` (None: the same file). Fields one
    side lacks (rows of a quick listing, hashes of an old manifest) are not compared."""
    for key in ("size", "rows", "sha256"):
        if key in a and key in b and a[key] != b[key]:
            if key == "sha256":
                return "content differs from the sha256 in the manifest"
            return f"{key} {a[key]} -> {b[key]}"
    return None


def check(folder: str, what: str = "input") -> dict:
    """The folder's manifest after checking the files match it; raises ManifestError."""
    stored = read(folder)
    if stored is None:
        raise ManifestError(f"{folder} has no readable {NAME}: it was not written by a "
                            f"finished stage (rerun the stage that writes it)")
    problems = differences(stored, describe(folder))
    if problems:
        raise ManifestError(f"{what} {folder} does not match its manifest: "
                            + "; ".join(problems) + " (rerun the stage that writes it)")
    return stored


def digest(m: dict) -> str:
    blob = json.dumps(m, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]
