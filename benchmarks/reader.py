"""The hardness report's held-out reader through RunInference against a bare batched torch
loop over the same texts.

    python -m benchmarks.reader --scored RUN/filtered/scored [--queries 300] [--reps 3]

Inputs: the filter's scored candidates of a real run, grouped by passage (the first
`--queries` in passage order). Both sides encode exactly the texts the report encodes (each
passage's sentences and its queries filled with each candidate, `passage_plan`), with the
same frozen MiniLM in the same precision (`--precision`, default auto as finalize), one torch
thread, batches of 64:
- loop: one `SentenceEncoder` call over all those texts (sorted by length across passages,
  so the least padding any batching can have), model loaded beforehand, not timed;
- RunInference: `Create(passages) | RunInference(PassageReaderHandler) | predictions`, on
  the in-process FnApiRunner; the whole pipeline is timed (construction, model load, one
  encode call per handler batch of up to 8 passages, the predictions).
Per repetition the two alternate which goes first; ratio = loop s / RunInference s, and
steady state: RunInference minus a one-query run (start-up and model load) against the
loop; each by wall and by CPU seconds of the process (the latter holds on a shared machine).
Medians over repetitions. Prints one JSON line.
"""
import argparse
import json
import statistics
import time


def passages(scored: str, queries: int) -> list:
    from transforms.core.io_utils import join, read_parquet
    from transforms.finalize.report.hardness import SCORED_COLUMNS
    rows = read_parquet(join(scored, "*.parquet"), columns=list(SCORED_COLUMNS)).to_pylist()
    groups = {}
    for r in sorted(rows, key=lambda r: (r["passage_id"], r["id"])):
        groups.setdefault(r["passage_id"], []).append(r)
    out, n = [], 0
    for pid in sorted(groups):
        if n >= queries:
            break
        out.append((pid, groups[pid]))
        n += len(groups[pid])
    return out


def run_pipeline(groups, precision: str = "auto") -> tuple:
    import apache_beam as beam
    from apache_beam.ml.inference.base import RunInference
    from apache_beam.options.pipeline_options import PipelineOptions

    from models.reader_handler import reader_handler
    started, cpu = time.perf_counter(), time.process_time()
    opts = PipelineOptions(["--runner=FnApiRunner", "--direct_running_mode=in_memory",
                            "--direct_num_workers=1"])
    with beam.Pipeline(options=opts) as p:
        _ = (p | beam.Create(groups) | RunInference(reader_handler(precision=precision))
             | beam.Map(lambda r: len(r.inference)))
    return time.perf_counter() - started, time.process_time() - cpu


def main(argv=None) -> dict:
    from models.embedding_reader import SentenceEncoder, passage_plan
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scored", required=True)
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--precision", default="auto", help="the reader's arithmetic on both sides")
    args = ap.parse_args(argv)
    groups = passages(args.scored, args.queries)
    texts = [t for _, rows in groups for t in passage_plan(rows)[0]]
    # start-up and model load: a pipeline scoring one query of the shortest passage
    short = min(groups, key=lambda g: len(g[1][0]["passage"]))
    probe = [(short[0], short[1][:1])]
    encoder = SentenceEncoder(precision=args.precision)
    encoder(texts[:8])                                  # warm-up
    reps = []
    for rep in range(args.reps):
        timings = {}
        for side in (("loop", "runinference") if rep % 2 == 0 else ("runinference", "loop")):
            t, c = time.perf_counter(), time.process_time()
            if side == "loop":
                encoder(texts)
                timings[side] = (time.perf_counter() - t, time.process_time() - c)
            else:
                timings[side] = run_pipeline(groups, args.precision)
        timings["probe"] = run_pipeline(probe, args.precision)
        reps.append(timings)
    out = {"passages": len(groups), "queries": sum(len(r) for _, r in groups),
           "texts": len(texts), "reps": reps, "target": ">=0.9"}
    for k, name in ((0, "wall"), (1, "cpu")):
        out[f"ratio_{name}"] = round(statistics.median(
            r["loop"][k] / r["runinference"][k] for r in reps), 3)
        out[f"steady_state_ratio_{name}"] = round(statistics.median(
            r["loop"][k] / max(r["runinference"][k] - r["probe"][k], 1e-9) for r in reps), 3)
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
