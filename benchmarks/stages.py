"""Scale-out: every stage command on 1x, 4x and 8x the real corpus (issue: scale-out).

    python -m benchmarks.stages [--factors 1,4,8] [--workers 2] [--json out.json]

The corpus is replicated with fresh ids and text that differs per copy (benchmarks/corpus.py)
and each stage runs as its own command, as a user runs it: generate, train_folds,
adversarial_filter, finalize. Per stage and factor:
- `max_group`: the most elements one call of a grouping step received (the hot-key
  diagnostic), from the stage's stats; `max_rows_in_memory` of the model stages;
- wall time; peak RSS (VmHWM) of the runner process and of the largest SDK worker process;
- a pass-through baseline: a Beam job that only reads the factor's input and writes it back,
  with the same runner and workers (the local runner's own growth with input).
Bounded means: flat from 1x to 8x (within 1.1x), or capped by a configured batch/shard size.
So that the caps show at this corpus size, the stages run with small ones (`SMALL_BOUNDS`:
train_folds `--shuffle_buffer 400 --shard_rows 200`, finalize `--shard_rows 1000
--export_part_passages 100`); the defaults (10,000 / 5,000 / 100,000 / 2,000) only bind on
larger corpora.
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

from benchmarks import corpus
from benchmarks.procmon import TreeMonitor

REPO = corpus.REPO
SMALL_BOUNDS = {"train_folds": ["--shuffle_buffer", "400", "--shard_rows", "200"],
                "finalize": ["--shard_rows", "1000", "--export_part_passages", "100"]}
PASS_THROUGH = r"""
import sys
import apache_beam as beam
from transforms.core.stage import pipeline_options
src, dst, workers = sys.argv[1], sys.argv[2], int(sys.argv[3])
with beam.Pipeline(options=pipeline_options([], workers)) as p:
    p | beam.io.ReadFromText(src) | beam.Reshuffle() | beam.io.WriteToText(dst)
"""


def _run(argv, log_path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(REPO), HF_HUB_OFFLINE="1")
    with open(log_path, "w") as log:
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, *argv], cwd=REPO, env=env, stdout=log,
                                stderr=subprocess.STDOUT)
        monitor = TreeMonitor(proc.pid)
        monitor.start()
        rc = proc.wait()
        seconds = time.perf_counter() - started
        monitor.stop()
    if rc != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({rc}):\n"
                           + pathlib.Path(log_path).read_text(errors="replace")[-3000:])
    return {"s": round(seconds, 1), "runner_mb": round(monitor.runner_hwm / 2**20),
            "worker_mb": round(monitor.worker_hwm / 2**20)}


def _max(stats_stages: dict, key: str) -> dict:
    """{step: value} of a per-step key (max_group, ...) over a funnel's steps."""
    out = {}
    for step, account in stats_stages.items():
        for k, v in account.items():
            if k == key or k.endswith("." + key):
                out[step if k == key else f"{step}.{k[:-len(key) - 1]}"] = v
    return out


def stage_figures(run: pathlib.Path) -> dict:
    gen = json.loads((run / "stats" / "generate.json").read_text())
    train = json.loads((run / "adversary" / "stats" / "train_folds.json").read_text())
    flt = json.loads((run / "filtered" / "stats" / "adversarial_filter.json").read_text())
    fin = json.loads((run / "dataset" / "stats.json").read_text())
    fin_steps = {k: v for k, v in fin["funnel"]["stages"].items()
                 if k in ("dedupe", "human_validation", "split", "write")}
    return {
        "generate": {"max_group": _max(gen["stages"], "max_group"),
                     "queries": gen["summary"]["queries"]},
        "train_folds": {"max_rows_in_memory": train.get("max_rows_in_memory"),
                        "max_group": _max(train.get("stages", {}), "max_group"),
                        # the trainers' own memory: resident size while a fold's rows are
                        # held, and its growth over the fold (models/streaming.py Meter)
                        "trainer_peak_mb": max((f.get("rss_mb_peak") or 0)
                                               for f in train.get("per_fold", {}).values()),
                        "trainer_growth_mb": max(
                            (f.get("rss_mb_peak") or 0) - (f.get("rss_mb_at_start") or 0)
                            for f in train.get("per_fold", {}).values())},
        "adversarial_filter": {"max_rows_in_memory": flt.get("summary", {}).get(
            "max_rows_in_memory", flt.get("max_rows_in_memory")),
            "max_group": _max(flt.get("stages", {}), "max_group")},
        "finalize": {"max_group": _max(fin_steps, "max_group"),
                     "released": fin["funnel"]["stages"]["write"]["out"]},
    }


def measure(factors=(1, 4, 8), workers=2, work_dir=None, log=print) -> dict:
    work = pathlib.Path(work_dir or tempfile.mkdtemp(prefix="bench-stages-"))
    results = {}
    try:
        for f in factors:
            pattern = corpus.write_replicated(corpus.real_inputs(), f, work / f"x{f}")
            run = work / f"run{f}"
            w = ["--workers", str(workers)]
            commands = {
                "generate": ["-m", "beam_pipelines.generate", "--input", pattern,
                             "--output", str(run), *w],
                "train_folds": ["-m", "beam_pipelines.train_folds", "--candidates",
                                str(run / "candidates"), "--output", str(run / "adversary"), *w,
                                *SMALL_BOUNDS["train_folds"]],
                "adversarial_filter": ["-m", "beam_pipelines.adversarial_filter",
                                       "--candidates", str(run / "candidates"), "--adversary",
                                       str(run / "adversary"), "--output",
                                       str(run / "filtered"), *w],
                "finalize": ["-m", "beam_pipelines.finalize", "--filtered",
                             str(run / "filtered"), "--output", str(run / "dataset"), *w,
                             *SMALL_BOUNDS["finalize"]],
            }
            row = {}
            for stage, argv in commands.items():
                row[stage] = _run(argv, work / f"{stage}-{f}.log")
                log(f"  {f}x {stage}: {row[stage]}")
            figures = stage_figures(run)
            for stage in row:
                row[stage].update(figures[stage])
            merged = work / f"x{f}.txt"
            with open(merged, "w") as out:
                for part in sorted((work / f"x{f}").glob("*.jsonl")):
                    out.write(part.read_text())
            row["pass_through"] = _run(["-c", PASS_THROUGH, str(merged),
                                        str(work / f"pt{f}" / "out"), str(workers)],
                                       work / f"pt-{f}.log")
            log(f"  {f}x pass-through: {row['pass_through']}")
            results[f] = row
            shutil.rmtree(run, ignore_errors=True)
    finally:
        if work_dir is None:
            shutil.rmtree(work, ignore_errors=True)
    return {"factors": list(factors), "workers": workers, "results": results}


def table(report) -> str:
    lines = ["| stage | factor | time s | runner MB | worker MB | max_group (largest) | "
             "max_rows_in_memory |", "|---|---:|---:|---:|---:|---|---:|"]
    for f in report["factors"]:
        for stage, r in report["results"][f].items():
            groups = r.get("max_group") or {}
            top = max(groups.items(), key=lambda kv: kv[1]) if groups else None
            lines.append(f"| {stage} | {f}x | {r['s']} | {r['runner_mb']} | {r['worker_mb']} | "
                         f"{f'{top[0]} {top[1]}' if top else '-'} | "
                         f"{r.get('max_rows_in_memory') or '-'} |")
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--factors", default="1,4,8")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    report = measure(tuple(int(x) for x in args.factors.split(",")), args.workers)
    print(table(report))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
