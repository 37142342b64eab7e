"""Hugging Face `datasets` inputs (issue 19 item 2): folders written by `save_to_disk` and
bare `.arrow` files.

- A `Dataset.save_to_disk` folder holds `state.json` (its `_data_files`, in order),
  `dataset_info.json` and `data-NNNNN-of-NNNNN.arrow` shards; a `DatasetDict` folder holds
  `dataset_dict.json` (its `splits`) and one such folder per split. `--input FOLDER` reads
  every shard of every split (or name one split's folder: `FOLDER/test`); a split folder
  that is missing, or a data file that is missing or lies outside its folder
  (`../elsewhere.arrow`, a link out), stops the run with one line. A folder with
  only `dataset_info.json` (`load_dataset`'s cache) gives its `.arrow` files in name order,
  `cache-*.arrow` (the results of `map`/`filter`) left out.
- `.arrow` files are Arrow IPC streams (as `datasets` writes them; the IPC file format is
  read too), read one record batch at a time, never whole.
Rows are the same records as CSV/JSON lines/Parquet rows (`readers.article_from_mapped`),
so one corpus gives the same Articles in every layout.
"""
import json
import posixpath
from typing import Iterator, Optional

import fsspec

MARKERS = ("dataset_dict.json", "state.json", "dataset_info.json")
_FILE_MAGIC = b"ARROW1"


def _fs_path(url: str):
    fs, path = fsspec.core.url_to_fs(url)
    protocol = fs.protocol if isinstance(fs.protocol, str) else fs.protocol[0]
    prefix = "" if protocol in ("file", "local") else protocol + "://"
    return fs, path.rstrip("/"), prefix


def is_datasets_folder(url: str) -> bool:
    """A folder `save_to_disk` wrote (its `dataset_dict.json` or `state.json`)."""
    fs, path, _ = _fs_path(url)
    try:
        return fs.isdir(path) and any(fs.exists(f"{path}/{m}") for m in MARKERS)
    except Exception:  # noqa: BLE001 - not readable: not ours to say
        return False


def _read_json(fs, path: str) -> dict:
    with fs.open(path, "rb") as f:
        return json.load(f)


def datasets_files(url: str) -> list:
    """[(path, size)] of the `.arrow` shards of a `datasets` folder, split by split in the
    order `dataset_dict.json` lists them, shards in `state.json` order. Raises ValueError
    (one line) for a folder whose files do not say where its shards are."""
    fs, path, prefix = _fs_path(url)
    if fs.exists(f"{path}/dataset_dict.json"):
        splits = _read_json(fs, f"{path}/dataset_dict.json").get("splits")
        if not isinstance(splits, list) or not splits:
            raise ValueError(f"{url}/dataset_dict.json lists no splits")
        out = []
        for split in splits:
            if not isinstance(split, str) or not _plain_name(split):
                raise ValueError(f"{url}/dataset_dict.json names split {split!r}: not a "
                                 "folder name inside it")
            if not is_datasets_folder(prefix + f"{path}/{split}"):
                raise ValueError(f"{url}/dataset_dict.json lists split {split!r}, but "
                                 f"{url}/{split} is not a `datasets` folder (missing, or no "
                                 "state.json): the dataset is incomplete")
            out += datasets_files(prefix + f"{path}/{split}")
        return out
    if not fs.exists(f"{path}/state.json"):     # load_dataset's cache folder
        names = sorted(p for p in fs.glob(f"{path}/*.arrow")
                       if not posixpath.basename(p).startswith("cache-"))
        return [(prefix + p, int(fs.info(p).get("size") or 0)) for p in names]
    state = _read_json(fs, f"{path}/state.json")
    shards = state.get("_data_files") if isinstance(state, dict) else None
    if not isinstance(shards, list) or not shards or not all(
            isinstance(s, dict) and isinstance(s.get("filename"), str) for s in shards):
        raise ValueError(f"{url}/state.json lists no `_data_files`")
    out = []
    for shard in shards:
        name = posixpath.normpath(f"{path}/{shard['filename']}")
        if not _plain_name(shard["filename"]) or not _inside(fs, name, path):
            raise ValueError(f"{url}/state.json names data file {shard['filename']!r} "
                             "outside its folder: refused")
        if not fs.exists(name):
            raise ValueError(f"{url}/state.json names data file {shard['filename']!r}, "
                             "which is missing: the dataset is incomplete")
        out.append((prefix + name, int(fs.info(name).get("size") or 0)))
    return out


def _plain_name(name: str) -> bool:
    """A file or folder name inside a folder (no separator, no `..`, not absolute)."""
    return bool(name) and "/" not in name and "\\" not in name and name not in (".", "..")


def _inside(fs, name: str, folder: str) -> bool:
    """`name` resolves inside `folder` (local files: symbolic links followed too)."""
    import os
    if "file" in (fs.protocol if isinstance(fs.protocol, tuple) else (fs.protocol,)):
        real, root = os.path.realpath(name), os.path.realpath(folder)
        return os.path.commonpath([real, root]) == root
    return posixpath.normpath(name).startswith(folder.rstrip("/") + "/")


def record_batches(f) -> Iterator:
    """Record batches of an Arrow IPC stream (or IPC file) one at a time."""
    import pyarrow as pa
    head = f.read(len(_FILE_MAGIC))
    f.seek(0)
    if head == _FILE_MAGIC:
        reader = pa.ipc.open_file(f)
        for i in range(reader.num_record_batches):
            yield reader.get_batch(i)
        return
    yield from pa.ipc.open_stream(f)


def count_rows(path: str) -> Optional[int]:
    """Rows of a local `.arrow` file (memory-mapped: batch headers only), else None."""
    import pyarrow as pa
    fs, local, _ = _fs_path(path)
    if "file" not in (fs.protocol if isinstance(fs.protocol, tuple) else (fs.protocol,)):
        return None
    with pa.memory_map(local) as source:
        return sum(batch.num_rows for batch in record_batches(source))
