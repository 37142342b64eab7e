"""`dataset/explorer/`: a static page to browse the release and its audit trail (issue 21).

`index.html` opens from file:// with no server: it loads `data.js` (a script, since
browsers refuse `fetch` on file://) and draws everything with DOM text nodes, never HTML
built from the data. It shows a bounded, deterministic sample, so the page stays small
whatever the corpus size:
- per split, the `queries` smallest query ids, each with its passage, entities and answers;
- per (stage, reason) of every rejected row (generate's `rejected/`, the filter's
  `filtered/rejected/`, finalize's own `rejected/`), the total and the `drops` rows with the
  smallest (record_id, article_id, detail); a query the adversary answered carries its
  query, passage, gold answers and the adversary's answer (from `filtered/scored/`);
- human performance per split, and the validation answers of each shown query (workers
  named by the order they answered; human_performance.explorer_part).
Files are read in record batches with a bounded heap per group (memory: the sample).
Spans are written once as JavaScript string indices (UTF-16 code units, `utf16_offsets`),
not the contract's code-point offsets, so the page marks the right text after an emoji.
"""
import bisect
import heapq
import json
from importlib import resources

import fsspec
import pyarrow.parquet as pq

from transforms.core import io_utils
from transforms.core.constants import SPLITS
from transforms.finalize.exports.files import write_text
from transforms.finalize.exports.relative import input_root, strip_root

FOLDER = "explorer"
_QUERY_COLUMNS = ["id", "passage_id", "source", "origin", "url", "passage", "entities",
                  "query", "answers"]
_REJECTED_COLUMNS = ["stage", "reason", "article_id", "record_id", "detail"]


def _batches(pattern: str, columns):
    """Rows of every Parquet file matching `pattern` (sorted paths), a batch at a time."""
    for path in sorted(io_utils.glob(pattern)):
        with fsspec.open(path, "rb") as f:
            reader = pq.ParquetFile(f)
            names = [c for c in columns if c in reader.schema_arrow.names]
            for batch in reader.iter_batches(batch_size=256, columns=names, use_threads=False):
                yield from batch.to_pylist()


class Smallest:
    """The `n` smallest items by key seen so far (a bounded max-heap), in key order."""

    def __init__(self, n: int):
        self.n, self.heap, self.seen = n, [], 0

    def add(self, key, item) -> None:
        self.seen += 1
        entry = (_Neg(key), self.seen, item)
        if len(self.heap) < self.n:
            heapq.heappush(self.heap, entry)
        elif self.n and key < self.heap[0][0].key:
            heapq.heapreplace(self.heap, entry)

    def items(self) -> list:
        return [item for _, _, item in sorted(self.heap, key=lambda e: (e[0].key, e[1]))]


class _Neg:
    """Reverses the order of a key, so heapq's min-heap keeps the largest on top."""
    __slots__ = ("key",)

    def __init__(self, key):
        self.key = key

    def __lt__(self, other):
        return other.key < self.key


def utf16_offsets(text: str):
    """code-point offset -> JavaScript string index (UTF-16 code units) in `text`: every
    character outside the Basic Multilingual Plane (an emoji) is two units there."""
    astral = [i for i, ch in enumerate(text) if ord(ch) > 0xFFFF]
    if not astral:
        return lambda i: i
    return lambda i: i + bisect.bisect_left(astral, i)


def _query_item(row: dict) -> dict:
    at = utf16_offsets(row["passage"])
    return {"id": row["id"], "passage_id": row["passage_id"], "source": row["source"],
            "origin": row["origin"], "url": row.get("url"), "query": row["query"],
            "answers": [[at(a["start"]), at(a["end"])] for a in row["answers"]]}


def _passage_item(row: dict) -> dict:
    at = utf16_offsets(row["passage"])
    return {"text": row["passage"],
            "entities": [[at(e["start"]), at(e["end"]), e.get("label")] for e in row["entities"]]}


def released(dataset_dir: str, per_split: int) -> tuple:
    """({split: [query items]}, {passage_id: passage item}, {split: rows seen})."""
    queries, passages, totals = {}, {}, {}
    for split in SPLITS:
        best = Smallest(per_split)
        for row in _batches(io_utils.join(dataset_dir, f"{split}-*.parquet"), _QUERY_COLUMNS):
            best.add(row["id"], row)
        totals[split] = best.seen
        queries[split] = []
        for row in best.items():
            queries[split].append(_query_item(row))
            passages[row["passage_id"]] = _passage_item(row)
    return queries, passages, totals


def dropped(rejected_patterns, per_reason: int, roots=()) -> tuple:
    """([{stage, reason, total, rows}], the query ids among them); `roots`: folders
    removed from the rows' text (relative.strip_root: no local path is published)."""
    groups = {}
    for pattern in rejected_patterns:
        for row in _batches(pattern, _REJECTED_COLUMNS):
            for root in roots:
                row.update({c: strip_root(row.get(c), root) for c in ("record_id", "detail")})
            key = (row["stage"], row["reason"])
            if key not in groups:
                groups[key] = Smallest(per_reason)
            groups[key].add(tuple(row.get(c) or "" for c in ("record_id", "article_id", "detail")),
                            {c: row.get(c) for c in ("article_id", "record_id", "detail")})
    out = [{"stage": stage, "reason": reason, "total": best.seen, "rows": best.items()}
           for (stage, reason), best in sorted(groups.items(), key=lambda kv: (-kv[1].seen, kv[0]))]
    return out, {r["record_id"] for g in out if g["stage"] == "adversary" for r in g["rows"]
                 if r["record_id"]}


def adversary_answers(scored_pattern: str, ids: set, passages: dict) -> dict:
    """{query id: query item with the adversary's answer} for the sampled adversary drops."""
    out = {}
    if not ids:
        return out
    columns = _QUERY_COLUMNS + ["adversary_prediction", "fold"]
    for row in _batches(scored_pattern, columns):
        if row["id"] in ids and row["id"] not in out:
            out[row["id"]] = dict(_query_item(row), prediction=row.get("adversary_prediction"),
                                  fold=row.get("fold"))
            passages.setdefault(row["passage_id"], _passage_item(row))
    return dict(sorted(out.items()))


def explorer_data(dataset_dir: str, run_dir: str, filtered: str, per_split: int,
                  per_reason: int, validated: str | None = None) -> dict:
    queries, passages, totals = released(dataset_dir, per_split)
    patterns = [io_utils.join(run_dir, "rejected", "*.parquet"),
                io_utils.join(filtered, "rejected", "*.parquet"),
                io_utils.join(dataset_dir, "rejected", "*.parquet")]
    root = input_root(r.get("source_file") for r in _batches(
        io_utils.join(run_dir, "articles", "*.parquet"), ["source_file"]))
    drops, ids = dropped(patterns, per_reason, (root, run_dir.rstrip("/")))
    answered = adversary_answers(io_utils.join(filtered, "scored", "*.parquet"), ids, passages)
    from transforms.finalize.report.human_performance import explorer_part
    shown = [q["id"] for qs in queries.values() for q in qs]
    return {"totals": totals, "queries": queries, "drops": drops, "answered": answered,
            "passages": dict(sorted(passages.items())), "offsets": "utf-16",
            "human": explorer_part(dataset_dir, validated, shown),
            "limits": {"queries_per_split": per_split, "rows_per_reason": per_reason}}


def page() -> str:
    return resources.files("transforms.finalize.report").joinpath("templates", "explorer.html") \
        .read_text("utf-8")


def write_explorer(dataset_dir: str, run_dir: str, filtered: str, per_split: int,
                   per_reason: int, validated: str | None = None) -> dict:
    """Write `<dataset_dir>/explorer/{index.html,data.js}`; returns the sample's sizes."""
    data = explorer_data(dataset_dir, run_dir, filtered, per_split, per_reason, validated)
    folder = io_utils.join(dataset_dir, FOLDER)
    write_text(io_utils.join(folder, "index.html"), page())
    write_text(io_utils.join(folder, "data.js"), "window.EXPLORER_DATA = " + json.dumps(
        data, ensure_ascii=True, sort_keys=True, separators=(",", ":")) + ";\n")
    return {"queries": sum(len(q) for q in data["queries"].values()),
            "drop_reasons": len(data["drops"]), "answered": len(data["answered"])}
