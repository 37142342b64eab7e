"""The command line as a new user meets it: help, strict flags, pre-flight errors in one
line, progress, Ctrl-C, --limit, and no temporary files left behind."""
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pyarrow.parquet as pq
import pytest

from tests.conftest import REPO

COMMANDS = ("generate", "train_folds", "adversarial_filter", "finalize", "build", "validate",
            "evaluate", "human_validation", "preview")


def _cli(*args, env=None, timeout=300, **kw):
    full_env = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-m", *args], cwd=REPO, env=full_env,
                          capture_output=True, text=True, timeout=timeout, **kw)


@pytest.mark.parametrize("command", ["generate", "train_folds", "adversarial_filter", "build"])
def test_help_lists_every_flag_with_help_text_and_one_default(command):
    out = _cli(f"beam_pipelines.{command}", "--help")
    assert out.returncode == 0, out.stderr
    import re
    blocks = re.split(r"\n  (?=-)", out.stdout.split("options:", 1)[1])
    for block in blocks[1:]:
        flag = block.split()[0]
        text = " ".join(block.split()[1:])
        assert text, f"{flag} has no help text"
        assert text.count("(default:") <= 1 and "(default: None)" not in text, block
    # no heavy import on the way to --help
    probe = _cli("-X", "importtime", f"beam_pipelines.{command}", "--help").stderr
    assert "apache_beam " not in probe and "| torch" not in probe and "spacy" not in probe


def test_unknown_flag_is_one_line_naming_it_before_anything_starts(tmp_path):
    out = _cli("beam_pipelines.generate", "--output", str(tmp_path / "o"),
               "--min_entitiez", "3")
    assert out.returncode != 0
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert lines == ["error: unknown flag(s) --min_entitiez: not a flag of this command "
                     "(see --help) nor a Beam pipeline option"]
    assert not (tmp_path / "o").exists()
    for command in ("validate", "evaluate"):
        out = _cli(f"beam_pipelines.{command}", "x", "--data", "y", "--baseline", "random",
                   "--bogus", "1")
        assert out.returncode != 0 and "--bogus" in out.stderr
        assert "Traceback" not in out.stderr


@pytest.mark.parametrize("pattern, message", [
    ("{corpus}/cnn_stories", "is a folder: add a glob, e.g."),
    ("{corpus}/cnn_stories/*.nothing", "matches no file"),
    ("{corpus}/cnn_stories/*.txt", "no input file has a layout this job reads (.txt)"),
])
def test_input_mistakes_are_one_line_before_beam_starts(corpus_dir, tmp_path, pattern,
                                                        message):
    if pattern.endswith("*.txt"):   # all_train.txt / all_val.txt are URL lists, not stories
        pattern = "{corpus}/cnn_stories/all_*.url"
        (tmp_path / "in").mkdir()
        (tmp_path / "in" / "a.url").write_text("http://x\n")
        pattern, message = str(tmp_path / "in" / "*.url"), "no input file has a layout"
    out = _cli("beam_pipelines.generate", "--input", pattern.format(corpus=corpus_dir),
               "--output", str(tmp_path / "o"))
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert out.returncode != 0 and len(lines) == 1, out.stderr
    assert message in lines[0]
    assert "apache_beam" not in out.stderr


def test_unwritable_output_is_refused(tmp_path):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file, not a folder")
    out = _cli("beam_pipelines.generate", "--output", str(blocked / "run"))
    assert out.returncode != 0 and "is a file, not a folder" in out.stderr


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux /proc")
def test_an_output_folder_that_cannot_be_created_is_one_line():
    # /proc takes no new folders, not even from root (for whom os.access says yes)
    out = _cli("beam_pipelines.build", "--output", "/proc/no-such-run")
    assert out.returncode != 0 and out.stderr.strip().count("\n") == 0
    assert out.stderr.startswith("error: output /proc/no-such-run: cannot create a folder in "
                                 "/proc")


def test_gs_without_credentials_is_one_line(tmp_path):
    env = {"GOOGLE_APPLICATION_CREDENTIALS": str(tmp_path / "missing.json"),
           "HOME": str(tmp_path)}
    out = _cli("beam_pipelines.generate", "--input", "gs://some-bucket/x/*.story", "--output",
               str(tmp_path / "o"), env=env)
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert out.returncode != 0 and len(lines) == 1, out.stderr
    assert "Google Cloud credentials" in lines[0] or "GOOGLE_APPLICATION_CREDENTIALS" in lines[0]


def _fake_service_account(path, token_uri):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    path.write_text(json.dumps({
        "type": "service_account", "project_id": "p-123", "private_key_id": "k",
        "private_key": pem, "client_email": "x@p-123.iam.gserviceaccount.com",
        "client_id": "1", "token_uri": token_uri}))


def test_gs_with_a_network_that_never_answers_is_refused_within_the_deadline(tmp_path,
                                                                           monkeypatch):
    """A real TCP peer on 127.0.0.1 that accepts and never answers stands for a network
    that drops packets: the check gives up at its deadline with one sentence."""
    from transforms.core import preflight
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    port = server.getsockname()[1]
    held = []
    stop = threading.Event()

    def accept():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    threading.Thread(target=accept, daemon=True).start()
    key = tmp_path / "sa.json"
    _fake_service_account(key, f"http://127.0.0.1:{port}/token")
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(key))
    started = time.monotonic()
    try:
        with pytest.raises(preflight.InputError, match="did not answer within 2 s|network"):
            preflight.check_gcs("gs://some-bucket/run", timeout=2)
    finally:
        stop.set()
        server.close()
    assert time.monotonic() - started < 6


def test_limit_reads_the_first_records_deterministically(corpus_dir, tmp_path):
    from beam_pipelines import generate
    argv = ["--input", str(corpus_dir / "cnndm_test250.jsonl"), "--limit", "7",
            "--workers", "1"]
    stats = generate.run(argv + ["--output", str(tmp_path / "a")])
    assert stats["stages"]["read"]["in"] == 7
    lines = (corpus_dir / "cnndm_test250.jsonl").read_text().splitlines()[:7]
    first = {json.loads(line)["id"] for line in lines}
    fates = pq.read_table(str(tmp_path / "a" / "articles")).to_pylist()
    assert {f["article_id"] for f in fates} == first
    again = generate.run(argv + ["--output", str(tmp_path / "b")])
    assert again["stages"] == stats["stages"]


def _wait_for_workers(pgid, timeout=90):
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = []
        for entry in os.listdir("/proc"):
            try:
                if not entry.isdigit() or os.getpgid(int(entry)) != pgid:
                    continue
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    argv = f.read().split(b"\0")
                if b"apache_beam.runners.worker.sdk_worker_main" in argv:
                    found.append(int(entry))
            except OSError:
                continue
        if len(found) >= 2:
            return found
        time.sleep(0.5)
    raise AssertionError("the two Beam workers never started")


def _ignores_sigint(pid):
    with open(f"/proc/{pid}/status") as f:
        ignored = next(line for line in f if line.startswith("SigIgn:"))
    return bool(int(ignored.split()[1], 16) & (1 << (signal.SIGINT - 1)))


def test_ctrl_c_prints_one_line_exits_130_and_leaves_no_temp_files(corpus_dir, tmp_path):
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "beam_pipelines.generate", "--input",
         str(corpus_dir / "cnndm_test250.jsonl"), "--output", str(tmp_path / "o"),
         "--workers", "2"], cwd=REPO, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True)
    workers = _wait_for_workers(proc.pid)
    # a worker that took the SIGINT itself would print its own KeyboardInterrupt
    assert all(_ignores_sigint(pid) for pid in workers), workers
    time.sleep(2)   # the workers are reading
    os.killpg(proc.pid, signal.SIGINT)   # what a terminal sends: the whole process group
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    lines = [line for line in err.splitlines() if "interrupted" in line]
    assert lines == ["interrupted during generate; run the same command to resume"], err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    time.sleep(1)
    assert list(tmp.iterdir()) == []


def test_a_finished_run_leaves_no_temp_files(tmp_path):
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    out = _cli("beam_pipelines.generate", "--output", str(tmp_path / "o"), "--workers", "2",
               env={"TMPDIR": str(tmp)})
    assert out.returncode == 0, out.stderr
    assert list(tmp.iterdir()) == []
    assert "queries" in out.stderr   # the progress line, or its summary off a terminal


def test_ctrl_c_stops_the_annotation_server(record_format_dir, tmp_path):
    from tests.human_filtering.test_human_validation import write_record_candidates
    write_record_candidates(record_format_dir, tmp_path / "candidates")
    assert _cli("beam_pipelines.human_validation", "export", "--filtered",
                str(tmp_path / "candidates"), "--output", str(tmp_path / "hits")).returncode == 0
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "beam_pipelines.human_validation", "serve", "--hits",
         str(tmp_path / "hits"), "--db", str(tmp_path / "a.sqlite"), "--port", str(port)],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    import urllib.error
    import urllib.request
    deadline = time.time() + 60
    while time.time() < deadline:     # serving requests, not only listening: a Ctrl-C
        try:                          # during start-up ends it before its shutdown log
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).close()
            break
        except urllib.error.HTTPError:
            break                     # an answer (the page asks for a token): it serves
        except OSError:
            time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the server ignored Ctrl-C")
    assert proc.returncode == 0 and "Shutting down" in err and "Traceback" not in err, err


def test_the_commands_that_block_ctrl_c_are_those_that_answer_it():
    import beam_pipelines
    answering = {p.stem for p in (REPO / "beam_pipelines").glob("*.py")
                 if ("run_main(" in p.read_text() or "StageCommand(" in p.read_text())
                 and p.stem not in ("common", "command")}
    assert answering == beam_pipelines._WATCHED
