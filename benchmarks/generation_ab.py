"""generate of this checkout and of a baseline checkout against the same bare `nlp.pipe`
loop, in one run (the ratio to the loop of each, and of one to the other).

    python -m benchmarks.generation_ab --baseline DIR [--scale 1] [--reps 2]

DIR: another checkout of the project (e.g. `git worktree add DIR main`, or `git archive
COMMIT | tar -x -C DIR`); its code runs the baseline job (PYTHONPATH=DIR first), in the same
interpreter and venv. Input: the real corpus (`--scale` k: k copies, fresh ids, as
benchmarks.scaling). Per repetition: the bare loop, then both jobs (workers=1, in-process),
the order of the jobs alternating. Ratios as benchmarks.generation (`single_vs_ceiling`: job
words/s in `generate.run` / the loop's; `_cpu`: CPU s of the loop / of the job's process,
imports included), medians over repetitions. Prints one JSON line.
"""
import argparse
import json
import os
import pathlib
import statistics
import tempfile


def main(argv=None) -> dict:
    from benchmarks import corpus, generation
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", required=True, help="a checkout of the code to compare")
    ap.add_argument("--scale", type=int, default=1)
    ap.add_argument("--reps", type=int, default=2)
    args = ap.parse_args(argv)
    work = pathlib.Path(tempfile.mkdtemp(prefix="bench-gen-ab-"))
    inputs = corpus.real_inputs()
    if args.scale > 1:
        inputs = [corpus.write_replicated(inputs, args.scale, work / "corpus")]
    texts = corpus.texts_of(corpus.clean_articles(corpus.read_articles(inputs)))
    words = corpus.count_words(texts)
    nlp = generation.load_nlp()
    sides = {"new": generation.REPO, "baseline": pathlib.Path(args.baseline).resolve()}
    runs = []
    try:
        for rep in range(args.reps):
            run = {"bare": generation.bare_loop(nlp, texts)}
            for side in (("new", "baseline") if rep % 2 == 0 else ("baseline", "new")):
                generation.REPO = sides[side]
                try:
                    run[side] = generation.run_job(inputs, 1, work / f"{side}{rep}")
                finally:
                    generation.REPO = sides["new"]
            runs.append(run)
    finally:
        import shutil
        shutil.rmtree(work, ignore_errors=True)
    med = statistics.median
    out = {"scale": args.scale, "words": words, "texts": len(texts), "reps": args.reps,
           "bare_s": [round(r["bare"]["wall_s"], 1) for r in runs],
           "load": [round(x, 1) for x in os.getloadavg()]}
    for side in sides:
        out[side] = {
            "job_s": [round(r[side]["job_s"], 1) for r in runs],
            "cpu_s": [round(r[side]["cpu_s"], 1) for r in runs],
            "single_vs_ceiling": round(med(r["bare"]["wall_s"] / r[side]["job_s"]
                                           for r in runs), 3),
            "single_vs_ceiling_cpu": round(med(r["bare"]["cpu_s"] / r[side]["cpu_s"]
                                               for r in runs), 3),
            "load_at_start": [round(r[side]["loadavg_at_start"], 1) for r in runs]}
    out["new_over_baseline_cpu"] = round(med(r["baseline"]["cpu_s"] / r["new"]["cpu_s"]
                                             for r in runs), 3)
    out["new_over_baseline_wall"] = round(med(r["baseline"]["job_s"] / r["new"]["job_s"]
                                              for r in runs), 3)
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
