"""Read a run's output as a person would: N random queries with their passage.

    python -m beam_pipelines.preview RUN_DIR [-n 5] [--seed 0]

Reads RUN_DIR/dataset/*.parquet when the run has been finalised, else
RUN_DIR/candidates/*.parquet; RUN_DIR may also be a folder of Parquet files itself (a
candidates folder). Each query is shown with its passage (answer spans in [brackets]),
the query (the placeholder marked >>@placeholder<<) and its answers. The sample is
drawn with `--seed`, so the same run and seed show the same queries.
"""
import random
import sys
import textwrap

from transforms.core import io_utils
from transforms.core.constants import PLACEHOLDER

MARK = ">>@placeholder<<"
COLUMNS = ("id", "source", "passage", "query", "answers")


def parquet_files(run_dir: str) -> list:
    """The Parquet files to read, in the order of preference above."""
    for pattern in (io_utils.join(run_dir, "dataset", "*.parquet"),
                    io_utils.join(run_dir, "candidates", "*.parquet"),
                    io_utils.join(run_dir, "*.parquet")):
        files = io_utils.glob(pattern, files_only=True)
        if files:
            return files
    return []


def load_rows(files: list) -> list:
    import fsspec
    import pyarrow as pa
    import pyarrow.parquet as pq
    tables = []
    for path in files:
        with fsspec.open(path, "rb") as f:
            table = pq.read_table(f, use_threads=False)  # see io_utils.read_parquet
        missing = [c for c in COLUMNS if c not in table.column_names]
        if missing:
            raise ValueError(f"{path} has no column(s) {', '.join(missing)}: not a file of "
                             "candidates or dataset rows")
        tables.append(table.select(list(COLUMNS)))
    return pa.concat_tables(tables).to_pylist() if tables else []


def sample(rows: list, n: int, seed: int) -> list:
    """`n` rows drawn at random; the draw depends on the rows' ids only, not file order."""
    rows = sorted(rows, key=lambda r: r["id"])
    return random.Random(seed).sample(rows, min(n, len(rows)))


def mark_answers(passage: str, answers: list) -> str:
    spans = sorted({(a["start"], a["end"]) for a in answers}, reverse=True)
    for s, e in spans:
        passage = passage[:s] + "[" + passage[s:e] + "]" + passage[e:]
    return passage


def render(row: dict, width: int = 100) -> str:
    passage = mark_answers(row["passage"], row["answers"])
    body = "\n".join(textwrap.fill(p, width) if p.strip() else p
                     for p in passage.split("\n"))
    answers = ", ".join(dict.fromkeys(a["text"] for a in row["answers"]))
    return "\n".join([
        f"== {row['id']} ({row['source']})",
        body,
        "",
        textwrap.fill("QUERY: " + row["query"].replace(PLACEHOLDER, MARK), width),
        f"ANSWERS: {answers}",
    ])


def parse_args(argv):
    from beam_pipelines.common import parser
    ap = parser(__doc__.split("\n\n")[0])
    ap.add_argument("run_dir", help="a run directory (or a folder of candidate Parquet files)")
    ap.add_argument("-n", type=int, default=5, help="queries to show (default: 5)")
    ap.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    args = ap.parse_args(argv)
    if args.n < 1:
        ap.error("-n must be at least 1")
    return args


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    files = parquet_files(args.run_dir)
    if not files:
        print(f"error: no queries to preview: {args.run_dir} has no dataset/*.parquet, "
              "candidates/*.parquet or *.parquet", file=sys.stderr)
        return 2
    try:
        rows = load_rows(files)
    except (OSError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if not rows:
        print(f"error: no queries to preview: the Parquet files under {args.run_dir} have "
              "no rows", file=sys.stderr)
        return 2
    shown = sample(rows, args.n, args.seed)
    print(f"{len(shown)} of {len(rows)} queries from {len(files)} file(s)\n")
    print("\n\n".join(render(r) for r in shown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
