"""Small fsspec helpers shared by the stages (local paths and gs:// alike).

Every remote read is bounded: importing this module gives fsspec's `gs://` and `http(s)://`
file systems a timeout per request (`REQUEST_TIMEOUT_S`; gcsfs then retries a few times
and raises), unless the user's fsspec configuration sets its own.
"""
import json
import posixpath

import fsspec
import pyarrow as pa
import pyarrow.parquet as pq

REQUEST_TIMEOUT_S = 60
CONNECT_TIMEOUT_S = 20


def bound_remote_reads(conf=None, request_s: float = REQUEST_TIMEOUT_S,
                       connect_s: float = CONNECT_TIMEOUT_S) -> dict:
    """fsspec's configuration (or `conf`) with request timeouts for gcsfs and HTTP (set
    where the configuration has none)."""
    conf = fsspec.config.conf if conf is None else conf
    conf.setdefault("gs", {}).setdefault("requests_timeout", request_s)
    try:
        import aiohttp
    except ImportError:  # pragma: no cover - gcsfs brings aiohttp
        return conf
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=connect_s, sock_read=request_s)
    for proto in ("http", "https"):
        conf.setdefault(proto, {}).setdefault("client_kwargs", {}).setdefault("timeout", timeout)
    return conf


bound_remote_reads()


def join(base: str, *parts: str) -> str:
    """Join URL-ish paths without mangling `gs://`."""
    return posixpath.join(base.rstrip("/"), *parts)


def glob(pattern: str, files_only: bool = False) -> list[str]:
    """Sorted matches of an fsspec pattern (`*`, `?`, `[...]`), with their protocol."""
    fs, path = fsspec.core.url_to_fs(pattern)
    if any(ch in path for ch in "*?["):
        paths = fs.glob(path)
    else:
        paths = [path] if fs.exists(path) else []
    if files_only:
        paths = [p for p in paths if not fs.isdir(p)]
    protocol = fs.protocol if isinstance(fs.protocol, str) else fs.protocol[0]
    prefix = "" if protocol in ("file", "local") else protocol + "://"
    return sorted(prefix + p for p in paths)


def glob_sizes(pattern: str) -> list:
    """Sorted (path, size) of the files (not folders) an fsspec pattern matches."""
    fs, path = fsspec.core.url_to_fs(pattern)
    if any(ch in path for ch in "*?["):
        found = fs.glob(path, detail=True)
    else:
        found = {path: fs.info(path)} if fs.exists(path) else {}
    protocol = fs.protocol if isinstance(fs.protocol, str) else fs.protocol[0]
    prefix = "" if protocol in ("file", "local") else protocol + "://"
    return sorted((prefix + p, int(info.get("size") or 0)) for p, info in found.items()
                  if info.get("type") != "directory")


def version_of(info: dict) -> str:
    """What changes when a file is rewritten: generation/etag on object stores, else mtime."""
    for key in ("generation", "etag", "ETag", "mtime", "LastModified", "updated"):
        if info.get(key) not in (None, ""):
            return str(info[key])
    return ""


def glob_details(pattern: str) -> list:
    """Sorted (path, size, version) of the files an fsspec pattern matches."""
    fs, path = fsspec.core.url_to_fs(pattern)
    if any(ch in path for ch in "*?["):
        found = fs.glob(path, detail=True)
    else:
        found = {path: fs.info(path)} if fs.exists(path) else {}
    protocol = fs.protocol if isinstance(fs.protocol, str) else fs.protocol[0]
    prefix = "" if protocol in ("file", "local") else protocol + "://"
    return sorted((prefix + p, int(info.get("size") or 0), version_of(info))
                  for p, info in found.items() if info.get("type") != "directory")


def read_parquet(pattern: str, columns=None, filters=None) -> pa.Table:
    """Read every Parquet file matching `pattern` into one table (sorted file order).

    Single-threaded: pyarrow's reader threads can abort a short-lived command at exit
    ("terminate called without an active exception", apache/arrow#34314)."""
    files = glob(pattern)
    if not files:
        raise FileNotFoundError(f"no Parquet files match {pattern}")
    tables = []
    for path in files:
        with fsspec.open(path, "rb") as f:
            tables.append(pq.read_table(f, columns=columns, filters=filters,
                                        use_threads=False))
    return pa.concat_tables(tables)


def write_json(url: str, obj) -> None:
    fs, path = fsspec.core.url_to_fs(url)
    fs.makedirs(posixpath.dirname(path), exist_ok=True)
    with fs.open(path, "w") as f:
        json.dump(obj, f, indent=2)
        f.write("\n")


def read_json(url: str):
    with fsspec.open(url, "r") as f:
        return json.load(f)
