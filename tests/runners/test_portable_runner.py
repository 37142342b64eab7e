"""The whole build through Beam's portable job API, as Flink and Spark run Python pipelines:
Beam's PortableRunner with its embedded job service and SDK workers in an EXTERNAL worker
pool (separate processes the test starts). The dataset equals the local runner's, row for
row, exports included."""
import os
import socket
import subprocess
import sys
import time

import pytest

from beam_pipelines import build, validate
from tests.beam_pipelines.test_build import _dataset

LIMIT = ["--limit", "12"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def worker_pool():
    port = _free_port()
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep
               + os.environ.get("PATH", ""))
    proc = subprocess.Popen([sys.executable, "-m",
                             "apache_beam.runners.worker.worker_pool_main",
                             "--service_port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert proc.poll() is None, "the worker pool did not start"
            assert time.monotonic() < deadline, "the worker pool never listened"
            time.sleep(0.2)
    yield port
    proc.terminate()
    proc.wait(timeout=30)


def test_build_on_the_portable_runner_equals_the_local_runner(worker_pool, tmp_path):
    local, portable = tmp_path / "local", tmp_path / "portable"
    build.run(["--output", str(local), *LIMIT, "--workers", "1"])
    markers = build.run(["--output", str(portable), *LIMIT, "--runner", "PortableRunner",
                         "--job_endpoint", "embed", "--environment_type", "EXTERNAL",
                         "--environment_config", f"localhost:{worker_pool}"])
    assert list(markers) == ["generate", "train_folds", "adversarial_filter", "finalize"]
    assert validate.run([str(portable / "dataset")]) == []
    shards, exports = _dataset(portable)
    assert sum(len(rows) for rows in shards.values()) > 0
    assert (shards, exports) == _dataset(local)
