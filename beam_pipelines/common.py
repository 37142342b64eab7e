"""What every entry point shares: strict flags, one-line errors, Ctrl-C, temp files, logs.

Entry points only parse flags and call a stage. Heavy modules (Beam, spaCy, torch) are
imported after the flags are parsed, so `--help` answers at once.
"""
import argparse
import atexit
import errno
import logging
import os
import pathlib
import re
import shutil
import signal
import sys
import tempfile
import threading

from beam_pipelines.logs import PROJECT_DIR, NoWorkerTracebacks, setup_logging  # noqa: F401
from transforms.core import procfs
from transforms.core.preflight import InputError  # noqa: F401 - re-exported
from transforms.core.stage import CURRENT, WORKER_STDERR, pipeline_options, run_cleanups  # noqa: F401 - re-exported
from transforms.core.stage import on_exit as stage_on_exit

SAMPLE_CORPUS = PROJECT_DIR / "beam_pipelines" / "sample_corpus"


def sample_inputs() -> list:
    """The bundled sample corpus (fictional stories written for this project)."""
    return [str(SAMPLE_CORPUS / "*.story"), str(SAMPLE_CORPUS / "*.jsonl")]


def on_exit(fn):
    """Run `fn` when the command ends, however it ends (returns a remover)."""
    return stage_on_exit(fn)


def _run_cleanups():
    run_cleanups()


# --- flags ------------------------------------------------------------------------------

class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump) and no abbreviated flags."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message):
        raise SystemExit(f"error: {message} (see --help)")

    def parse_known_args(self, args=None, namespace=None):
        """As argparse, then every URL argument's protocols checked (`GS://`, `s3://`
        without s3fs: one line, before anything is read)."""
        from transforms.core.preflight import InputError, check_protocols
        parsed, rest = super().parse_known_args(args, namespace)
        for value in vars(parsed).values():
            for v in value if isinstance(value, (list, tuple)) else (value,):
                if isinstance(v, str) and "://" in v:
                    try:
                        check_protocols(v)
                    except InputError as err:
                        raise SystemExit(f"error: {err}") from None
        return parsed, rest


def parser(description: str) -> argparse.ArgumentParser:
    return Parser(description=description)


def parse(p: argparse.ArgumentParser, argv=None):
    """(args, Beam options): flags that are neither the command's own nor Beam pipeline
    options end the command with one line naming them, before anything starts."""
    args, rest = p.parse_known_args(argv)
    typos = unknown_flags(rest) if rest else []
    if typos:
        raise InputError(f"unknown flag(s) {', '.join(typos)}: not a flag of this command "
                         "(see --help) nor a Beam pipeline option")
    stray = [a for i, a in enumerate(rest) if not a.startswith("-")
             and not (i and rest[i - 1].startswith("--") and "=" not in rest[i - 1])]
    if stray:
        raise InputError(f"unexpected argument(s) {' '.join(stray)} (see --help)")
    return args, tuple(rest)


def unknown_flags(beam_args) -> list:
    """Flags that are neither the command's own nor Beam pipeline options (typos)."""
    from apache_beam.options.pipeline_options import PipelineOptions
    known = set(PipelineOptions([]).get_all_options().keys())
    given = PipelineOptions(list(beam_args)).get_all_options(retain_unknown_options=True)
    return sorted(f"--{name}" for name in set(given) - known)


def add_workers_flag(p, default_help="one per core"):
    p.add_argument("--workers", type=int, default=None,
                   help=f"local worker processes; 1 runs in-process (default: {default_help})")


# --- running ----------------------------------------------------------------------------

def _interrupted(command: str, signum: int = signal.SIGINT):
    stage = CURRENT["stage"] or command
    if signum == signal.SIGTERM:
        _abort(f"\nterminated (SIGTERM) during {stage}; its worker processes are stopped; run "
               "the same command to resume", 128 + signal.SIGTERM)
    _abort(f"\ninterrupted during {stage}; run the same command to resume", 130)


_ABORTING = threading.Lock()


def _abort(message: str, code: int):
    """One line, then the command ends at once: its worker processes are stopped (and
    waited for, a few seconds at most), its clean-ups run (locks, staging and temporary
    folders), nothing else is printed. The first caller wins: a worker that dies of the
    same stop does not add its own line."""
    if not _ABORTING.acquire(blocking=False):
        return
    print(message, file=sys.stderr, flush=True)
    # nothing more reaches the terminal: the runner's threads would report the workers'
    # ends as errors while the command winds down
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    logging.disable(logging.CRITICAL)
    _stop_workers()
    _run_cleanups()
    os._exit(code)


def _await_abort():
    """While another thread ends the command (`_abort`: a stop, a lost worker), the main
    thread waits for that thread's exit instead of ending the process first with a status
    of its own (the workers it stops make the pipeline fail here: exit 1, not 130)."""
    if _ABORTING.locked():
        threading.Event().wait()


def _stop_workers(wait_s: float = 5.0) -> None:
    """SIGKILL every process under this one (they ignore SIGINT and SIGTERM, see
    `_watch_stops`), then wait until none is left running."""
    import time
    mine = set(procfs.tree(os.getpid())) - {os.getpid()}
    for pid in mine:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    deadline = time.monotonic() + wait_s
    while mine and time.monotonic() < deadline:
        mine = {pid for pid in mine if procfs.stat(pid) is not None and not _zombie(pid)}
        time.sleep(0.05)


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return True


_WORKER_EXIT = re.compile(r"Worker subprocess exited with return code (-?\d+)")


def worker_lost_line(stage: str, text: str):
    """The one line for a local SDK worker that died (Beam's run_worker thread raises
    `Worker subprocess exited with return code N`), or None for any other error."""
    found = _WORKER_EXIT.search(text)
    if not found:
        return None
    code = int(found.group(1))
    number = -code if code < 0 else code - 128 if code > 128 else 0
    try:
        how = f"killed by {signal.Signals(number).name}" if number else f"exit status {code}"
    except ValueError:
        how = f"exit status {code}"
    return (f"error: a worker process died during {stage} ({how}); run the same command to "
            "resume (completed stages are skipped)")


def _watch_workers(command: str):
    """Beam's local multi-process runner neither retries nor stops when an SDK worker dies:
    the thread that started the worker raises and the job waits forever. End it instead,
    with one line and exit status 1."""
    previous = threading.excepthook

    def hook(args):
        line = worker_lost_line(CURRENT["stage"] or command, str(args.exc_value))
        if line is None:
            if _channel_broken(args):
                # the runner's gRPC reader of a worker that died: the worker's own thread
                # raises next, and that gives the one line
                logging.getLogger(__name__).debug("worker data channel closed: %s",
                                                  args.exc_value)
                return None
            return previous(args)
        _abort(line, 1)

    threading.excepthook = hook


def _channel_broken(args) -> bool:
    """A thread exception that only says a worker's gRPC stream ended (the runner's
    `read_grpc_client_inputs` and `beam_control_read` threads raise grpc's RpcError when
    the worker process is gone)."""
    name = getattr(args.thread, "name", "") or ""
    return (name in ("read_grpc_client_inputs", "beam_control_read")
            and type(args.exc_value).__module__.split(".")[0] == "grpc")


STOPS = {signal.SIGINT, signal.SIGTERM}


def _watch_stops(command: str):
    """SIGINT (Ctrl-C) and SIGTERM (`kill`, a service manager's stop) are blocked in every
    thread and one thread waits for them, ending the command with one line (exit 130, or
    143 for SIGTERM) after stopping every worker process and running the clean-ups (lock,
    staging and temporary folders). Both are also ignored: worker processes keep an ignored
    signal across exec, so they print no KeyboardInterrupt of their own and a signal sent to
    the whole process group reaches only this command, which ends them (SIGKILL); a blocked
    signal still reaches `sigwait` while ignored (Linux)."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    for signum in STOPS:
        signal.signal(signum, signal.SIG_IGN)

    def wait():
        _interrupted(command, signal.sigwait(STOPS))

    threading.Thread(target=wait, name="stops", daemon=True).start()


def _private_tmp():
    """A temporary folder for this command and its workers, removed when it ends (Beam's
    address/lock files, torch's caches, the workers' own stderr)."""
    tmp = tempfile.mkdtemp(prefix="record-builder-")
    os.environ["TMPDIR"] = tmp
    os.environ[WORKER_STDERR] = os.path.join(tmp, "workers.stderr")
    os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", os.path.join(tmp, "torchinductor"))
    tempfile.tempdir = tmp
    on_exit(lambda: shutil.rmtree(tmp, ignore_errors=True))


def run_main(run, command: str = None) -> None:
    """Entry-point wrapper: logging, Ctrl-C, temp files, and user errors as one line."""
    from transforms.core.manifest import ManifestError
    from transforms.core.stage import StageFailed
    command = command or pathlib.Path(sys.argv[0]).stem
    sys.stderr = NoWorkerTracebacks(sys.stderr)
    setup_logging()
    _watch_stops(command)
    _watch_workers(command)
    _private_tmp()
    atexit.register(_run_cleanups)
    try:
        run()
    except (InputError, ManifestError, StageFailed, FileNotFoundError,
            NotADirectoryError) as err:
        _await_abort()
        _run_cleanups()
        raise SystemExit(f"error: {err}") from None
    except Exception as err:
        _await_abort()
        line = os_error_line(CURRENT["stage"] or command, err)
        if line is None:
            raise
        _run_cleanups()
        raise SystemExit(line) from None
    finally:
        _await_abort()
        _run_cleanups()


#: errno -> what the one line says (a disk that is full, a folder the user may not write).
OS_ERRORS = {errno.ENOSPC: "no space left on device", errno.EDQUOT: "disk quota exceeded",
             errno.EFBIG: "file too large (a file size limit)", errno.EROFS: "read-only file system",
             errno.EACCES: "permission denied", errno.EPERM: "operation not permitted"}
_ERRNO_TEXT = re.compile(r"\[Errno (\d+)\] [^:'\n]*(?::\s*'([^'\n]*)')?")


def os_error_line(stage: str, err: BaseException):
    """The one line for a full disk or a permission error, wherever it was raised (in this
    process, or in a worker whose traceback the runner passes on as text); None for any
    other error."""
    seen, found = set(), None
    while err is not None and id(err) not in seen and found is None:
        seen.add(id(err))
        if isinstance(err, OSError) and err.errno in OS_ERRORS:
            found = (err.errno, err.filename)
        else:
            for m in _ERRNO_TEXT.finditer(str(err)):
                if int(m.group(1)) in OS_ERRORS:
                    found = (int(m.group(1)), m.group(2))
                    break
        err = err.__cause__ or err.__context__
    if found is None:
        return None
    code, path = found
    where = f" at {path}" if path else ""
    return (f"error: {OS_ERRORS[code]}{where} during {stage}; nothing was replaced (a "
            "release already in place is untouched): free space or fix the permissions and "
            "run the same command")
