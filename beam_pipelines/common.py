"""Shared plumbing of the entry points: default local runner and the bundled sample."""
import logging
import os
import pathlib
import re

from apache_beam.options.pipeline_options import PipelineOptions

PROJECT_DIR = pathlib.Path(__file__).resolve().parents[1]
SAMPLE_CORPUS = PROJECT_DIR / "beam_pipelines" / "sample_corpus"


def sample_inputs() -> list:
    """The bundled sample corpus (fictional stories written for this project)."""
    return [str(SAMPLE_CORPUS / "*.story"), str(SAMPLE_CORPUS / "*.jsonl")]


def _given(args, name):
    return any(a == f"--{name}" or a.startswith(f"--{name}=") for a in args)


def pipeline_options(beam_args, workers=None) -> PipelineOptions:
    """Beam options. With no runner given: Beam's local FnApiRunner (what the DirectRunner
    runs batch pipelines on, minus its attempt to download the Prism runner binary) in
    multi-processing mode with one worker per core (or `workers`; 1 means in-process)."""
    args = list(beam_args)
    if not _given(args, "runner"):
        args.append("--runner=FnApiRunner")
    joined = " ".join(args)
    if "FnApiRunner" in joined or "DirectRunner" in joined:
        n = workers if workers is not None else (os.cpu_count() or 1)
        if not _given(args, "direct_running_mode"):
            args.append("--direct_running_mode=" + ("multi_processing" if n > 1 else "in_memory"))
        if not _given(args, "direct_num_workers"):
            args.append(f"--direct_num_workers={n}")
    return PipelineOptions(args)


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
        if record.levelno < logging.WARNING and not any(o in text for o in self.OURS):
            return False
        found = self.MESSAGE.search(text)
        if found:
            record.msg, record.args = "worker: " + found.group(1).replace('\\"', '"'), ()
        return True


def unknown_flags(beam_args) -> list:
    """Flags that are neither the command's own nor Beam pipeline options (typos)."""
    known = set(PipelineOptions([]).get_all_options().keys())
    given = PipelineOptions(list(beam_args)).get_all_options(retain_unknown_options=True)
    return sorted(f"--{name}" for name in set(given) - known)


class InputError(Exception):
    """Bad input or flags a user can fix: reported as one line, without a traceback."""


def run_main(run) -> None:
    """Entry-point wrapper: logging set up, and user errors printed as one clear line."""
    setup_logging()
    try:
        run()
    except (InputError, FileNotFoundError, NotADirectoryError) as err:
        raise SystemExit(f"error: {err}") from None


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
