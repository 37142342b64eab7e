"""The build on a real Flink (issue 29): Beam's Flink job server fetched with Maven, a
standalone Flink cluster (JobManager and TaskManager on 127.0.0.1, assembled from PyPI)
and an embedded one. The sample's release built on the cluster is byte for byte the
DirectRunner's; `generate` on a slice of the real corpus through the embedded Flink gives
the DirectRunner's rows. Slow (a few minutes): marked `flink`, never in the fast subset.

The job server is Beam's, at the installed Beam's version when Maven serves it, else at
FALLBACK_BEAM (see docs/usage.md, "Flink"); the module skips with one line when Maven
serves neither, or when neither is cached and Maven is absent or unreachable."""
import glob
import hashlib
import json
import os
import subprocess
import sys

import pyarrow.parquet as pq
import pytest

from beam_pipelines import build, generate, validate
from runners import flink_jobserver as js
from tests.conftest import REPO

pytestmark = pytest.mark.flink

#: The newest Beam whose Flink runner Maven served here with all its dependencies.
FALLBACK_BEAM = "2.62.0"


@pytest.fixture(scope="module")
def pinned():
    """`python -m runners.flink_jobserver --offline`: the installed Beam's job server from
    the caches CI's set-up filled (tests send nothing beyond 127.0.0.1)."""
    return subprocess.run([sys.executable, "-m", "runners.flink_jobserver", "--offline"],
                          cwd=REPO, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def jar(pinned):
    """The pinned job server when cached, else FALLBACK_BEAM's (`.ci/run` fetched what
    Maven serves; these tests ask the network nothing)."""
    if pinned.returncode == 0:
        return pinned.stdout.strip()
    try:
        return js.job_server_jar(js.DEFAULT_FLINK, FALLBACK_BEAM, offline=True)
    except js.NotServed as fallback:
        pytest.skip(f"Maven serves no Flink job server: {pinned.stderr.strip()}; {fallback}")
    except RuntimeError as missing:       # not cached, or no Maven installed
        pytest.skip(f"no Flink job server cached (run `python -m runners.flink_jobserver "
                    f"--beam_version {FALLBACK_BEAM}` first, as .ci/run does): {missing}")


def _files(folder) -> dict:
    """{relative path: sha256} of every file under `folder`."""
    out = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, folder)] = hashlib.sha256(f.read()).hexdigest()
    return out


def _rows(folder) -> list:
    """Every row of a stage output's Parquet shards, in a canonical order (the shard count
    is the runner's: one per worker)."""
    files = sorted(glob.glob(os.path.join(folder, "*.parquet")))
    rows = pq.read_table(files).to_pylist() if files else []
    return sorted(json.dumps(r, sort_keys=True, default=str) for r in rows)


def _java_children() -> list:
    from transforms.core import procfs
    found = []
    for pid in set(procfs.tree(os.getpid())) - {os.getpid()}:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"java" in f.read().split(b"\0")[0]:
                    found.append(pid)
        except OSError:
            pass
    return found


#: What Maven printed on 2026-11-26 for the pinned job server (`mvn -B -U dependency:get`).
MAVEN_NOT_FOUND = """[INFO] Resolving org.apache.beam:beam-runners-flink-1.19-job-server:jar:2.77.0
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-dependency-plugin:2.8:get \
(default-cli) on project standalone-pom: Couldn't download artifact: Could not find artifact \
org.apache.beam:beam-runners-flink-1.19-job-server:jar:2.77.0 in central \
(https://repo.maven.apache.org/maven2) -> [Help 1]
[ERROR] \n[ERROR] Try downloading the file manually from the project website.
"""


@pytest.mark.fast
def test_maven_not_serving_the_job_server_is_one_line_without_the_repository_address():
    answer = js._answer(MAVEN_NOT_FOUND)
    assert answer.startswith("Couldn't download artifact: Could not find artifact "
                             "org.apache.beam:beam-runners-flink-1.19-job-server:jar:2.77.0")
    assert "http" not in answer and "\n" not in answer and "Help" not in answer
    assert js.NOT_SERVED.search(MAVEN_NOT_FOUND)


def test_the_pinned_job_server_is_cached_or_its_absence_is_one_line(pinned):
    if pinned.returncode == 0:
        assert pinned.stdout.strip().endswith(".jar") and os.path.exists(pinned.stdout.strip())
        return
    lines = pinned.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    if lines[0].startswith("error: Maven (mvn) is not installed"):
        pytest.skip(lines[0])
    from apache_beam.version import __version__
    assert f"Beam {__version__}'s Flink {js.DEFAULT_FLINK} job server" in lines[0], lines
    assert "http" not in lines[0]


def test_a_job_server_found_once_needs_no_maven_again(pinned, jar, tmp_path):
    """What CI's set-up fetched is found again without Maven (none on PATH here)."""
    version = [] if pinned.returncode == 0 else ["--beam_version", FALLBACK_BEAM]
    done = subprocess.run([sys.executable, "-m", "runners.flink_jobserver", *version],
                          cwd=REPO, capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PATH=str(tmp_path)))
    assert done.returncode == 0 and done.stdout.strip() == jar, done.stderr


def test_sample_build_on_a_flink_cluster_equals_the_direct_runner(jar, tmp_path):
    from runners.flink_cluster import Cluster
    direct, flink = tmp_path / "direct", tmp_path / "flink"
    build.run(["--output", str(direct), "--workers", "1"])
    with Cluster(str(tmp_path / "cluster"), slots=2) as cluster:
        env = dict(os.environ, PYTHONPATH=str(REPO))
        done = subprocess.run(
            [sys.executable, "-m", "runners.flink", "--flink_master", cluster.rest,
             "--environment_type", "LOOPBACK", "--parallelism", "2",
             "--flink_job_server_jar", jar, "--", "--output", str(flink)],
            cwd=REPO, env=env, capture_output=True, text=True, timeout=1200)
        overview = cluster.overview()
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    # every stage ran as a job of the cluster, none failed
    assert overview["jobs-finished"] == 4 and overview["jobs-failed"] == 0, overview
    assert validate.run([str(flink / "dataset")]) == []
    released = _files(direct / "dataset")
    assert any(p.endswith(".parquet") for p in released)
    assert _files(flink / "dataset") == released


def test_generate_on_a_corpus_slice_on_embedded_flink_equals_the_direct_runner(
        jar, corpus_dir, tmp_path):
    inputs = ["--input", str(corpus_dir / "cnn_stories" / "*.story"),
              "--input", str(corpus_dir / "cnndm_test250.jsonl"), "--limit", "16"]
    direct, flink = tmp_path / "direct", tmp_path / "flink"
    generate.run([*inputs, "--output", str(direct), "--workers", "1"])
    # Beam's own FlinkRunner, as `generate --runner FlinkRunner` is run by hand: it starts a
    # job server for the stage, and the stage stops it
    generate.run([*inputs, "--output", str(flink), "--runner", "FlinkRunner",
                  "--flink_master", "[local]", "--flink_job_server_jar", jar,
                  "--environment_type", "LOOPBACK", "--parallelism", "2"])
    assert not _java_children(), "the stage's job server is still running"
    for folder in ("candidates", "rejected", "articles"):
        rows = _rows(direct / folder)
        assert rows, folder
        assert _rows(flink / folder) == rows, folder
    assert _files(flink / "stats") == _files(direct / "stats")
