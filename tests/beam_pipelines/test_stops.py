"""Stops and failures that clean up (issue 28, parts 4 and 7): a release is replaced whole
or not at all, the user's files are never deleted, and a full disk or a permission error is
one line. Real files: a small tmpfs mounted for the full disk (root only; skipped
elsewhere), `chattr +i` for an undeletable file (root on ext4/tmpfs; skipped elsewhere)."""
import contextlib
import logging
import os
import shutil
import subprocess
import sys

import pytest

from beam_pipelines import validate
from beam_pipelines.common import InputError, os_error_line
from tests.conftest import REPO
from tests.finalize.test_finalize import fixture_rows, run_finalize, write_filtered
from transforms.core import manifest, outputs
from transforms.core.rundir import RunDir


@pytest.fixture(scope="module")
def release(record_format_dir, tmp_path_factory):
    root = tmp_path_factory.mktemp("stops")
    filtered = write_filtered(root, fixture_rows(record_format_dir))
    return filtered, run_finalize(filtered, root / "dataset")


def _files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _finalize_cli(filtered, output, *extra, env=None, timeout=600):
    return subprocess.run(
        [sys.executable, "-m", "beam_pipelines.finalize", "--filtered", str(filtered),
         "--output", str(output), "--train_fraction", "0.5", "--dev_fraction", "0.25",
         "--test_fraction", "0.25", *extra], cwd=REPO, capture_output=True, text=True,
        timeout=timeout, env=dict(os.environ, **(env or {})))


def _errors(stderr):
    return [line for line in stderr.splitlines() if line.startswith("error:")]


# --- unit: ownership, replacement, the one line for OS errors (fast) ---------------------

@pytest.mark.fast
def test_foreign_files_are_those_the_manifest_does_not_list(tmp_path):
    folder = tmp_path / "dataset"
    folder.mkdir()
    (folder / "a.txt").write_text("a")
    assert outputs.foreign(str(folder)) == ["a.txt"]          # no manifest: nothing is ours
    manifest.write(str(folder))
    assert outputs.foreign(str(folder)) == []
    (folder / "sub").mkdir()
    (folder / "sub" / "notes.md").write_text("mine")
    assert outputs.foreign(str(folder)) == ["sub/notes.md"]
    assert outputs.foreign(str(tmp_path / "absent")) == []
    with pytest.raises(InputError, match=r"^1 file\(s\) the build did not write .*dataset/sub/"
                                         r"notes.md: move them away"):
        outputs.check_owned({"dataset": str(folder)})


@pytest.mark.fast
def test_a_publish_moves_a_file_dropped_in_meanwhile_aside_and_replaces_the_folder(tmp_path,
                                                                                  caplog):
    rd = RunDir(str(tmp_path / "run"))
    old = tmp_path / "run" / "stats"
    old.mkdir(parents=True)
    (old / "generate.json").write_text("old")
    manifest.write(str(old))
    (old / "mine.csv").write_text("the user's")                # dropped in while it ran
    staging = tmp_path / "run" / ".staging" / "generate" / "stats"
    staging.mkdir(parents=True)
    (staging / "generate.json").write_text("new")
    with caplog.at_level(logging.WARNING, logger="build"):
        rd.publish("generate", ("stats",))
    assert (old / "generate.json").read_text() == "new" and not (old / "mine.csv").exists()
    (kept,) = (tmp_path / "run" / outputs.ASIDE).rglob("mine.csv")
    assert kept.read_text() == "the user's"
    assert "moved aside" in caplog.text and "mine.csv" in caplog.text
    assert not (tmp_path / "run" / ".staging").exists()
    assert [p.name for p in (tmp_path / "run").iterdir() if "replaced" in p.name] == []


@pytest.mark.fast
def test_the_one_line_for_a_full_disk_or_a_permission_error():
    err = OSError(28, "No space left on device", "/data/dataset.tmp/train.parquet")
    line = os_error_line("finalize", err)
    assert line.startswith("error: no space left on device at /data/dataset.tmp/train.parquet "
                           "during finalize; nothing was replaced")
    # as Beam passes a worker's error on: its traceback as text
    worker = RuntimeError("Traceback (most recent call last):\n  ...\nOSError: [Errno 28] No "
                          "space left on device: '/m/dataset.tmp/x'\n")
    assert os_error_line("finalize", worker).startswith(
        "error: no space left on device at /m/dataset.tmp/x during finalize")
    wrapped = RuntimeError("pipeline failed")
    wrapped.__cause__ = PermissionError(13, "Permission denied", "/srv/out")
    assert os_error_line("build", wrapped).startswith("error: permission denied at /srv/out")
    assert os_error_line("build", ValueError("[Errno 2] gone")) is None


# --- replacing a release ----------------------------------------------------------------

@contextlib.contextmanager
def _immutable(path):
    if os.geteuid() != 0 or shutil.which("chattr") is None:
        pytest.skip("chattr +i needs root and chattr")
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
        pytest.skip(f"chattr +i is not supported where {path} is")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_an_undeletable_file_in_the_old_release_lets_the_new_one_in_whole(release, tmp_path,
                                                                          caplog):
    """Before: the old release half-deleted in place, the new one discarded."""
    filtered, built = release
    dataset = shutil.copytree(built, tmp_path / "dataset")
    before = _files(dataset)
    stuck = dataset / "record" / "train.json"
    with _immutable(stuck):
        try:
            with caplog.at_level(logging.WARNING):
                run_finalize(filtered, dataset, "--license", "cc-by-4.0")   # a new release
            assert validate.run([str(dataset)]) == []
            assert "license: cc-by-4.0" in (dataset / "README.md").read_text()
            (old,) = tmp_path.glob("dataset.replaced-*")    # what is left of the old one
            assert (old / "record" / "train.json").read_bytes() == before["record/train.json"]
            assert "could not be removed" in caplog.text and old.name in caplog.text
        finally:
            for left in tmp_path.glob("dataset.replaced-*/record/train.json"):
                subprocess.run(["chattr", "-i", str(left)], check=True)


def test_an_old_release_that_cannot_be_moved_stays_whole_with_one_line(release, tmp_path):
    filtered, built = release
    dataset = shutil.copytree(built, tmp_path / "dataset")
    before = _files(dataset)
    with _immutable(dataset):                      # the folder itself cannot be renamed
        done = _finalize_cli(filtered, dataset, "--license", "cc-by-4.0", "--workers", "1")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert _errors(done.stderr) == [_errors(done.stderr)[0]]
    assert _errors(done.stderr)[0].startswith("error: operation not permitted")
    assert _files(dataset) == before and validate.run([str(dataset)]) == []
    assert not (tmp_path / "dataset.tmp").exists()


# --- the user's files ---------------------------------------------------------------------

def test_finalize_refuses_an_output_folder_holding_the_users_files(release, tmp_path):
    filtered, built = release
    mine = tmp_path / "dataset"
    mine.mkdir()
    (mine / "thesis.tex").write_text("years of work")
    done = _finalize_cli(filtered, mine, "--workers", "1")
    assert done.returncode == 1 and _errors(done.stderr) == [
        f"error: 1 file(s) the build did not write are where it would replace its outputs "
        f"({mine}), e.g. {mine}/thesis.tex: move them away or choose another output folder "
        "(the build never deletes what it did not write)"], done.stderr[-2000:]
    assert (mine / "thesis.tex").read_text() == "years of work"
    # a file dropped into a finished release: refused on the rerun too
    dataset = shutil.copytree(built, tmp_path / "release")
    (dataset / "extra.txt").write_text("mine")
    done = _finalize_cli(filtered, dataset, "--workers", "1")
    assert done.returncode == 1 and "extra.txt" in _errors(done.stderr)[0]
    assert (dataset / "extra.txt").exists()
    assert validate.run([str(dataset)])[0] == \
        "extra.txt: not listed in _MANIFEST.json (added after the release was written)"


# --- a full disk ----------------------------------------------------------------------------

@contextlib.contextmanager
def _small_disk(path, size_kb):
    path.mkdir()
    if os.geteuid() != 0 or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(path)],
            capture_output=True).returncode:
        pytest.skip("mounting a small tmpfs needs root (and mount rights)")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=True)


def test_a_full_disk_during_finalize_is_one_line_and_keeps_the_old_release(release, tmp_path):
    """Before: the old release stayed valid, but the command ended in a traceback."""
    filtered, built = release
    size = sum(len(b) for b in _files(built).values())
    with _small_disk(tmp_path / "disk", size // 1024 + 64) as disk:
        dataset = shutil.copytree(built, disk / "dataset")
        before = _files(dataset)
        done = _finalize_cli(filtered, dataset, "--license", "cc-by-4.0", "--workers", "2")
        assert done.returncode == 1, done.stderr[-3000:]
        assert "Traceback" not in done.stderr, done.stderr[-3000:]
        (line,) = _errors(done.stderr)
        assert line.startswith("error: no space left on device") and "during finalize" in line
        assert _files(dataset) == before and validate.run([str(dataset)]) == []
        assert sorted(p.name for p in disk.iterdir()) == ["dataset"]   # no half-written tmp
