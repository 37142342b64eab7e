"""A local worker process killed during a build (issue 22 item 8): one line, a non-zero exit,
and the same command then completes, skipping the stages already complete. Slow (two short
builds of the bundled sample, a few minutes on a loaded machine)."""
import os
import signal
import subprocess
import sys
import threading
import time

from beam_pipelines.common import worker_lost_line
from tests.beam_pipelines.test_cli import REPO, _wait_for_workers

BUILD = ["-m", "beam_pipelines.build", "--workers", "2", "--model", "lexical", "--limit", "12"]


def test_the_line_names_the_stage_and_the_signal():
    line = worker_lost_line("generate", "RuntimeError: Worker subprocess exited with "
                                        "return code -9")
    assert line.startswith("error: a worker process died during generate (killed by SIGKILL)")
    assert "run the same command to resume" in line
    assert "SIGTERM" in worker_lost_line("x", "Worker subprocess exited with return code 143")
    assert worker_lost_line("x", "some other error") is None


def _start_build(out):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, *BUILD, "--output", str(out)], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def test_a_killed_worker_stops_the_build_with_one_line_and_a_rerun_resumes(tmp_path):
    out = tmp_path / "run"
    proc = _start_build(out)
    lines, started = [], threading.Event()

    def read():
        for line in proc.stderr:
            lines.append(line.rstrip("\n"))
            if "train_folds: start" in line:
                started.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert started.wait(600), "\n".join(lines[-20:])
    # the generate stage's workers are gone; wait for train_folds' own
    time.sleep(3)
    victim = _wait_for_workers(proc.pid, timeout=300)[0]
    os.kill(victim, signal.SIGKILL)
    proc.wait(timeout=120)
    reader.join(timeout=10)
    assert proc.returncode == 1, "\n".join(lines[-20:])
    after = lines[next(i for i, l in enumerate(lines) if "train_folds: start" in l) + 1:]
    errors = [l for l in after if l.startswith("error:")]
    assert errors == ["error: a worker process died during train_folds (killed by SIGKILL); "
                      "run the same command to resume (completed stages are skipped)"], after
    assert not any("Traceback" in l or l == "Killed" for l in lines), after

    again = subprocess.run([sys.executable, *BUILD, "--output", str(out)], cwd=REPO,
                           capture_output=True, text=True, timeout=1200)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "generate: complete (fingerprint matches), skipped" in again.stderr
    assert "all 4 stages complete" in again.stderr
    assert (out / "dataset").is_dir()
