"""Entry points: each parses flags and calls a stage (see transforms/stages.py)."""
import os
import signal
import sys

# The Beam commands and publish answer Ctrl-C and SIGTERM from one thread (beam_pipelines/common.py): run as a command
# (`python -m beam_pipelines.<x>` or a `record-*` console script), SIGINT and SIGTERM are blocked before any
# import can start a thread, so that every thread inherits the block. The other commands
# (validate, evaluate, preview, human_validation) keep Python's KeyboardInterrupt.
_WATCHED = {"generate", "train_folds", "adversarial_filter", "finalize", "build", "publish",
            "audit"}


def _command() -> str:
    argv = getattr(sys, "orig_argv", None) or []
    if "-m" in argv[:-1]:
        return argv[argv.index("-m") + 1].rpartition(".")[2]
    script = os.path.basename(sys.argv[0]) if sys.argv else ""
    return script[len("record-"):].replace("-", "_") if script.startswith("record-") else ""


if _command() in _WATCHED and hasattr(signal, "pthread_sigmask"):
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
