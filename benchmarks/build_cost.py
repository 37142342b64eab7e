"""Build cost: where a whole `build` spends its time, per stage and per step.

    python -m benchmarks.build_cost [--runs sample,1,4] [--workers auto,1,2] [--json out.json]
                                    [--keep DIR] [--extra="--no-hardness_reader"]

Each run is `python -m beam_pipelines.build` in a fresh process (`benchmarks/build_probe.py`
records its stages) on the bundled sample (`sample`) or on the real corpus replicated N
times with fresh ids (`N`, `benchmarks/corpus.py`), once per worker setting (`auto`: no
`--workers` flag, the build's own choice). Printed per run and stage: wall and CPU seconds,
the phases (start-up = checks and imports before the graph, graph construction, and the
runner's time to its first bundle; then the run; then the stage's closing work), the
steps grouped as read / clean / annotate / queries / featurize / train / score / decide /
write / split / exports / table1 / hardness (reader, baselines, out-of-fold check,
bootstrap) / report /
explorer, each in seconds and per 1,000 rows (articles for generate, queries for the other
stages), and peak memory of the main process and of the largest worker process.

Step seconds are the SDK harness's own execution-time metric (summed over workers and
bundles, sampled): with several workers they add up to more than the wall time. A machine
shared with other jobs stretches every figure: compare ratios within one run (`uptime` is
printed at the start and the end of each run).
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

from benchmarks import corpus
from benchmarks.procmon import TreeMonitor, machine_busy_s

REPO = corpus.REPO
STAGES = ("generate", "train_folds", "adversarial_filter", "finalize")

#: (stage, regex on the transform label) -> step; first match wins, then `other`.
STEP_RULES = (
    (None, r"^(ReadArticles|ListInputs|Read[A-Z]\w*)(/|$)", "read"),
    ("generate", r"^CurateArticles/AnnotateEntities", "annotate"),
    ("generate", r"^CurateArticles/(Clean|KeyBy|GroupBy|KeepOne|KeepDistinct|SplitByUrl|"
                 r"NoUrl|BatchArticles|Distinct)", "clean"),
    ("generate", r"^GeneratePassagesQueriesAnswers", "queries"),
    ("train_folds", r"^FeaturizeCandidates/WriteShard", "write"),
    ("train_folds", r"^FeaturizeCandidates", "featurize"),
    ("train_folds", r"^TrainFolds", "train"),
    ("adversarial_filter", r"^AdversarialFilter/(Featurize)", "featurize"),
    ("adversarial_filter", r"^AdversarialFilter", "score"),
    ("adversarial_filter", r"^(Decide|BalancePlan)", "decide"),
    ("finalize", r"^Hardness/(ScoreReader|Reader)", "hardness_reader"),
    ("finalize", r"^Hardness/(TrainRows|CapTrain|TrainBaselines)", "hardness_train"),
    ("finalize", r"^Hardness/ScoreBaselines", "hardness_score"),
    ("finalize", r"^Hardness/OutOfFold", "hardness_oof"),
    ("finalize", r"^Hardness", "hardness_bootstrap"),
    ("finalize", r"^(WriteExports|BuildPassage|GroupPassage|KeyByPassage)", "exports"),
    ("finalize", r"^Table1", "table1"),
    ("finalize", r"^(DropDuplicateQueries|HumanValidation|NearDuplicates|GroupArticles|"
                 r"AssignSplits|Project|HideTestAnswers)", "split"),
    ("finalize", r"^(ArticleFates|AllRejected)", "fates"),
    ("finalize", r"^WriteReport", "report"),
    (None, r"^(Write|.*/Write)", "write"),
)


def step_of(stage: str, label: str) -> str:
    for where, pattern, step in STEP_RULES:
        if (where is None or where == stage) and re.search(pattern, label):
            return step
    return "other"


def group_steps(stage: str, msecs: dict) -> dict:
    out = {}
    for label, ms in msecs.items():
        step = step_of(stage, label)
        out[step] = out.get(step, 0.0) + ms / 1000
    return out


def _uptime() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def rows_of(run: pathlib.Path) -> dict:
    """{stage: rows it read} and the articles: from the stages' own stats."""
    gen = json.loads((run / "stats" / "generate.json").read_text())
    fin = json.loads((run / "dataset" / "stats.json").read_text())
    flt = json.loads((run / "filtered" / "stats" / "adversarial_filter.json").read_text())
    queries = gen["summary"]["queries"]
    return {"articles": gen["summary"]["articles"], "generate": gen["summary"]["articles"],
            "train_folds": queries, "adversarial_filter": queries,
            "finalize": fin["funnel"]["stages"]["dedupe"]["in"],
            "released": fin["table1"]["overall"]["queries"],
            "kept": flt.get("summary", {}).get("kept"),
            "max_group": {k: v.get("max_group") for k, v in gen["stages"].items()
                          if isinstance(v, dict) and "max_group" in v}}


def run_build(inputs, workers, run_dir, extra=(), log=print) -> dict:
    """One build in a fresh process; returns the probe's report with rows and memory."""
    run_dir = pathlib.Path(run_dir)
    shutil.rmtree(run_dir, ignore_errors=True)
    run_dir.parent.mkdir(parents=True, exist_ok=True)
    report_path = run_dir.parent / f"{run_dir.name}.probe.json"
    argv = [a for i in inputs for a in ("--input", i)] + ["--output", str(run_dir)]
    if workers != "auto":
        argv += ["--workers", str(workers)]
    argv += list(extra)
    env = dict(os.environ, PYTHONPATH=str(REPO), HF_HUB_OFFLINE="1")
    load_before = _uptime()
    log_path = run_dir.parent / f"{run_dir.name}.log"
    busy = machine_busy_s()
    with open(log_path, "w") as out:
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "benchmarks.build_probe",
                                 str(report_path), *argv], cwd=REPO, env=env, stdout=out,
                                stderr=subprocess.STDOUT)
        monitor = TreeMonitor(proc.pid)
        monitor.start()
        rc = proc.wait()
        wall = time.perf_counter() - started
        monitor.stop()
    if rc != 0:
        raise RuntimeError(f"build {' '.join(argv)} failed ({rc}):\n"
                           + log_path.read_text(errors="replace")[-3000:])
    report = json.loads(report_path.read_text())
    report.update(process_wall_s=wall, load_before=load_before, load_after=_uptime(),
                  peak_tree_rss_mb=round(monitor.peak_tree_rss / 2**20),
                  other_cores=(max(monitor.busy_s - monitor.cpu_s, 0) / wall
                               if busy is not None and monitor.busy_s is not None else None),
                  workers=workers, rows=rows_of(run_dir))
    for s in report["stages"]:
        s["steps_s"] = group_steps(s["stage"], s.pop("step_msecs"))
        for key, v in s.get("extra", {}).items():
            if key == "explorer_s":
                s["steps_s"]["explorer"] = v
        s["startup_s"] = sum(s[k] or 0 for k in ("prepare_s", "construct_s", "first_bundle_s"))
        s["rows"] = report["rows"].get(s["stage"])
    log(f"  {report_path.name}: {wall:.1f} s (load {load_before} -> {report['load_after']})")
    return report


def inputs_for(run: str, work: pathlib.Path) -> list:
    if run == "sample":
        from beam_pipelines.common import sample_inputs
        return sample_inputs()
    factor = int(run.rstrip("x"))
    return [corpus.write_replicated(corpus.real_inputs(), factor, work / f"corpus-x{factor}")]


def measure(runs=("sample", "1", "4"), workers=("auto",), work_dir=None, extra=(),
            keep=False, log=print, json_path=None) -> dict:
    """Every (run, workers) build; with `json_path`, the report so far is written after
    each build (a long series that stops keeps what it measured)."""
    work = pathlib.Path(work_dir or tempfile.mkdtemp(prefix="bench-cost-"))
    results = []
    try:
        for run in runs:
            inputs = inputs_for(run, work)
            for w in workers:
                name = f"{run}-w{w}"
                log(f"== {name}")
                r = run_build(inputs, w, work / name, extra, log)
                r["run"] = run
                merged = r["rows"]["max_group"].get("distinct_text") or 1
                if run != "sample" and merged > 1:   # copies must stay apart (rows flat)
                    raise RuntimeError(f"{name}: {merged} replicas merged into one text "
                                       "group: cleaning removed what tells copies apart")
                results.append(r)
                if json_path:
                    pathlib.Path(json_path).write_text(json.dumps(
                        {"runs": results, "cpus": os.cpu_count()}, indent=1, default=str))
                if not keep:
                    shutil.rmtree(work / name, ignore_errors=True)
    finally:
        if not keep and work_dir is None:
            shutil.rmtree(work, ignore_errors=True)
    return {"runs": results, "cpus": os.cpu_count()}


STEP_ORDER = ("read", "clean", "annotate", "queries", "featurize", "train", "score", "decide",
              "split", "hardness_reader", "hardness_train", "hardness_score",
              "hardness_oof", "hardness_bootstrap", "table1", "exports", "fates", "write",
              "report",
              "explorer", "other")


def table(report) -> str:
    lines = []
    for r in report["runs"]:
        rows = r["rows"]
        lines.append(f"\n### {r['run']} workers={r['workers']}: {r['wall_s']:.1f} s wall "
                     f"({r['cpu_s']:.1f} CPU s), {rows['articles']} articles, "
                     f"{rows['train_folds']} candidates, {rows['released']} released; "
                     f"load {r['load_before']} -> {r['load_after']}; peak tree RSS "
                     f"{r['peak_tree_rss_mb']} MB")
        lines.append("| stage | wall s | CPU s | start-up s (checks / graph / to 1st bundle) "
                     "| run s | closing s | s per 1k rows | main / worker peak MB |")
        lines.append("|---|---:|---:|---|---:|---:|---:|---|")
        for s in r["stages"]:
            per_k = 1000 * s["wall_s"] / s["rows"] if s.get("rows") else None
            lines.append(
                f"| {s['stage']} | {s['wall_s']:.1f} | {s['cpu_s']:.1f} | "
                f"{s['startup_s']:.1f} ({_f(s['prepare_s'])} / {_f(s['construct_s'])} / "
                f"{_f(s['first_bundle_s'])}) | {_f(s['run_s'])} | {_f(s['finish_s'])} | "
                f"{_f(per_k)} | {s['main_peak_rss_mb']} / {s['worker_peak_mb']} |")
        lines.append("\n| stage | step | step s | s per 1k rows |")
        lines.append("|---|---|---:|---:|")
        for s in r["stages"]:
            for step in STEP_ORDER:
                v = s["steps_s"].get(step)
                if v is None or v < 0.05:
                    continue
                per_k = 1000 * v / s["rows"] if s.get("rows") else None
                lines.append(f"| {s['stage']} | {step} | {v:.1f} | {_f(per_k)} |")
    return "\n".join(lines)


def cost_model(report) -> str:
    """Per stage and run: wall and CPU seconds per 1,000 articles, queries per article (the
    rows held flat across factors), and peak memory of the process doing the work (the
    main process in-process, else the largest worker)."""
    lines = ["| run | workers | stage | wall s / 1k articles | CPU s / 1k articles | "
             "queries / article | peak MB per process |", "|---|---|---|---:|---:|---:|---:|"]
    for r in report["runs"]:
        rows = r["rows"]
        k = rows["articles"] / 1000
        for s in r["stages"]:
            peak = s["worker_peak_mb"] or s["main_peak_rss_mb"]
            lines.append(f"| {r['run']} | {r['workers']} | {s['stage']} | "
                         f"{s['wall_s'] / k:.0f} | {s['cpu_s'] / k:.0f} | "
                         f"{rows['train_folds'] / rows['articles']:.2f} | {peak} |")
        lines.append(f"| {r['run']} | {r['workers']} | build | {r['wall_s'] / k:.0f} | "
                     f"{r['cpu_s'] / k:.0f} | | {r['peak_tree_rss_mb']} (tree) |")
    return "\n".join(lines)


def _f(x, nd=1):
    return "-" if x is None else f"{x:.{nd}f}"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", default="sample,1,4",
                   help="comma-separated: sample, or a factor of the real corpus")
    p.add_argument("--workers", default="auto", help="comma-separated: auto, 1, 2, ...")
    p.add_argument("--extra", default="", help="more build flags, space-separated")
    p.add_argument("--json", default=None)
    p.add_argument("--keep", default=None, help="keep the run folders under this folder")
    p.add_argument("--show", default=None, metavar="JSON",
                   help="print the tables of a saved --json report (runs nothing)")
    args = p.parse_args(argv)
    if args.show:
        report = json.loads(pathlib.Path(args.show).read_text())
        print(table(report) + "\n\n" + cost_model(report))
        return
    print(f"machine: {os.cpu_count()} CPUs, load {_uptime()}", flush=True)
    report = measure(tuple(args.runs.split(",")), tuple(args.workers.split(",")),
                     args.keep, tuple(args.extra.split()), keep=bool(args.keep),
                     json_path=args.json)
    print(table(report))
    print("\n" + cost_model(report))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(report, indent=1, default=str))


if __name__ == "__main__":
    main()
