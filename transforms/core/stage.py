"""The stage protocol every job follows.

A stage module (`transforms/<stage>/stage.py`) has:
- a frozen `Config` dataclass: `paths` (where it reads and writes, never fingerprinted as
  strings) apart from `settings` (every knob, the paper's numbers as defaults, fingerprinted);
- `graph(p, config)`: builds the Beam graph on pipeline `p` without running it (dry runs);
- `run(config, runtime=Runtime())`: checks its input against the upstream manifest, runs
  the graph, writes its stats and its output manifest, and returns the stats dict.
`Runtime` says how a stage runs (runner options, local workers, GPU hints), never what it
computes, so it is not fingerprinted. `build` composes configs, not argv lists.
"""
import contextlib
import dataclasses
import logging
import os
import shlex
import time
from typing import Callable, Optional

log = logging.getLogger("stage")
CURRENT = {"stage": None}   # the stage running now (for the Ctrl-C line)
_CLEANUPS = []   # callables run when the command ends, however it ends (staging, locks, tmp)


def on_exit(fn):
    """Run `fn` when the command ends, however it ends: its normal end, an error, Ctrl-C or
    SIGTERM (beam_pipelines/common.py runs them). Returns a remover."""
    _CLEANUPS.append(fn)
    return lambda: _CLEANUPS.remove(fn) if fn in _CLEANUPS else None


def run_cleanups() -> None:
    while _CLEANUPS:
        fn = _CLEANUPS.pop()
        try:
            fn()
        except Exception:  # noqa: BLE001 - cleaning up must not hide the real outcome
            pass


@dataclasses.dataclass(frozen=True)
class Runtime:
    beam_args: tuple = ()            # Beam pipeline options (`--runner`, ...)
    workers: Optional[int] = None    # local worker processes; None: the stage's default
    gpu_hints: tuple = ()            # ((name, value), ...) resource hints of model steps
    progress: bool = True            # a status line while the stage runs

    def hints(self) -> dict:
        return dict(self.gpu_hints)


def _given(args, name):
    return any(a == f"--{name}" or a.startswith(f"--{name}=") for a in args)


def is_local(beam_args) -> bool:
    joined = " ".join(beam_args)
    return not _given(beam_args, "runner") or "FnApiRunner" in joined or "DirectRunner" in joined


def pipeline_options(beam_args, workers=None):
    """Beam options. With no runner given: Beam's local FnApiRunner (what the DirectRunner
    runs batch pipelines on, minus its attempt to download the Prism runner binary) in
    multi-processing mode with one worker per core (or `workers`; 1 means in-process)."""
    from apache_beam.options.pipeline_options import PipelineOptions
    args = list(beam_args)
    if not _given(args, "runner"):
        args.append("--runner=FnApiRunner")
    if is_local(args):
        n = workers if workers is not None else (os.cpu_count() or 1)
        if not _given(args, "direct_running_mode"):
            args.append("--direct_running_mode=" + ("multi_processing" if n > 1 else "in_memory"))
        if not _given(args, "direct_num_workers"):
            args.append(f"--direct_num_workers={n}")
    return PipelineOptions(args)


#: Where a command sends its local workers' own stderr (set by beam_pipelines/common.py):
#: Beam's SDK worker prints every DoFn error's traceback there, which the runner also raises
#: in the command, so on the terminal it would only bury the command's one-line error.
WORKER_STDERR = "RECORD_BUILDER_WORKER_STDERR"


def local_runner(options):
    """Beam's FnApiRunner whose worker processes are started with `exec` (Beam runs them
    through `sh -c`): a worker that dies is then reported once, by the command (see
    beam_pipelines/common.py), not also by the shell ("Killed"). Their stderr goes to
    `$RECORD_BUILDER_WORKER_STDERR` when set. None for other runners."""
    from apache_beam.options.pipeline_options import DirectOptions, StandardOptions
    if (options.view_as(StandardOptions).runner != "FnApiRunner"
            or options.view_as(DirectOptions).direct_running_mode != "multi_processing"):
        return None
    from apache_beam.portability import python_urns
    from apache_beam.runners.portability.fn_api_runner import FnApiRunner

    log = os.environ.get(WORKER_STDERR)
    tail = f" 2>>{shlex.quote(log)}".encode() if log else b""

    class ExecWorkers(FnApiRunner):
        def run_via_runner_api(self, pipeline_proto, options):
            for env in pipeline_proto.components.environments.values():
                if env.urn == python_urns.SUBPROCESS_SDK and not env.payload.startswith(b"exec "):
                    env.payload = b"exec " + env.payload + tail
            return super().run_via_runner_api(pipeline_proto, options)

    return ExecWorkers()


def job_server_runner(options):
    """FlinkRunner or SparkRunner that stops the job server it started for a stage when the
    stage ends. Beam stops it only at exit, after the command removed its temporary folder,
    and that clean-up then fails before the server is stopped: one JVM per stage was left
    running. None for other runners, or when `--job_endpoint` names a running server."""
    import importlib

    from apache_beam.options.pipeline_options import PortableOptions, StandardOptions
    name = options.view_as(StandardOptions).runner
    if name not in ("FlinkRunner", "SparkRunner") or options.view_as(PortableOptions).job_endpoint:
        return None
    module = importlib.import_module("apache_beam.runners.portability."
                                     + {"FlinkRunner": "flink_runner",
                                        "SparkRunner": "spark_runner"}[name])

    class StageJobServer(getattr(module, name)):
        def default_job_server(self, options):
            server = super().default_job_server(options)
            self.servers = getattr(self, "servers", []) + [server]
            return server

    return StageJobServer()


@contextlib.contextmanager
def current(stage: str):
    before = CURRENT["stage"]
    CURRENT["stage"] = stage
    try:
        yield
    finally:
        CURRENT["stage"] = before


#: A local stage whose input is smaller than this runs in-process (one worker) unless
#: `--workers` says otherwise: below it, starting worker processes (each importing Beam and
#: the stage's libraries and loading its models) costs more than a second core gives back.
#: Keys: stage, or "stage:model" where the model changes the cost per row. Units: articles
#: for generate, queries for the others. Measured on 2 cores: docs/benchmarks.md ("In-process
#: or worker processes").
IN_PROCESS_BELOW = {"generate": 100, "train_folds": 2_500, "train_folds:transformer": 0,
                    "adversarial_filter": 10_000, "adversarial_filter:transformer": 0,
                    "finalize": 200}


def auto_workers(stage: str, size, default_workers=None, model: str = "") -> tuple:
    """(workers, why) for a local stage run with no `--workers`: 1 (in-process) when its
    input is below IN_PROCESS_BELOW, else `default_workers` (None: one per core)."""
    below = IN_PROCESS_BELOW.get(f"{stage}:{model}", IN_PROCESS_BELOW.get(stage, 0))
    if size is not None and size < below:
        return 1, f"{size:,} rows < {below:,}: in-process (--workers overrides)"
    return default_workers, None


class StageFailed(RuntimeError):
    """A stage ran but its result cannot be trusted: one line says why."""


def job_failed(stage: str, options, message: str) -> str:
    """One line for a stage whose job failed on a remote runner (its restarts used up)."""
    from apache_beam.options.pipeline_options import StandardOptions
    runner = str(options.view_as(StandardOptions).runner).replace("Runner", "") or "runner"
    cause = message.split("failed in state", 1)[1].split(":", 1)[-1].strip()
    cause = cause.splitlines()[0] if cause else "no reason given"
    return (f"the {runner} job of {stage} failed ({cause[:300]}); run the same command to "
            "resume (completed stages are skipped)")


def run_pipeline(stage: str, build: Callable, runtime: Runtime, default_workers=None,
                 display=None, size=None, model: str = "") -> float:
    """Build the graph with `build(p)` and run it to the end; returns seconds taken.
    `display`: a progress.Display shown while it runs (terminal) or summarised after.
    `size` (rows in) and `model`: pick in-process for small local runs (`auto_workers`)."""
    import apache_beam as beam
    from apache_beam.runners.runner import PipelineState
    workers = runtime.workers
    if workers is None:
        workers, why = default_workers, None
        if is_local(runtime.beam_args):
            workers, why = auto_workers(stage, size, default_workers, model)
        if why:
            log.info("%s: %s", stage, why)
    options = pipeline_options(runtime.beam_args, workers)
    started = time.monotonic()
    with current(stage), (display if display is not None and runtime.progress
                          else contextlib.nullcontext()):
        runner = local_runner(options) or job_server_runner(options)
        p = beam.Pipeline(runner=runner, options=options)
        build(p)
        try:
            state = p.run().wait_until_finish()
        except RuntimeError as err:   # a portable runner's job (Flink, Spark) that failed
            if is_local(runtime.beam_args) or "failed in state" not in str(err):
                raise
            raise StageFailed(job_failed(stage, options, str(err))) from None
        finally:
            for server in getattr(runner, "servers", ()):
                server.stop()
    if state not in (None, PipelineState.DONE):
        raise StageFailed(f"{stage}: the pipeline ended in state {state}")
    return time.monotonic() - started
