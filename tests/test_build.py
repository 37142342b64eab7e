"""`build` chains the stages and resumes: a run killed during the adversary stage is rerun
without recomputing generate, and ends with the same dataset as an uninterrupted run."""
import glob
import json
import logging
import os
import signal
import subprocess
import sys
import time

import pyarrow.parquet as pq
import pytest

from beam_pipelines import build

IN_PROCESS = ["--direct_num_workers=1", "--direct_running_mode=in_memory"]


def _argv(corpus_dir, out, *extra):
    return ["--input", str(corpus_dir / "cnn_stories" / "*.story"), "--output", str(out),
            *extra, *IN_PROCESS]


def _dataset(out):
    """Everything a user gets, in a comparable form."""
    d = out / "dataset"
    shards = {}
    for split in ("train", "dev", "test"):
        files = sorted(glob.glob(str(d / f"{split}-*.parquet")))
        rows = pq.read_table(files).to_pylist() if files else []
        shards[split] = sorted(rows, key=lambda r: r["id"])
    exports = {p: open(p, encoding="utf-8").read().replace(str(out), "<out>")
               for p in sorted(glob.glob(str(d / "record" / "*.json"))
                               + glob.glob(str(d / "superglue" / "*.jsonl")))}
    exports = {os.path.relpath(k, d): v for k, v in exports.items()}
    table1 = json.loads((d / "stats.json").read_text())["table1"]
    return shards, exports, table1


@pytest.fixture(scope="module")
def uninterrupted(corpus_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("build-straight")
    markers = build.run(_argv(corpus_dir, out))
    return out, markers


def test_build_runs_every_stage_and_writes_markers(uninterrupted):
    out, markers = uninterrupted
    assert list(markers) == ["generate", "train_folds", "adversarial_filter", "finalize"]
    for name in markers:
        marker = json.loads((out / "_build" / f"{name}.json").read_text())
        assert marker["config_hash"] == markers[name]["config_hash"]
    shards, exports, table1 = _dataset(out)
    assert sum(len(rows) for rows in shards.values()) > 0
    assert not (out / ".staging").exists() or not any((out / ".staging").iterdir())


def test_killed_during_adversary_stage_resumes_without_regenerating(
        uninterrupted, corpus_dir, tmp_path, caplog):
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "beam_pipelines.build",
                             *_argv(corpus_dir, out)], start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    try:
        while not (out / ".staging" / "train_folds").exists():
            assert proc.poll() is None, "build ended before the adversary stage"
            assert time.monotonic() < deadline, "adversary stage never started"
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert (out / "_build" / "generate.json").exists()
    assert not (out / "_build" / "train_folds.json").exists(), "killed too late"
    assert not (out / "dataset").exists()
    generate_marker = (out / "_build" / "generate.json").read_text()
    candidates = {p: os.stat(p).st_mtime_ns for p in glob.glob(str(out / "candidates" / "*"))}

    with caplog.at_level(logging.INFO, logger="build"):
        markers = build.run(_argv(corpus_dir, out))
    assert "[1/4] generate: complete (marker matches), skipped" in caplog.text
    assert "[2/4] train_folds: start" in caplog.text
    assert (out / "_build" / "generate.json").read_text() == generate_marker
    assert {p: os.stat(p).st_mtime_ns for p in glob.glob(str(out / "candidates" / "*"))} \
        == candidates
    assert list(markers) == ["generate", "train_folds", "adversarial_filter", "finalize"]
    assert _dataset(out) == _dataset(uninterrupted[0])


def test_complete_run_is_skipped_and_force_redoes_one_stage(uninterrupted, corpus_dir, caplog):
    out, markers = uninterrupted
    with caplog.at_level(logging.INFO, logger="build"):
        again = build.run(_argv(corpus_dir, out, "--force", "finalize"))
    for i, name in enumerate(("generate", "train_folds", "adversarial_filter"), start=1):
        assert f"[{i}/4] {name}: complete (marker matches), skipped" in caplog.text
        assert again[name]["finished_at"] == markers[name]["finished_at"]
    assert "[4/4] finalize: start" in caplog.text
    assert again["finalize"]["config_hash"] == markers["finalize"]["config_hash"]


def test_config_change_redoes_that_stage_and_downstream(corpus_dir, tmp_path):
    plan = lambda *extra: {  # noqa: E731
        s.name: build.config_hash(s, a, "") for s, a, _ in build.stage_plan(
            build.build_parser().parse_known_args(_argv(corpus_dir, tmp_path, *extra))[0],
            str(tmp_path))}
    base, transformer = plan(), plan("--model", "transformer")
    assert base["generate"] == transformer["generate"]
    assert base["train_folds"] != transformer["train_folds"]
    # GPU hints do not change what a stage writes, so they do not invalidate it
    assert plan("--accelerator_type", "nvidia-l4") == base
