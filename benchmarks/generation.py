"""Generation throughput: words per second of the generate job against the ceiling, a bare
`nlp.pipe` loop over the same cleaned article text with the same spaCy pipeline.

- Ceiling: `load_spacy(AnnotateConfig())`, then `nlp.pipe(texts, batch_size=16)` over the
  paragraphs and highlights of the articles the job annotates (read with transforms.ingestion.readers,
  cleaned with transforms.curation.clean.clean_article, one per id). Model loading is not timed.
- Job: `python -m beam_pipelines.generate`-equivalent in a fresh subprocess. `job_s` is the
  wall time of `generate.run(argv)` inside it: pipeline construction, Beam start-up, spaCy
  loading in every worker, reading, cleaning, annotation, passages, queries and the Parquet
  and stats writes. `process_s` adds interpreter start and imports.
- Words: whitespace-split words of those texts, the same count for both.

Runs are interleaved (ceiling and jobs inside each repetition, order rotated) and the
ratios are taken within a repetition, then the median over repetitions: the machine is
shared, so absolute numbers drift between minutes.
"""
import json
import math
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from benchmarks import corpus
from benchmarks.procmon import TreeMonitor, _children_usage, machine_busy_s, wait_quiet  # noqa: F401

REPO = corpus.REPO

# Runs generate.run in a fresh interpreter and reports its own timings and rusage.
JOB_SCRIPT = r"""
import json, resource, sys, time
t0 = time.perf_counter()
from beam_pipelines import generate
t1 = time.perf_counter()
stats = generate.run(sys.argv[2:])
t2 = time.perf_counter()
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[1], "w") as f:
    json.dump({"import_s": t1 - t0, "job_s": t2 - t1,
               "self_maxrss_mb": me.ru_maxrss / 1024,
               "children_maxrss_mb": kids.ru_maxrss / 1024,
               "self_cpu_s": me.ru_utime + me.ru_stime,
               "children_cpu_s": kids.ru_utime + kids.ru_stime,
               "stages": {k: {"in": v["in"], "out": v["out"]}
                          for k, v in stats["stages"].items()},
               "queries": stats["summary"]["queries"]}, f)
"""

BUSY_SCRIPT = "s = 0\nfor i in range(%d): s += i * i\n"


# ---------------------------------------------------------------- the two sides
def run_job(inputs, workers, out_dir, extra_args=()) -> dict:
    """One generate job in a fresh subprocess; returns its timings and memory."""
    out_dir = pathlib.Path(out_dir)
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.mkdir(parents=True)
    report, log = out_dir / "_bench.json", out_dir / "_bench.log"
    argv = [a for p in inputs for a in ("--input", str(p))]
    argv += ["--output", str(out_dir / "job"), "--workers", str(workers), *extra_args]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]))
    before = _children_usage()
    load = os.getloadavg()[0]
    with open(log, "w") as logf:
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", JOB_SCRIPT, str(report), *argv],
                                cwd=REPO, env=env, stdout=logf, stderr=subprocess.STDOUT)
        monitor = TreeMonitor(proc.pid)
        monitor.start()
        rc = proc.wait()
        process_s = time.perf_counter() - started
        monitor.stop()
    after = _children_usage()
    if rc != 0 or not report.exists():
        tail = log.read_text(errors="replace")[-3000:]
        raise RuntimeError(f"generate job (workers={workers}) failed with exit code {rc}:\n"
                           f"{tail}")
    r = json.loads(report.read_text())
    r.update(workers=workers, process_s=process_s,
             peak_tree_rss_mb=monitor.peak_tree_rss / 2**20,
             peak_proc_rss_mb=monitor.peak_proc_rss / 2**20,
             peak_proc_hwm_mb=monitor.peak_proc_hwm / 2**20,
             max_processes=monitor.max_procs,
             cpu_s=max(monitor.cpu_s, after - before), loadavg_at_start=load)
    # cores the job's processes obtained on average: ~1.0 for an uncontended workers=1 job
    r["cores_used"] = r["cpu_s"] / process_s
    # cores other people's processes kept busy meanwhile (0 on an idle machine)
    r["other_cores"] = (max(monitor.busy_s - monitor.cpu_s, 0.0) / process_s
                        if monitor.busy_s is not None else None)
    shutil.rmtree(out_dir, ignore_errors=True)
    return r


def load_nlp():
    from transforms.curation.annotation import AnnotateConfig, load_spacy
    return load_spacy(AnnotateConfig())


def bare_loop(nlp, texts, batch_size=16) -> dict:
    """The ceiling: nlp.pipe over the texts, every Doc consumed."""
    load = os.getloadavg()[0]
    busy = machine_busy_s()
    wall, cpu = time.perf_counter(), time.process_time()
    n_docs = n_tokens = 0
    for doc in nlp.pipe(texts, batch_size=batch_size):
        n_docs += 1
        n_tokens += len(doc)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    end = machine_busy_s()
    other = max(end - busy - cpu, 0.0) / wall if None not in (busy, end) else None
    return {"wall_s": wall, "cpu_s": cpu, "docs": n_docs, "tokens": n_tokens,
            "loadavg_at_start": load, "other_cores": other}


def parallel_ceiling(seconds=1.5) -> dict:
    """What 2 processes can get from this machine right now: a pure-Python busy loop run
    alone, then two copies at once; speedup = 2 * alone / together (2.0 on 2 idle cores)."""
    def timed(copies, n):
        t = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, "-c", BUSY_SCRIPT % n]) for _ in range(copies)]
        for p in procs:
            p.wait()
        return time.perf_counter() - t

    n = 2_000_000
    probe = timed(1, n)
    n = max(n, int(n * seconds / max(probe, 1e-3)))
    alone = timed(1, n)
    together = timed(2, n)
    return {"alone_s": alone, "together_s": together, "speedup": 2 * alone / together}


# ---------------------------------------------------------------- the benchmark
def _fmt_or(x, nd=2):
    return "-" if x is None else f"{x:.{nd}f}"


def _median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def measure_generation(inputs=None, reps=3, workers=(1, 2), work_dir=None, nlp=None,
                       calibrate=True, quiet_wait_s=0, log=print) -> dict:
    """Ceiling and job(s) on the same input, `reps` times, interleaved. Returns the runs
    and a summary with the median of per-repetition ratios:
    `single_vs_ceiling` = job(workers=1) words/s / bare-loop words/s and
    `multi_vs_single` = job(workers=max) words/s / job(workers=1) words/s.
    `quiet_wait_s` > 0: before each step wait up to that long for an idle machine."""
    inputs = list(inputs or corpus.real_inputs())
    articles = corpus.clean_articles(corpus.read_articles(inputs))
    texts = corpus.texts_of(articles)
    words = corpus.count_words(texts)
    nlp = nlp if nlp is not None else load_nlp()
    own_tmp = work_dir is None
    work_dir = pathlib.Path(work_dir or tempfile.mkdtemp(prefix="bench-gen-"))
    runs = []
    try:
        for rep in range(reps):
            steps = ["bare", *[f"job{w}" for w in workers]]
            k = rep % len(steps)
            steps = steps[k:] + steps[:k]          # rotate the order between repetitions
            run = {"rep": rep, "order": steps, "jobs": {}}
            for step in steps:
                if quiet_wait_s:
                    wait_quiet(quiet_wait_s, log=log)
                if step == "bare":
                    run["bare"] = bare_loop(nlp, texts)
                    run["bare"]["wps"] = words / run["bare"]["wall_s"]
                    log(f"  rep {rep} bare loop: {run['bare']['wall_s']:.1f} s "
                        f"({run['bare']['wps']:.0f} words/s); cores taken by others "
                        f"{_fmt_or(run['bare']['other_cores'])}")
                else:
                    w = int(step[3:])
                    j = run_job(inputs, w, work_dir / f"rep{rep}-w{w}")
                    j["wps"] = words / j["job_s"]
                    j["annotated"] = j["stages"]["annotate"]["out"]
                    run["jobs"][str(w)] = j
                    log(f"  rep {rep} job workers={w}: {j['job_s']:.1f} s in generate.run, "
                        f"{j['process_s']:.1f} s process ({j['wps']:.0f} words/s), "
                        f"peak RSS {j['peak_tree_rss_mb']:.0f} MB; cores: ours "
                        f"{j['cores_used']:.2f}, others {_fmt_or(j['other_cores'])}")
            if calibrate and len(workers) > 1:
                run["parallel_ceiling"] = parallel_ceiling()
                log(f"  rep {rep} 2-process ceiling of the machine right now: "
                    f"{run['parallel_ceiling']['speedup']:.2f}x")
            runs.append(run)
    finally:
        if own_tmp:
            shutil.rmtree(work_dir, ignore_errors=True)
    return {"inputs": inputs, "articles": len(articles), "texts": len(texts), "words": words,
            "workers": list(workers), "reps": reps, "runs": runs,
            "summary": summarise(runs, workers, len(articles))}


def summarise(runs, workers, n_articles) -> dict:
    w1, wn = str(min(workers)), str(max(workers))
    s = {"bare_wps": _median(r["bare"]["wps"] for r in runs),
         "bare_s": _median(r["bare"]["wall_s"] for r in runs),
         "job_wps": {w: _median(r["jobs"][w]["wps"] for r in runs) for w in map(str, workers)},
         "job_s": {w: _median(r["jobs"][w]["job_s"] for r in runs) for w in map(str, workers)},
         "process_s": {w: _median(r["jobs"][w]["process_s"] for r in runs)
                       for w in map(str, workers)},
         "peak_tree_rss_mb": {w: _median(r["jobs"][w]["peak_tree_rss_mb"] for r in runs)
                              for w in map(str, workers)},
         "cores_used": {w: _median(r["jobs"][w]["cores_used"] for r in runs)
                        for w in map(str, workers)},
         "bare_cores_used": _median(r["bare"]["cpu_s"] / r["bare"]["wall_s"] for r in runs),
         "other_cores": {w: _median(r["jobs"][w]["other_cores"] for r in runs)
                         for w in map(str, workers)},
         "bare_other_cores": _median(r["bare"]["other_cores"] for r in runs),
         "all_annotated": all(j["annotated"] == n_articles
                              for r in runs for j in r["jobs"].values())}
    s["single_vs_ceiling"] = _median(r["jobs"][w1]["wps"] / r["bare"]["wps"] for r in runs)
    s["single_vs_ceiling_process"] = _median(
        r["bare"]["wall_s"] / r["jobs"][w1]["process_s"] for r in runs)
    # words per CPU-second: insensitive to other people's load (not to cache contention)
    s["single_vs_ceiling_cpu"] = _median(
        r["bare"]["cpu_s"] / r["jobs"][w1]["cpu_s"] for r in runs)
    if wn != w1:
        s["multi_vs_single"] = _median(r["jobs"][wn]["wps"] / r["jobs"][w1]["wps"] for r in runs)
        s["multi_cpu_overhead"] = _median(
            r["jobs"][wn]["cpu_s"] / r["jobs"][w1]["cpu_s"] for r in runs)
        s["parallel_ceiling"] = _median(r.get("parallel_ceiling", {}).get("speedup")
                                        for r in runs)
    return s


def is_positive_finite(x) -> bool:
    return isinstance(x, (int, float)) and math.isfinite(x) and x > 0
