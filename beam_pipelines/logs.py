"""Logging for the entry points: one format, Beam's and its workers' chatter filtered, and
stderr without the whole tracebacks Beam's SDK harness prints for an error the command
reports itself."""
import logging
import pathlib
import re

PROJECT_DIR = pathlib.Path(__file__).resolve().parents[1]


class NoWorkerTracebacks:
    """stderr without the tracebacks Beam's in-process SDK harness prints whole, in one
    write, for a DoFn's error: the runner raises the same error in the command, which
    reports it (one line for a user's error, the traceback otherwise). Python's own
    tracebacks are written a line at a time and pass."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        if text.startswith("Traceback (most recent call last):") and text.count("\n") > 1:
            return len(text)
        return self._stream.write(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


class _WorkerLogFilter(logging.Filter):
    """Multi-process DirectRunner workers forward their logs through the job service as
    protobuf text. Keep warnings and the project's own progress lines, shown as plain text;
    drop the workers' start-up chatter."""
    NOISE = ("semi_persistent_directory", "Discarding unparseable args", "Discarding invalid")
    OURS = tuple(f'log_location: "{PROJECT_DIR / pkg}/' for pkg in ("transforms", "models",
                                                                    "beam_pipelines"))
    MESSAGE = re.compile(r'message: "((?:[^"\\]|\\.)*)"')

    def filter(self, record):
        text = record.getMessage()
        if any(n in text for n in self.NOISE):
            return False
        if record.levelno >= logging.ERROR and "Traceback (most recent call last)" in text:
            return False    # a DoFn's error: the runner raises it in the command as well
        if record.levelno < logging.WARNING and not any(o in text for o in self.OURS):
            return False
        found = self.MESSAGE.search(text)
        if found:
            record.msg, record.args = "worker: " + found.group(1).replace('\\"', '"'), ()
        return True


class _DropRaisedErrors(logging.Filter):
    """Beam's runner logs a DoFn's error with its traceback, then raises it in the command,
    which reports it: one line for a user's error (a full disk), the traceback otherwise."""

    def filter(self, record):
        return not (record.name.startswith("apache_beam.runners") and record.exc_info
                    and record.levelno >= logging.ERROR)


class _DropMessages(logging.Filter):
    def __init__(self, *fragments):
        super().__init__()
        self.fragments = fragments

    def filter(self, record):
        return not any(f in record.getMessage() for f in self.fragments)


def setup_logging(level=logging.INFO):
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for noisy in ("apache_beam", "urllib3", "google", "absl"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    workers = logging.getLogger("apache_beam.runners.portability.local_job_service")
    workers.setLevel(logging.INFO)
    workers.addFilter(_WorkerLogFilter())
    # Beam's PyTorch handlers log this once per fold model on the root logger
    for handler in logging.getLogger().handlers:
        handler.addFilter(_DropMessages("Device is set to"))
        handler.addFilter(_DropRaisedErrors())
