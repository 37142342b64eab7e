"""Entry points: each parses flags and calls a stage (see transforms/stages.py)."""
import os
import signal
import sys

# Run as a command (`python -m beam_pipelines.<x>` or a `record-*` console script), SIGINT is
# blocked before any import can start a thread, so that worker processes inherit the block
# and one thread of the command answers Ctrl-C (beam_pipelines/common.py).
if (sys.argv and (sys.argv[0] == "-m" or os.path.basename(sys.argv[0]).startswith("record-"))
        and hasattr(signal, "pthread_sigmask")):
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
