"""A run folder holds one run: its lock, its stages' completion markers, their staging
folders, and the outputs they publish (any fsspec URL).

- `_build/LOCK`: the holder's pid, host and start time. Created only if absent (local
  disks: written whole, then hard-linked into place, which fails if the lock exists). A
  lock whose process is gone (same host, pid not alive) is taken over with a warning;
  otherwise a second build is refused. On object stores (gs://) the check-then-create is
  not atomic: two builds started within moments of each other on different machines can
  both pass it (docs/usage.md says so).
- `_build/<stage>.json`: the completion marker (fingerprint, output manifests). A marker
  that cannot be read counts as missing, with a warning.
- `.staging/<stage>/`: where a stage writes; its outputs are moved into place when it ends.
  A resumable stage (train_folds) keeps what an interrupted run left there and checks it
  itself (each fold's fingerprint); other stages start from an empty folder.
"""
import datetime
import json
import logging
import os
import posixpath
import socket
from typing import Optional

import fsspec

log = logging.getLogger("build")
MARKERS = "_build"
STAGING = ".staging"
SUPERSEDED = "_superseded"


class LockedError(RuntimeError):
    """Another build holds the run folder."""


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class RunDir:
    def __init__(self, url: str):
        self.url = url.rstrip("/")
        self.fs, self.path = fsspec.core.url_to_fs(self.url)
        self.local = "file" in (self.fs.protocol if isinstance(self.fs.protocol, tuple)
                                else (self.fs.protocol,))
        self._locked = False
        self._warned = set()   # markers already reported unreadable: say it once

    def _warn_once(self, path: str, message: str, *args) -> None:
        if path not in self._warned:
            self._warned.add(path)
            log.warning(message, *args)

    def join(self, *parts) -> str:
        return posixpath.join(self.url, *parts)

    def _p(self, *parts) -> str:
        return posixpath.join(self.path, *parts)

    # -- lock
    def lock(self, command: str = "build") -> None:
        self.fs.makedirs(self._p(MARKERS), exist_ok=True)
        path = self._p(MARKERS, "LOCK")
        me = {"pid": os.getpid(), "host": socket.gethostname(), "started": _now(),
              "command": command}
        for _ in range(2):
            if self._create(path, json.dumps(me)):
                self._locked = True
                return
            holder = self._read_json(path) or {}
            if holder.get("host") == me["host"] and isinstance(holder.get("pid"), int) \
                    and not _alive(holder["pid"]):
                log.warning("taking over the lock of %s: pid %s on %s (started %s) is gone",
                            self.url, holder.get("pid"), holder.get("host"),
                            holder.get("started"))
                self.fs.rm(path)
                continue
            raise LockedError(
                f"{self.url} is being built by pid {holder.get('pid', '?')} on "
                f"{holder.get('host', '?')} since {holder.get('started', '?')} (lock "
                f"{self.join(MARKERS, 'LOCK')}): wait for it, or remove the lock if that "
                "build is gone")
        raise LockedError(f"could not take the lock of {self.url}")

    def _create(self, path: str, text: str) -> bool:
        if self.local:
            # written whole beside it, then linked into place: link fails if the lock
            # exists, and a reader never sees it empty
            tmp = f"{path}.{os.getpid()}.tmp"
            with open(tmp, "w") as f:
                f.write(text)
            try:
                os.link(tmp, path)
            except FileExistsError:
                return False
            except OSError:   # a file system without hard links
                return self._create_exclusive(path, text)
            finally:
                os.unlink(tmp)
            return True
        if self.fs.exists(path):
            return False
        with self.fs.open(path, "w") as f:
            f.write(text)
        return True

    @staticmethod
    def _create_exclusive(path: str, text: str) -> bool:
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            return False
        with os.fdopen(fd, "w") as f:
            f.write(text)
        return True

    def unlock(self) -> None:
        if self._locked:
            self._locked = False
            try:
                self.fs.rm(self._p(MARKERS, "LOCK"))
            except FileNotFoundError:
                pass

    # -- markers
    def _read_json(self, path: str):
        try:
            with self.fs.open(path, "r") as f:
                return json.load(f)
        except FileNotFoundError:
            return None
        except (ValueError, OSError, UnicodeDecodeError) as err:
            self._warn_once(path, "%s is unreadable (%s): counted as missing", path, err)
            return None

    def marker(self, stage: str) -> Optional[dict]:
        m = self._read_json(self._p(MARKERS, f"{stage}.json"))
        if m is not None and not (isinstance(m, dict) and isinstance(m.get("fingerprint"), dict)):
            path = self.join(MARKERS, f"{stage}.json")
            self._warn_once(path, "%s is not a completion marker: counted as missing", path)
            return None
        return m

    def write_marker(self, stage: str, data: dict) -> None:
        self.fs.makedirs(self._p(MARKERS), exist_ok=True)
        tmp = self._p(MARKERS, f"{stage}.json.tmp")
        with self.fs.open(tmp, "w") as f:
            json.dump(data, f, indent=1, sort_keys=True)
        self.fs.mv(tmp, self._p(MARKERS, f"{stage}.json"))

    def clear_marker(self, stage: str) -> None:
        path = self._p(MARKERS, f"{stage}.json")
        if self.fs.exists(path):
            self.fs.rm(path)

    # -- staging and publishing
    def staging(self, stage: str, keep: bool = False) -> str:
        path = self._p(STAGING, stage)
        if self.fs.exists(path) and not keep:
            self.fs.rm(path, recursive=True)
        self.fs.makedirs(path, exist_ok=True)
        return self.join(STAGING, stage)

    def drop_staging(self, stage: str) -> None:
        for path in (self._p(STAGING, stage), self._p(STAGING)):
            try:
                if self.fs.exists(path) and (path != self._p(STAGING) or not self.fs.ls(path)):
                    self.fs.rm(path, recursive=True)
            except (FileNotFoundError, OSError):
                pass

    def publish(self, stage: str, outputs) -> None:
        """Replace the stage's outputs in the run folder with what it wrote under staging,
        each folder whole (outputs.replace); files there the build did not write (dropped in
        while it ran) are moved aside under _foreign/ first, never deleted."""
        from transforms.core import outputs as O
        for out in outputs:
            stray = O.foreign(self.join(out))
            if stray:
                moved = O.move_aside(self.join(out), stray, self.join(O.ASIDE))
                log.warning("%s held %d file(s) the build did not write (e.g. %s/%s): moved "
                            "aside to %s, not deleted", self.join(out), len(stray), out,
                            stray[0], posixpath.dirname(moved[0]))
            O.replace(self.join(STAGING, stage, out), self.join(out))
        self.drop_staging(stage)

    def exists(self, rel: str) -> bool:
        return self.fs.exists(self._p(rel))

    def move_aside(self, names) -> list:
        """Move `names` (relative paths, globs allowed) under _superseded/<time>/; never
        deletes. Returns what was moved."""
        moved, stamp = [], _now().replace(":", "")
        for name in names:
            for path in sorted(self.fs.glob(self._p(name))):
                rel = path[len(self.path) + 1:]
                dst = self._p(SUPERSEDED, stamp, rel)
                self.fs.makedirs(posixpath.dirname(dst), exist_ok=True)
                self.fs.mv(path, dst, recursive=True)
                moved.append((rel, self.join(SUPERSEDED, stamp, rel)))
        return moved
