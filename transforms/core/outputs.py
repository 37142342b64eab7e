"""Folders a stage replaces: it deletes only what it wrote, and it replaces a folder whole.

- Ownership. Every output folder a stage publishes holds the `_MANIFEST.json` it wrote; a
  file the manifest does not list (all files, when there is no readable manifest) was not
  written by the build: the user's own, or dropped in later. `foreign` names them;
  `check_owned` refuses, with one line, to start a run that would replace such a folder;
  a folder found holding them at publish time has them moved aside first (`move_aside`),
  never deleted.
- Replacement. `replace` renames the old folder aside, renames the new one into place, and
  only then removes the old one. If the old folder cannot be moved, nothing changed; if the
  new one cannot be moved in, the old one is put back; if the old one cannot be removed (an
  undeletable file), the new folder stands whole and what is left of the old one stays
  beside it, named in a warning. On a local disk each rename is atomic; object stores (gs://) have no
  folder rename, so there a replace interrupted half-way can leave a mixed folder (the
  manifests then name it).
"""
import datetime
import errno
import logging
import os
import posixpath
from typing import Optional

import fsspec

from transforms.core import manifest
from transforms.core.preflight import InputError

log = logging.getLogger("build")
ASIDE = "_foreign"


class ForeignFiles(InputError):
    """An output folder holds files the build did not write."""


def _stamp() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")


def foreign(url: str) -> list:
    """Files under the folder `url` (relative paths, sorted) that its `_MANIFEST.json` does
    not list; [] when the folder does not exist."""
    fs, path = fsspec.core.url_to_fs(url)
    path = path.rstrip("/")
    if not fs.exists(path):
        return []
    if not fs.isdir(path):
        return [""]                               # a file where the build puts a folder
    stored = manifest.read(url)
    listed = set(stored["files"]) if stored else set()
    out = []
    for found in sorted(fs.find(path)):
        rel = found[len(path) + 1:]
        if posixpath.basename(rel) == manifest.NAME and stored is not None:
            continue
        if rel not in listed:
            out.append(rel)
    return out


def check_owned(folders: dict) -> None:
    """Refuse (ForeignFiles, one line) when any of `folders` ({label: url}) holds files the
    build did not write."""
    found = [(label, rel) for label, url in folders.items() for rel in foreign(url)]
    if found:
        label, rel = found[0]
        example = f"{label}/{rel}" if rel else f"{label} (a file, not a folder)"
        where = sorted({label for label, _ in found})
        raise ForeignFiles(
            f"{len(found)} file(s) the build did not write are where it would replace its "
            f"outputs ({', '.join(where)}), e.g. {example}: move them away or choose another "
            "output folder (the build never deletes what it did not write)")


def move_aside(url: str, rels, under: str) -> list:
    """Move the files `rels` of folder `url` to `<under>/<time>/<rel>`; returns the new
    locations. Never deletes."""
    fs, path = fsspec.core.url_to_fs(url)
    _, base = fsspec.core.url_to_fs(under)
    stamp, moved = _stamp(), []
    for rel in rels:
        src = posixpath.join(path.rstrip("/"), rel) if rel else path
        dst = posixpath.join(base, stamp, posixpath.basename(path.rstrip("/")), rel)
        fs.makedirs(posixpath.dirname(dst), exist_ok=True)
        fs.mv(src, dst)
        moved.append(dst)
    return moved


def _local(fs) -> bool:
    protocol = fs.protocol if isinstance(fs.protocol, tuple) else (fs.protocol,)
    return "file" in protocol or "local" in protocol


def _rename(fs, src: str, dst: str) -> None:
    """Rename a folder: on a local disk `os.rename`, atomic, and failing without touching
    anything (`fs.mv` would fall back to copy-then-delete, which half-deletes a folder it
    cannot wholly delete); elsewhere the file system's move."""
    if _local(fs):
        try:
            os.rename(src, dst)
            return
        except OSError as err:
            if err.errno != errno.EXDEV:        # another disk: only a copy can move it
                raise
    fs.mv(src, dst, recursive=True)


def replace(src: Optional[str], dst: str) -> Optional[str]:
    """Put folder `src` in place of folder `dst` (`src` None or absent: just take `dst`
    away), as the module says; returns where the old folder was left when it could not be
    removed, else None. Raises OSError (one line at the command) when nothing changed."""
    fs, dst_path = fsspec.core.url_to_fs(dst)
    dst_path = dst_path.rstrip("/")
    src_path = fsspec.core.url_to_fs(src)[1].rstrip("/") if src else None
    if src_path is not None and not fs.exists(src_path):
        src_path = None
    old = None
    if fs.exists(dst_path):
        old = f"{dst_path}.replaced-{_stamp()}-{os.getpid()}"
        _rename(fs, dst_path, old)
    if src_path is not None:
        try:
            fs.makedirs(posixpath.dirname(dst_path), exist_ok=True)
            _rename(fs, src_path, dst_path)
        except BaseException:
            if old is not None and not fs.exists(dst_path):
                _rename(fs, old, dst_path)              # the old folder back, whole
            raise
    if old is None:
        return None
    try:
        fs.rm(old, recursive=True)
    except OSError as err:
        log.warning("the old %s could not be removed (%s): the new one is in place, whole; "
                    "what is left of the old one is at %s: remove it yourself", dst, err, old)
        return old
    return None
