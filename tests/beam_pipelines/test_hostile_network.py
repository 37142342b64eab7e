"""Every network call bounded (issue 28, part 5), with real servers on 127.0.0.1 only:
`publish` against a hub that accepts and never answers, a closed port and a bad repo id
ends with one line; fsspec reads have timeouts; a chained `simplecache::gs://` URL gets
the credentials pre-flight `gs://` gets; unknown protocols (`GS://`, `s3://` without
s3fs) are one line in every command."""
import os
import socket
import subprocess
import sys
import threading
import time

import fsspec
import pytest

from tests.conftest import REPO
from tests.finalize.test_finalize import fixture_rows, run_finalize, write_filtered
from transforms.core import io_utils, preflight
from transforms.core.preflight import InputError


class SilentServer:
    """Accepts connections on 127.0.0.1 and never answers (holds them open)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(50)
        self.port = self.sock.getsockname()[1]
        self.held = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)

    def close(self):
        self.sock.close()
        for c in self.held:
            c.close()


@pytest.fixture
def silent():
    server = SilentServer()
    yield server
    server.close()


def closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def _cli(*args, env=None, timeout=120):
    full = {k: v for k, v in os.environ.items() if k not in ("GOOGLE_APPLICATION_CREDENTIALS",)}
    full.update(env or {})
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=timeout, env=full)
    return done, time.monotonic() - started


def _one_line(done):
    err = [line for line in done.stderr.strip().splitlines() if " WARNING " not in line]
    assert done.returncode != 0 and err and err[-1].startswith("error: "), done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return err[-1]


@pytest.mark.fast
def test_chained_urls_are_checked_link_by_link():
    assert preflight.chain("simplecache::gs://b/x/*.jsonl") == [
        ("simplecache", "simplecache"), ("gs", "gs://b/x/*.jsonl")]
    assert preflight.chain("zip://a.csv::gs://b/a.zip") == [
        ("zip", "zip://a.csv"), ("gs", "gs://b/a.zip")]
    assert preflight.chain("data/x.jsonl") == [("file", "data/x.jsonl")]
    for url, says in (("GS://b/x.jsonl", "unknown protocol 'GS' (protocols are lower case: gs://)"),
                      ("s3://b/x.jsonl", "s3:// needs a package that is not installed"),
                      ("simplecache::nope://b/x", "unknown protocol 'nope'")):
        with pytest.raises(InputError) as err:
            preflight.check_remote(url)
        assert says in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("args", [
    ("beam_pipelines.build", "--input", "GS://bucket/x.jsonl", "--output", "{tmp}/run"),
    ("beam_pipelines.build", "--input", "s3://bucket/x.jsonl", "--output", "{tmp}/run"),
    ("beam_pipelines.build", "--input", "{corpus}/cnn_stories/*.story", "--output", "GS://b/run"),
    ("beam_pipelines.validate", "GS://bucket/dataset"),
    ("beam_pipelines.finalize", "--filtered", "s3://bucket/filtered", "--output", "{tmp}/d"),
    ("beam_pipelines.preview", "GS://bucket/run"),
], ids=["build-GS", "build-s3", "output-GS", "validate", "finalize", "preview"])
def test_unknown_protocols_are_one_line_in_every_command(args, tmp_path, corpus_dir):
    args = [a.format(tmp=tmp_path, corpus=corpus_dir) for a in args]
    done, seconds = _cli(*args)
    line = _one_line(done)
    assert "unknown protocol 'GS'" in line or "s3:// needs a package" in line
    assert seconds < 60


def test_a_chained_gs_url_gets_the_credentials_preflight(tmp_path, corpus_dir):
    """No credentials here: `simplecache::gs://` stops at the pre-flight in seconds (it
    used to skip it, and gcsfs retried for minutes)."""
    env = {"HOME": str(tmp_path), "CLOUDSDK_CONFIG": str(tmp_path / "gcloud"),
           "GCE_METADATA_HOST": "127.0.0.1:1", "GCE_METADATA_IP": "127.0.0.1:1"}
    done, seconds = _cli("beam_pipelines.build", "--input", "simplecache::gs://no-bucket/x/*.jsonl",
                         "--output", str(tmp_path / "run"), env=env)
    line = _one_line(done)
    assert "Google Cloud" in line and seconds < 60, (line, seconds)


def test_fsspec_http_reads_time_out(silent):
    conf = io_utils.bound_remote_reads({}, request_s=1.5, connect_s=1.5)
    assert conf["gs"] == {"requests_timeout": 1.5}
    fs = fsspec.filesystem("http", skip_instance_cache=True, **conf["http"])
    started = time.monotonic()
    with pytest.raises(Exception) as err:
        fs.cat_file(f"http://127.0.0.1:{silent.port}/corpus.jsonl")
    assert "Timeout" in type(err.value).__name__ or "timeout" in str(err.value).lower()
    assert time.monotonic() - started < 20
    # the process-wide defaults every stage gets
    assert fsspec.config.conf["gs"]["requests_timeout"] == io_utils.REQUEST_TIMEOUT_S
    assert fsspec.config.conf["https"]["client_kwargs"]["timeout"].sock_read == \
        io_utils.REQUEST_TIMEOUT_S


@pytest.fixture(scope="module")
def release(record_format_dir, tmp_path_factory):
    root = tmp_path_factory.mktemp("net-release")
    filtered = write_filtered(root, fixture_rows(record_format_dir))
    return run_finalize(filtered, root / "dataset", "--license", "cc-by-4.0")


def _publish(release, endpoint, *extra, repo="me/record-net"):
    return _cli("beam_pipelines.publish", str(release), repo, "--token", "hf_test", *extra,
                env={"HF_ENDPOINT": endpoint, "HF_HUB_OFFLINE": "0"})


def test_publish_to_a_hub_that_never_answers_is_one_line(release, silent):
    done, seconds = _publish(release, f"http://127.0.0.1:{silent.port}", "--timeout", "3")
    line = _one_line(done)
    assert f"the hub at http://127.0.0.1:{silent.port} did not answer within 3 s" in line
    assert seconds < 40 and silent.held          # it did connect, and gave up
    done, seconds = _publish(release, f"http://127.0.0.1:{silent.port}")   # the defaults
    assert "did not answer within 10 s" in _one_line(done) and seconds < 60


def test_publish_to_a_closed_port_or_with_a_bad_repo_id_is_one_line(release):
    port = closed_port()
    done, _ = _publish(release, f"http://127.0.0.1:{port}")
    assert f"cannot reach the hub at http://127.0.0.1:{port}: ConnectError" in _one_line(done)
    for repo in ("me/bad repo!", "me/" + "x" * 200, "../etc"):
        done, _ = _publish(release, f"http://127.0.0.1:{port}", repo=repo)
        assert f"error: REPO_ID {repo!r}" in _one_line(done)
