"""Scaling: the generate job on 1x, 2x and 4x the real corpus (replicated with fresh ids,
written as JSON lines to a temporary folder and read inside the job).

Per repetition the factors run back to back; time and peak memory ratios are taken
within a repetition (4x / 1x), then the median over repetitions.
- time: wall time of generate.run in the job process (start-up included);
- memory: peak summed RSS of the job's process tree, sampled every 0.2 s from /proc, and the
  largest process's own peak (VmHWM; for `--workers 1` the two agree).
"""
import pathlib
import shutil
import statistics
import tempfile

from benchmarks import corpus
from benchmarks.generation import _fmt_or, bare_loop, run_job, wait_quiet


def _median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def replicated_corpora(factors, work_dir, source_inputs=None) -> dict:
    """{factor: (input pattern, words the job annotates)} for each factor."""
    source_inputs = list(source_inputs or corpus.real_inputs())
    out = {}
    for f in factors:
        pattern = corpus.write_replicated(source_inputs, f, pathlib.Path(work_dir) / f"x{f}")
        texts = corpus.cleaned_texts([pattern])
        out[f] = (pattern, corpus.count_words(texts), len(corpus.clean_articles(
            corpus.read_articles([pattern]))))
    return out


def measure_scaling(factors=(1, 2, 4), reps=3, workers=1, source_inputs=None, work_dir=None,
                    extra_workers=(), nlp=None, quiet_wait_s=0, log=print) -> dict:
    """The job at every factor, `reps` times. `extra_workers`: further worker counts, run
    right after `workers` at every factor (multi-process speedup by corpus size). With `nlp`, each
    repetition also times the bare nlp.pipe loop over the smallest factor's texts, so the
    steady-state ratio job(largest factor) words/s / ceiling words/s is paired."""
    own_tmp = work_dir is None
    work_dir = pathlib.Path(work_dir or tempfile.mkdtemp(prefix="bench-scale-"))
    runs = []
    try:
        corpora = replicated_corpora(factors, work_dir / "corpora", source_inputs)
        bare_texts = corpus.cleaned_texts([corpora[min(factors)][0]]) if nlp is not None else None
        for rep in range(reps):
            run = {"rep": rep, "jobs": {}}
            if nlp is not None:
                if quiet_wait_s:
                    wait_quiet(quiet_wait_s, log=log)
                b = bare_loop(nlp, bare_texts)
                b["wps"] = corpus.count_words(bare_texts) / b["wall_s"]
                run["bare"] = b
                log(f"  rep {rep} bare loop ({min(factors)}x texts): {b['wall_s']:.1f} s "
                    f"({b['wps']:.0f} words/s)")
            order = list(factors) if rep % 2 == 0 else list(reversed(factors))
            plan = [(f, w) for f in order for w in (workers, *extra_workers)]
            for f, w in plan:
                if quiet_wait_s:
                    wait_quiet(quiet_wait_s, log=log)
                pattern, words, n_articles = corpora[f]
                j = run_job([pattern], w, work_dir / f"rep{rep}-x{f}-w{w}")
                j.update(factor=f, words=words, wps=words / j["job_s"],
                         annotated=j["stages"]["annotate"]["out"], articles=n_articles)
                run["jobs"][f"x{f}-w{w}"] = j
                log(f"  rep {rep} {f}x workers={w}: {j['job_s']:.1f} s in generate.run "
                    f"({j['wps']:.0f} words/s), peak RSS {j['peak_tree_rss_mb']:.0f} MB "
                    f"(largest process {j['peak_proc_hwm_mb']:.0f} MB); cores: ours "
                    f"{j['cores_used']:.2f}, others {_fmt_or(j['other_cores'])}")
            runs.append(run)
    finally:
        if own_tmp:
            shutil.rmtree(work_dir, ignore_errors=True)
    return {"factors": list(factors), "workers": workers, "extra_workers": list(extra_workers),
            "reps": reps, "words": {f: c[1] for f, c in corpora.items()},
            "articles": {f: c[2] for f, c in corpora.items()}, "runs": runs,
            "summary": summarise(runs, factors, workers, extra_workers)}


def summarise(runs, factors, workers, extra_workers=()) -> dict:
    lo, hi = min(factors), max(factors)
    key = lambda f, w=workers: f"x{f}-w{w}"  # noqa: E731
    s = {"job_s": {f: _median(r["jobs"][key(f)]["job_s"] for r in runs) for f in factors},
         "wps": {f: _median(r["jobs"][key(f)]["wps"] for r in runs) for f in factors},
         "peak_rss_mb": {f: _median(r["jobs"][key(f)]["peak_tree_rss_mb"] for r in runs)
                         for f in factors},
         "cores_used": {f: _median(r["jobs"][key(f)]["cores_used"] for r in runs)
                        for f in factors},
         "other_cores": {f: _median(r["jobs"][key(f)]["other_cores"] for r in runs)
                         for f in factors},
         "cpu_s": {f: _median(r["jobs"][key(f)]["cpu_s"] for r in runs) for f in factors},
         "all_annotated": all(j["annotated"] == j["articles"]
                              for r in runs for j in r["jobs"].values())}
    for f in factors:
        if f == lo:
            continue
        s[f"time_{f}x_vs_{lo}x"] = _median(
            r["jobs"][key(f)]["job_s"] / r["jobs"][key(lo)]["job_s"] for r in runs)
        s[f"cpu_{f}x_vs_{lo}x"] = _median(
            r["jobs"][key(f)]["cpu_s"] / r["jobs"][key(lo)]["cpu_s"] for r in runs)
        s[f"rss_{f}x_vs_{lo}x"] = _median(
            r["jobs"][key(f)]["peak_tree_rss_mb"] / r["jobs"][key(lo)]["peak_tree_rss_mb"]
            for r in runs)
    if all("bare" in r for r in runs):
        s["bare_wps"] = _median(r["bare"]["wps"] for r in runs)
        s[f"single_vs_ceiling_at_{hi}x"] = _median(
            r["jobs"][key(hi)]["wps"] / r["bare"]["wps"] for r in runs)
    for w in extra_workers:
        for f in factors:
            s[f"w{w}_vs_w{workers}_at_{f}x"] = _median(
                r["jobs"][key(f)]["job_s"] / r["jobs"][key(f, w)]["job_s"] for r in runs)
            s[f"other_cores_w{w}_at_{f}x"] = _median(
                r["jobs"][key(f, w)]["other_cores"] for r in runs)
        s[f"cores_used_w{w}_at_{hi}x"] = _median(
            r["jobs"][key(hi, w)]["cores_used"] for r in runs)
        s[f"peak_rss_mb_w{w}_at_{hi}x"] = _median(
            r["jobs"][key(hi, w)]["peak_tree_rss_mb"] for r in runs)
    return s
