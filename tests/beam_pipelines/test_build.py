"""Trustworthy runs (build): a run folder holds one run, every stage's completion marker
records its fingerprint, a damaged or stale stage is rebuilt, and nothing is published
that cannot be trusted. Each failure the issue found is reproduced here and shown fixed."""
import glob
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import time

import pyarrow.parquet as pq
import pytest

from beam_pipelines import build, validate
from beam_pipelines.common import InputError
from tests.conftest import REPO

STAGES = ["generate", "train_folds", "adversarial_filter", "finalize"]
IN_PROCESS = ["--workers", "1"]


def _argv(out, *extra, inputs=None):
    argv = []
    for pattern in inputs or []:
        argv += ["--input", pattern]
    return argv + ["--output", str(out), *extra, *IN_PROCESS]


def _dataset(out):
    """Everything a user gets, in a comparable form."""
    d = out / "dataset"
    shards = {}
    for split in ("train", "dev", "test"):
        files = sorted(glob.glob(str(d / f"{split}-*.parquet")))
        rows = pq.read_table(files).to_pylist() if files else []
        shards[split] = sorted(rows, key=lambda r: r["id"])
    exports = {os.path.relpath(p, d): open(p, encoding="utf-8").read()
               for p in sorted(glob.glob(str(d / "record" / "*.json"))
                               + glob.glob(str(d / "superglue" / "*.jsonl")))}
    return shards, exports


def _copy(src, dst):
    shutil.copytree(src, dst)
    return dst


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    out = tmp_path_factory.mktemp("build") / "run"
    markers = build.run(_argv(out))
    return out, markers


def test_build_runs_every_stage_with_fingerprints_and_a_valid_dataset(finished):
    out, markers = finished
    assert list(markers) == STAGES
    for name in STAGES:
        marker = json.loads((out / "_build" / f"{name}.json").read_text())
        assert set(marker["fingerprint"]) == {"settings", "inputs", "code", "upstream"}
        assert marker["outputs"]
    # the upstream part names the stages read: a changed candidate set changes it
    assert set(markers["adversarial_filter"]["fingerprint"]["upstream"]) == {
        "generate", "train_folds"}
    assert validate.run([str(out / "dataset")]) == []
    assert not (out / ".staging").exists()
    assert not (out / "_build" / "LOCK").exists()


def test_a_rerun_skips_everything(finished, caplog):
    out, markers = finished
    with caplog.at_level(logging.INFO, logger="build"):
        again = build.run(_argv(out))
    for i, name in enumerate(STAGES, start=1):
        assert f"[{i}/4] {name}: complete (fingerprint matches), skipped" in caplog.text
        assert again[name]["finished_at"] == markers[name]["finished_at"]


def test_a_second_build_on_the_same_folder_is_refused(finished, tmp_path):
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "beam_pipelines.build", *_argv(out)],
                            cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    deadline = time.monotonic() + 120
    while not (out / "_build" / "LOCK").exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
        time.sleep(0.05)
    with pytest.raises(InputError, match=f"is being built by pid {proc.pid}"):
        build.run(_argv(out))
    assert proc.wait(timeout=600) == 0, proc.stderr.read()
    # the first build was not disturbed: its dataset equals an undisturbed one
    assert _dataset(out) == _dataset(finished[0])
    assert validate.run([str(out / "dataset")]) == []


_RACE = """
import sys, time
from transforms.core.rundir import RunDir, LockedError
run = RunDir(sys.argv[1])
while time.time() < float(sys.argv[2]):
    pass
try:
    run.lock()
    print("locked")
    time.sleep(3)
except LockedError as err:
    print(err)
"""


def test_builds_racing_for_the_lock_one_wins_and_the_others_name_it(tmp_path):
    start = time.time() + 5   # all imported, then all at once
    procs = [subprocess.Popen([sys.executable, "-c", _RACE, str(tmp_path / "run"), str(start)],
                              cwd=REPO, stdout=subprocess.PIPE, text=True) for _ in range(8)]
    said = {p.pid: p.communicate(timeout=60)[0].strip() for p in procs}
    winners = [pid for pid, out in said.items() if out == "locked"]
    assert len(winners) == 1, said
    for pid, out in said.items():
        if pid != winners[0]:   # the lock is never seen half-written
            assert f"is being built by pid {winners[0]} on " in out, out


def test_a_lock_left_by_a_dead_process_is_taken_over(finished, tmp_path, caplog):
    out = _copy(finished[0], tmp_path / "run")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (out / "_build" / "LOCK").write_text(json.dumps(
        {"pid": dead.pid, "host": os.uname().nodename, "started": "2026-01-01T00:00:00Z"}))
    with caplog.at_level(logging.WARNING, logger="build"):
        build.run(_argv(out))
    assert "taking over the lock" in caplog.text
    assert not (out / "_build" / "LOCK").exists()


def test_a_shard_deleted_after_the_run_is_detected_and_rebuilt(finished, tmp_path, caplog):
    out = _copy(finished[0], tmp_path / "run")
    (shard,) = glob.glob(str(out / "candidates" / "*.parquet"))[:1]
    os.remove(shard)
    with caplog.at_level(logging.INFO, logger="build"):
        build.run(_argv(out))
    assert "does not match its manifest" in caplog.text and "is missing" in caplog.text
    assert "[1/4] generate: start (outputs damaged)" in caplog.text
    assert "[2/4] train_folds: start (an upstream stage reran)" in caplog.text
    assert _dataset(out) == _dataset(finished[0])


def test_a_released_shard_rewritten_at_the_same_size_is_named_and_rebuilt(finished, tmp_path,
                                                                         caplog):
    """The issue's case: one query changed, same size and row count. Before sha256 in the
    manifests, validate said OK and the rerun skipped finalize, leaving the shard and the
    ReCoRD JSON in disagreement."""
    from tests.finalize.test_release import tamper_one_query
    out = _copy(finished[0], tmp_path / "run")
    shard = sorted((out / "dataset").glob("train-*.parquet"))[0]
    original = shard.read_bytes()
    qid, old, new = tamper_one_query(shard)
    assert len(shard.read_bytes()) == len(original) and new != old
    violations = validate.run([str(out / "dataset"), "--max_violations", "100"])
    assert (f"{shard.name}: content differs from the sha256 in the manifest (changed after the "
            "release was written)") in violations
    assert f"record/train.json query {qid!r}: query text differs from the shard's" in violations
    with caplog.at_level(logging.INFO, logger="build"):
        build.run(_argv(out))
    assert (f"finalize: dataset/ does not match its manifest: {shard.name} changed (content "
            "differs from the sha256 in the manifest); rerunning it") in caplog.text
    assert "[3/4] adversarial_filter: complete (fingerprint matches), skipped" in caplog.text
    assert "[4/4] finalize: start (outputs damaged)" in caplog.text
    assert shard.read_bytes() == original
    record = json.loads((out / "dataset" / "record" / "train.json").read_text())
    queries = {qa["id"]: qa["query"] for entry in record["data"] for qa in entry["qas"]}
    rows = pq.read_table(sorted((out / "dataset").glob("train-*.parquet"))).to_pylist()
    assert {r["id"]: r["query"] for r in rows} == queries and queries[qid] == old
    assert validate.run([str(out / "dataset")]) == []


def test_a_stage_refuses_input_that_does_not_match_its_manifest(finished, tmp_path):
    from beam_pipelines import adversarial_filter, train_folds
    from transforms.core.manifest import ManifestError
    out = _copy(finished[0], tmp_path / "run")
    (shard,) = glob.glob(str(out / "candidates" / "*.parquet"))[:1]
    os.remove(shard)
    with pytest.raises(ManifestError, match="is missing"):
        train_folds.run(["--candidates", str(out / "candidates"), "--output",
                         str(tmp_path / "adv")])
    with pytest.raises(ManifestError, match="is missing"):
        adversarial_filter.run(["--candidates", str(out / "candidates"), "--adversary",
                                str(out / "adversary"), "--output", str(tmp_path / "f")])


def test_other_inputs_are_refused_then_rebuilt_with_overwrite(finished, corpus_dir,
                                                              tmp_path, caplog):
    from beam_pipelines.common import sample_inputs
    out = _copy(finished[0], tmp_path / "run")
    (out / "hits").mkdir()
    (out / "hits" / "hits.csv").write_text("hit_ref\n")
    (out / "annotations.sqlite").write_bytes(b"SQLite")
    grown = sample_inputs() + [str(corpus_dir / "cnn_stories" / "0*.story")]
    with pytest.raises(InputError) as err:
        build.run(_argv(out, inputs=grown))
    message = str(err.value)
    assert "already holds a run built with other inputs or settings" in message
    assert "3 input file(s) added" in message and "--overwrite" in message
    assert "\n" not in message
    with caplog.at_level(logging.WARNING, logger="build"):
        build.run(_argv(out, "--overwrite", inputs=grown))
    superseded = glob.glob(str(out / "_superseded" / "*"))
    assert len(superseded) == 1
    assert sorted(os.listdir(superseded[0])) == ["annotations.sqlite", "hits"]
    assert not (out / "hits").exists()
    clean = tmp_path / "clean"
    build.run(_argv(clean, inputs=grown))
    assert _dataset(out) == _dataset(clean)


def test_force_on_an_upstream_stage_reruns_everything_after_it(finished, tmp_path, caplog):
    out = _copy(finished[0], tmp_path / "run")
    before = {n: json.loads((out / "_build" / f"{n}.json").read_text()) for n in STAGES}
    with caplog.at_level(logging.INFO, logger="build"):
        after = build.run(_argv(out, "--force", "adversarial_filter"))
    assert after["train_folds"]["finished_at"] == before["train_folds"]["finished_at"]
    assert "[3/4] adversarial_filter: start (forced)" in caplog.text
    assert "[4/4] finalize: start (forced)" in caplog.text
    assert _dataset(out) == _dataset(finished[0])


def test_a_changed_default_is_seen(finished, tmp_path, monkeypatch):
    """A new release changing a default must not pass for the settings a run was built
    with: the markers hold every field, defaults included."""
    from transforms.generation.passages import PassageConfig
    out = _copy(finished[0], tmp_path / "run")
    defaults = PassageConfig.__init__.__defaults__
    monkeypatch.setattr(PassageConfig.__init__, "__defaults__", (defaults[0], 5, *defaults[2:]))
    assert PassageConfig().min_entities == 5
    with pytest.raises(InputError, match=r"generate settings: passage.min_entities 4 -> 5"):
        build.run(_argv(out))


def test_a_folder_built_by_other_code_is_refused_then_rebuilt_with_overwrite(
        finished, tmp_path, monkeypatch, caplog):
    """An upgraded tool must not pass a folder its old version built for its own run:
    its rules may have changed every output."""
    from transforms import builder
    out = _copy(finished[0], tmp_path / "run")
    monkeypatch.setattr(builder, "code_digest", lambda: "0123456789abcdef")
    with pytest.raises(InputError, match=r"generate: built by another version of the tool's "
                                         r"code \([0-9a-f]{16} -> 0123456789abcdef\)"):
        build.run(_argv(out))
    with caplog.at_level(logging.INFO, logger="build"):
        build.run(_argv(out, "--overwrite"))
    assert "[1/4] generate: start (fingerprint changed)" in caplog.text


def test_a_changed_setting_in_a_config_file_is_seen(finished, tmp_path):
    out = _copy(finished[0], tmp_path / "run")
    toml = tmp_path / "run.toml"
    toml.write_text("[finalize]\ndev_fraction = 0.2\ntrain_fraction = 0.7\n")
    with pytest.raises(InputError, match="finalize settings: dev_fraction 0.1 -> 0.2"):
        build.run(_argv(out, "--config", str(toml)))


@pytest.mark.parametrize("content", ["", "{\"stage\": \"fin", "[1, 2]"])
def test_a_corrupt_marker_counts_as_missing(finished, tmp_path, caplog, content):
    out = _copy(finished[0], tmp_path / "run")
    (out / "_build" / "finalize.json").write_text(content)
    with caplog.at_level(logging.INFO, logger="build"):
        markers = build.run(_argv(out, "--force", "finalize"))
    assert caplog.text.count("counted as missing") == 1    # said once, not per look
    assert "[4/4] finalize: start" in caplog.text
    assert json.loads((out / "_build" / "finalize.json").read_text()) == markers["finalize"]


def test_an_unloadable_fold_model_fails_the_filter_with_one_line(finished, tmp_path):
    out = _copy(finished[0], tmp_path / "run")
    (out / "adversary" / "fold-2" / "model.pt").write_bytes(b"not a checkpoint")
    result = subprocess.run(
        [sys.executable, "-m", "beam_pipelines.adversarial_filter", "--candidates",
         str(out / "candidates"), "--adversary", str(out / "adversary"), "--output",
         str(tmp_path / "filtered"), "--workers", "1"],
        cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "fold 2" in lines[0] and "cannot be loaded" in lines[0]
    assert "Traceback" not in result.stderr


def test_print_config_round_trips_and_unknown_keys_are_refused(tmp_path):
    toml = tmp_path / "run.toml"
    out = subprocess.run([sys.executable, "-m", "beam_pipelines.build", "--output",
                          str(tmp_path / "o"), "--min_entities", "5", "--paper_split_policy",
                          "--print_config"], cwd=REPO, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    toml.write_text(out.stdout)
    assert "min_entities = 5" in out.stdout and "paper_split_policy = true" in out.stdout
    args, _ = build.build_parser().parse_known_args(["--config", str(toml)])
    config = build.config_from_args(args)
    assert config.settings.generate.passage.min_entities == 5
    assert config.settings.finalize.paper_split_policy is True
    assert build.to_toml(config) == out.stdout
    toml.write_text(out.stdout.replace("[generate]", "[generate]\nmin_entitiez = 3"))
    args, _ = build.build_parser().parse_known_args(["--config", str(toml)])
    with pytest.raises(InputError, match="unknown setting.*min_entitiez"):
        build.config_from_args(args)
    # no --output needed to see the settings; the file says it is needed to run
    bare = subprocess.run([sys.executable, "-m", "beam_pipelines.build", "--print_config"],
                          cwd=REPO, capture_output=True, text=True)
    assert bare.returncode == 0 and "# output = (required" in bare.stdout
    toml.write_text("[generate]\nfolds = 3\n")
    args, _ = build.build_parser().parse_known_args(["--config", str(toml), "--output", "x"])
    with pytest.raises(InputError, match="folds differs between stages"):
        build.config_from_args(args)


def test_an_interrupted_train_folds_resumes_from_its_finished_folds(finished, tmp_path, caplog):
    """What Ctrl-C inside train_folds leaves: no marker for it or the stages after it, and
    its staging folder with the folds finished so far (fold 1 was in progress). The same
    build keeps that folder, reuses the finished folds untouched and trains only fold 1."""
    import re
    out = _copy(finished[0], tmp_path / "run")
    for name in STAGES[1:]:
        (out / "_build" / f"{name}.json").unlink()
    staging = out / ".staging" / "train_folds"
    staging.mkdir(parents=True)
    shutil.move(str(out / "adversary"), str(staging / "adversary"))
    (staging / "adversary" / "_MANIFEST.json").unlink()
    (staging / "adversary" / "fold-1" / "metadata.json").unlink()
    mtime = (staging / "adversary" / "fold-0" / "model.pt").stat().st_mtime_ns
    with caplog.at_level(logging.INFO):
        build.run(_argv(out))
    assert "[2/4] train_folds: start (not run yet)" in caplog.text
    assert "fold 0/5: reused the finished checkpoint" in caplog.text
    assert re.findall(r"fold (\d)/5: training", caplog.text) == ["1"]
    assert (out / "adversary" / "fold-0" / "model.pt").stat().st_mtime_ns == mtime
    assert not (out / ".staging").exists()
    assert _dataset(out) == _dataset(finished[0])


def test_a_corpus_of_one_story_builds_and_says_which_folds_it_cannot_fill(tmp_path, caplog):
    """One article holds every query, so one fold has nothing to train on and the others
    nothing to hold out: each says so with a warning, and the build still finishes."""
    story = str(REPO / "beam_pipelines" / "sample_corpus" / "sample-01.story")
    with caplog.at_level(logging.INFO):
        markers = build.run(_argv(tmp_path / "run", inputs=[story]))
    assert list(markers) == STAGES
    assert caplog.text.count("no usable training rows") == 1
    assert caplog.text.count("no held-out rows") == 4
    summary = json.loads((tmp_path / "run" / "adversary" / "stats" / "train_folds.json")
                         .read_text())
    queries = summary["stages"]["featurize"]["in"]
    assert queries > 0 and summary["heldout_n"] == queries and summary["gaps"] == []
    per_fold = summary["per_fold"]
    assert sorted(f["heldout_n"] for f in per_fold.values()) == [0, 0, 0, 0, queries]
    # the one fold that holds the queries has an untrained reader: it drops nothing
    adversary = json.loads((tmp_path / "run" / "filtered" / "stats" / "adversarial_filter.json")
                           .read_text())["stages"]["adversary"]
    assert adversary["in"] == queries and "answered_by_adversary" not in adversary["reasons"]
    assert adversary["aflite.too_few_queries"] == 1     # nor does AFLite on so few queries


# --- issue 28: the user's files, SIGTERM ---------------------------------------------------

def test_the_users_files_in_a_run_folder_are_refused_at_start_and_on_rerun(finished, tmp_path):
    """Before: `build --output` deleted the user's own files in dataset/, articles/, stats/
    or rejected/ with rc 0, and a rerun deleted a file dropped into dataset/."""
    fresh = tmp_path / "mine"
    for folder in ("articles", "stats"):
        (fresh / folder).mkdir(parents=True)
        (fresh / folder / "notes.txt").write_text("mine")
    with pytest.raises(InputError, match=r"^2 file\(s\) the build did not write are where it "
                                         r"would replace its outputs \(articles, stats\), e\.g\. "
                                         r"articles/notes\.txt: move them away"):
        build.run(_argv(fresh))
    assert sorted(p.relative_to(fresh).as_posix() for p in fresh.rglob("*") if p.is_file()) \
        == ["articles/notes.txt", "stats/notes.txt"]          # untouched, nothing else written
    out = _copy(finished[0], tmp_path / "run")
    (out / "dataset" / "extra.txt").write_text("mine")
    (out / "rejected" / "mine.parquet").write_bytes(b"PAR1")
    with pytest.raises(InputError, match=r"2 file\(s\) .*\(dataset, rejected\), e\.g\. "
                                         r"rejected/mine\.parquet"):
        build.run(_argv(out, "--force", "finalize"))
    assert (out / "dataset" / "extra.txt").read_text() == "mine"
    assert not (out / "_build" / "LOCK").exists()


def test_sigterm_during_finalize_ends_every_worker_and_releases_the_lock(finished, tmp_path):
    """Before: 60 s after SIGTERM two worker processes were alive, with the temp folder and
    the lock left behind."""
    from tests.beam_pipelines.test_cli import _wait_for_workers
    out = _copy(finished[0], tmp_path / "run")
    before = _dataset(out)
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-m", "beam_pipelines.build", "--output", str(out), "--force",
         "finalize", "--workers", "2"], cwd=REPO, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
        env=dict(os.environ, TMPDIR=str(tmp), PYTHONUNBUFFERED="1"))
    try:
        workers = _wait_for_workers(proc.pid, timeout=300)
        assert (out / "_build" / "LOCK").exists()
        os.kill(proc.pid, signal.SIGTERM)           # `kill PID`: the command alone
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 143, err[-3000:]
    assert [line for line in err.splitlines() if "terminated" in line] == [
        "terminated (SIGTERM) during finalize; its worker processes are stopped; run the same "
        "command to resume"], err[-3000:]
    assert "Traceback" not in err
    alive = [pid for pid in workers if os.path.exists(f"/proc/{pid}")
             and open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"]
    assert alive == []
    assert not (out / "_build" / "LOCK").exists()
    assert list(tmp.iterdir()) == [] and not (out / ".staging").exists()
    assert not (out / "_build" / "finalize.json").exists()     # not complete: a rerun redoes it
    assert _dataset(out) == before                            # the release in place is whole
    assert validate.run([str(out / "dataset")]) == []
