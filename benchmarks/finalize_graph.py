"""The finalize job graph's serialized size with a ReCoRD-scale verdict file.

    python -m benchmarks.finalize_graph [--verdicts 770000] [--work_dir DIR]

Writes a synthetic human-validation result (`validated/*.parquet` with `id`, `valid_for`;
770k queries by default, ReCoRD's candidate count), builds the finalize graph with
`--validated` pointing at it (nothing runs), and prints the length of
`p.to_runner_api().SerializeToString()`. Target: under 1 MB (Dataflow refuses job graphs
over ~20 MB; the verdicts used to be embedded with `beam.Create`, ~26 MiB at this size).
For comparison it also prints the size of a graph that embeds the same verdicts in a
`beam.Create`, as the old job did. Exits 1 when the target is missed.
"""
import argparse
import json
import sys
import tempfile

TARGET_BYTES = 1_000_000


def write_verdicts(folder: str, n: int) -> None:
    import os

    import pyarrow as pa
    import pyarrow.parquet as pq
    os.makedirs(folder, exist_ok=True)
    ids = [f"{i:020x}-{i % 40:03d}-{i % 7:02d}" for i in range(n)]
    valid = [("dev_test", "train", "none")[i % 3] for i in range(n)]
    pq.write_table(pa.table({"id": ids, "valid_for": valid}),
                   os.path.join(folder, "validated-00000-of-00001.parquet"))


def graph_bytes(run_dir: str, validated: str) -> int:
    import apache_beam as beam

    from beam_pipelines import finalize
    p = beam.Pipeline()
    finalize.graph(p, ["--filtered", f"{run_dir}/filtered", "--output", f"{run_dir}/dataset",
                       "--validated", validated])
    return len(p.to_runner_api().SerializeToString())


def embedded_bytes(validated: str) -> int:
    import apache_beam as beam

    from transforms.core.io_utils import read_parquet
    table = read_parquet(f"{validated}/*.parquet")
    verdicts = dict(zip(table.column("id").to_pylist(), table.column("valid_for").to_pylist()))
    p = beam.Pipeline()
    p | beam.Create([verdicts])      # what the old finalize did with --validated
    return len(p.to_runner_api().SerializeToString())


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--verdicts", type=int, default=770_000)
    parser.add_argument("--work_dir", default=None)
    parser.add_argument("--skip_embedded", action="store_true",
                        help="do not build the embedded-verdicts comparison graph")
    args = parser.parse_args(argv)
    work = args.work_dir or tempfile.mkdtemp(prefix="finalize-graph-")
    validated = f"{work}/validated"
    write_verdicts(validated, args.verdicts)
    result = {"verdicts": args.verdicts, "graph_bytes": graph_bytes(work, validated),
              "target_bytes": TARGET_BYTES}
    if not args.skip_embedded:
        result["embedded_create_bytes"] = embedded_bytes(validated)
    result["ok"] = result["graph_bytes"] < TARGET_BYTES
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    sys.exit(0 if main()["ok"] else 1)
