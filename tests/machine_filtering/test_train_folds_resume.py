"""train_folds as a resumable training job: a finished fold is written with a fingerprint of
what it was trained from, and the same command after Ctrl-C reuses it, trains only what is
missing and ends with what an uninterrupted run gives; progress lines appear inside a fold.
The real command runs in a subprocess on candidates the generation job wrote from the real
corpus (the lexical reader, many epochs, so that a fold lasts long enough to interrupt)."""
import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys

import pytest

from beam_pipelines import train_folds
from tests.conftest import REPO
from tests.machine_filtering.test_train_folds import build_candidates

# 2 folds of ~180 training queries, 12 steps an epoch: 240 steps, a fold lasts seconds
SETTINGS = ["--folds", "2", "--epochs", "20", "--batch_size", "16", "--workers", "1"]


@pytest.fixture(scope="module")
def candidates(tmp_path_factory, corpus_dir):
    return build_candidates(tmp_path_factory, corpus_dir)


def _argv(candidates, out, *extra):
    return ["--candidates", str(candidates), "--output", str(out), *SETTINGS, *extra]


def _folds(out):
    """{fold: (model.pt bytes, its mtime, metadata.json text)} of the finished folds."""
    found = {}
    for fold in range(2):
        d = out / f"fold-{fold}"
        if (d / "metadata.json").exists():
            found[fold] = ((d / "model.pt").read_bytes(), (d / "model.pt").stat().st_mtime_ns,
                           (d / "metadata.json").read_text())
    return found


def _interrupt_in_second_fold(argv):
    """Start the command; SIGINT the whole process group (what a terminal sends) as soon as
    the second fold logs its first step. Returns (return code, stderr, first fold)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "beam_pipelines.train_folds", *argv],
                            cwd=REPO, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    lines, first = [], None
    try:
        for line in proc.stderr:
            lines.append(line)
            done = re.search(r"fold (\d)/2: done", line)
            if done and first is None:
                first = int(done.group(1))
            step = re.search(r"fold (\d)/2: step 1/", line)
            if step and first is not None and int(step.group(1)) != first:
                os.killpg(proc.pid, signal.SIGINT)
                break
        rest = proc.communicate(timeout=60)[1]
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, "".join(lines) + (rest or ""), first


def test_ctrl_c_after_the_first_fold_then_the_same_command_reuses_it(candidates, tmp_path):
    out = tmp_path / "adv"
    argv = _argv(candidates, out)
    code, err, first = _interrupt_in_second_fold(argv)
    assert code == 130, err
    assert "interrupted during train_folds; run the same command to resume" in err
    # progress inside a fold: its steps, rate and time left before the fold is done
    step_lines = [line for line in err.splitlines() if f"fold {first}/2: step " in line]
    assert step_lines and re.search(r"step 1/(\d+) .* examples/s, .* left", step_lines[0])
    assert int(re.search(r"step 1/(\d+)", step_lines[0]).group(1)) > 200
    before = _folds(out)
    assert list(before) == [first], "the run was not cut inside the second fold"
    assert not (out / "_MANIFEST.json").exists()   # an interrupted run is not a finished one

    again = subprocess.run([sys.executable, "-m", "beam_pipelines.train_folds", *argv],
                           cwd=REPO, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert re.search(rf"fold {first}/2: reused the finished checkpoint", again.stderr)
    assert len(re.findall(r"fold \d/2: training lexical", again.stderr)) == 1
    after = _folds(out)
    assert after[first] == before[first]          # untouched: same bytes, same mtime
    assert (out / "_MANIFEST.json").exists()

    whole = tmp_path / "whole"                    # an uninterrupted run, the same settings
    summary = train_folds.run(_argv(candidates, whole))
    uninterrupted = _folds(whole)
    for fold in range(2):
        assert after[fold][0] == uninterrupted[fold][0]   # the same model bytes
        meta, ref = json.loads(after[fold][2]), json.loads(uninterrupted[fold][2])
        assert meta["fingerprint"] == ref["fingerprint"]
        assert meta["heldout_accuracy"] == ref["heldout_accuracy"]
    resumed = json.loads((out / "stats" / "train_folds.json").read_text())
    assert resumed["heldout_accuracy"] == summary["heldout_accuracy"]
    assert resumed["stages"] == summary["stages"] and resumed["gaps"] == []


def test_a_changed_setting_or_a_damaged_checkpoint_retrains(candidates, tmp_path, caplog):
    caplog.set_level(logging.INFO)
    out = tmp_path / "adv"
    quick = ["--epochs", "2"]
    train_folds.run(_argv(candidates, out, *quick))
    first = _folds(out)
    caplog.clear()
    train_folds.run(_argv(candidates, out, *quick, "--seed", "14"))
    assert caplog.text.count("(trained from other inputs or settings)") == 2
    assert _folds(out)[0][0] != first[0][0]
    # a damaged checkpoint is retrained; a fold of an earlier run with more folds removed
    shutil.copytree(out / "fold-1", out / "fold-2")
    (out / "fold-1" / "model.pt").write_bytes(b"damaged")
    caplog.clear()
    train_folds.run(_argv(candidates, out, *quick, "--seed", "14"))
    assert "fold 0/2: reused the finished checkpoint" in caplog.text
    assert "(checkpoint does not match its metadata)" in caplog.text
    assert not (out / "fold-2").exists()
