"""File helpers of the finalize stage (any fsspec URL): writing inside workers, and the
driver's atomic publish of `<output>.tmp`."""
import contextlib
import posixpath

import fsspec


@contextlib.contextmanager
def open_write(url: str, mode: str = "wb", **kwargs):
    """`url` opened for writing, its folder created first."""
    fs, path = fsspec.core.url_to_fs(url)
    fs.makedirs(posixpath.dirname(path), exist_ok=True)
    with fs.open(path, mode, **kwargs) as f:
        yield f


def write_text(url: str, text: str) -> None:
    with open_write(url, "w", encoding="utf-8") as f:
        f.write(text)


def write_bytes(url: str, data: bytes) -> None:
    with open_write(url, "wb") as f:
        f.write(data)


def exists(url: str) -> bool:
    fs, path = fsspec.core.url_to_fs(url)
    return fs.exists(path)


def remove(url: str) -> None:
    """Remove a folder (recursively) or a file if it exists."""
    fs, path = fsspec.core.url_to_fs(url)
    if fs.exists(path):
        fs.rm(path, recursive=True)


def remove_quietly(url: str) -> None:
    """`remove`, any error ignored (a clean-up must not hide the outcome it follows)."""
    try:
        remove(url)
    except OSError:
        pass


def publish(tmp: str, final: str) -> None:
    """Move the finished tmp folder into place, replacing an earlier one whole: the old
    release stays whole, or the new one takes its place whole (transforms/core/outputs.py)."""
    from transforms.core import outputs
    outputs.replace(tmp, final)
