"""`validate`'s checks of the release's browsing aids: `lm_eval/` and `explorer/` hold
exactly the files finalize writes for this release (the lm-eval task is code a user runs,
`data.js` a script the page runs), so a line added to either is named even when its
manifest entry was rewritten.
"""
import json
import re

import fsspec

from transforms.core import io_utils

_DATA_JS = re.compile(r"\Awindow\.EXPLORER_DATA = (.*);\n\Z", re.S)


def _exists(url: str) -> bool:
    fs, path = fsspec.core.url_to_fs(url)
    return fs.exists(path)


def _read_bytes(url: str) -> bytes:
    with fsspec.open(url, "rb") as f:
        return f.read()


def _folder_files(got: dict, folder: str) -> set:
    return {n for n in got["files"] if n.startswith(folder + "/")}


def check_lm_eval(root: str, stats: dict, got: dict):
    """lm_eval/ holds exactly the two files finalize writes for this release, byte for byte
    (a utils.py given one more line is named even when its manifest entry was rewritten)."""
    from transforms.finalize.exports import lm_eval_export
    settings = (stats.get("config") or {}).get("settings") or {}
    task = settings.get("lm_eval_task")
    if not task:
        return
    rows = lm_eval_export.task_rows(stats)
    shards = {n: e.get("sha256") for n, e in got["files"].items()
              if lm_eval_export.SHARD_PATTERN.match(n)}
    expected = lm_eval_export.expected_files(task, rows, shards)
    for name in sorted(_folder_files(got, lm_eval_export.FOLDER) - set(expected)):
        yield f"{name}: not a file finalize writes (lm_eval/ holds {sorted(expected)})"
    for name, text in sorted(expected.items()):
        path = io_utils.join(root, name)
        if not _exists(path):
            yield f"{name} is missing"
        elif _read_bytes(path) != text.encode("utf-8"):
            yield f"{name}: differs from the file finalize writes for this release"


def check_explorer(root: str):
    """explorer/ holds the page finalize writes and a data.js that is one JSON value."""
    from transforms.finalize.report import explorer
    folder = io_utils.join(root, explorer.FOLDER)
    if not _exists(folder):
        return
    fs, path = fsspec.core.url_to_fs(folder)
    names = sorted(p.rsplit("/", 1)[-1] for p in fs.find(path))
    for name in names:
        if name not in ("index.html", "data.js"):
            yield f"explorer/{name}: not a file finalize writes"
    page = io_utils.join(folder, "index.html")
    if _exists(page) and _read_bytes(page) != explorer.page().encode("utf-8"):
        yield "explorer/index.html: differs from the page finalize writes"
    data = io_utils.join(folder, "data.js")
    if _exists(data):
        found = _DATA_JS.match(_read_bytes(data).decode("utf-8", errors="replace"))
        try:
            json.loads(found.group(1)) if found else None
        except ValueError:
            found = None
        if not found:
            yield "explorer/data.js: not `window.EXPLORER_DATA = <JSON>;` (the page runs it)"
