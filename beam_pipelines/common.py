"""Shared plumbing of the entry points: default local runner and the bundled sample."""
import logging
import os
import pathlib

from apache_beam.options.pipeline_options import PipelineOptions

SAMPLE_CORPUS = pathlib.Path(__file__).resolve().parent / "sample_corpus"


def sample_inputs() -> list:
    """The bundled sample corpus (fictional stories written for this project)."""
    return [str(SAMPLE_CORPUS / "*.story"), str(SAMPLE_CORPUS / "*.jsonl")]


def _given(args, name):
    return any(a == f"--{name}" or a.startswith(f"--{name}=") for a in args)


def pipeline_options(beam_args, workers=None) -> PipelineOptions:
    """Beam options; with no runner given, the DirectRunner in multi-processing mode with
    one worker per core (or `workers`; 1 means in-process)."""
    args = list(beam_args)
    if not _given(args, "runner") or "DirectRunner" in " ".join(args):
        n = workers if workers is not None else (os.cpu_count() or 1)
        if not _given(args, "direct_running_mode"):
            args.append("--direct_running_mode=" + ("multi_processing" if n > 1 else "in_memory"))
        if not _given(args, "direct_num_workers"):
            args.append(f"--direct_num_workers={n}")
    return PipelineOptions(args)


def setup_logging(level=logging.INFO):
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for noisy in ("apache_beam", "urllib3", "google", "absl"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
