"""The official ReCoRD JSON and SuperGLUE jsonl layouts, to and from contract rows.

Contract rows use an EXCLUSIVE `end` (`passage[start:end] == text`); both released
layouts use an INCLUSIVE one (`text[start:end + 1]`), as the files in
`../shared/corpus/record_format/` do. Passages are in passage_id order and queries in id
order, so output is stable. `write_record_json` / `write_superglue` stream the same bytes
as the whole-file functions, one passage at a time (export_writer.py).
"""
import json

RECORD_VERSION = "1.0"
SUPERGLUE_SPLIT = {"train": "train", "dev": "val", "test": "test"}
# The spelling the released files use for the publisher.
SOURCE_NAMES = {"cnn": "CNN", "dailymail": "Daily mail"}
_SOURCE_IDS = {v.lower(): k for k, v in SOURCE_NAMES.items()}

DATASET_COLUMNS = ("id", "passage_id", "article_id", "source", "origin", "url", "passage",
                   "entities", "query", "answers", "split")


def passage_record(rows) -> dict:
    """One passage with its queries (sorted by id), from the contract rows sharing it."""
    rows = sorted(rows, key=lambda r: r["id"])
    first = rows[0]
    return {
        "passage_id": first["passage_id"], "article_id": first["article_id"],
        "source": first["source"], "origin": first["origin"], "url": first["url"],
        "split": first["split"], "passage": first["passage"],
        "entities": [dict(e) for e in first["entities"]],
        "qas": [{"id": r["id"], "query": r["query"], "answers": [dict(a) for a in r["answers"]]}
                for r in rows],
    }


def _inclusive(span: dict, with_text: bool) -> dict:
    out = {"start": span["start"], "end": span["end"] - 1}
    if with_text:
        out["text"] = span["text"]
    return out


def record_entry(passage: dict, with_answers: bool = True) -> dict:
    """One element of the official ReCoRD JSON `data` list."""
    qas = []
    for qa in passage["qas"]:
        item = {"id": qa["id"], "query": qa["query"]}
        item["answers"] = [_inclusive(a, True) for a in qa["answers"]] if with_answers else []
        qas.append(item)
    return {
        "id": passage["passage_id"],
        "source": SOURCE_NAMES.get(passage["source"], passage["source"]),
        "passage": {"text": passage["passage"],
                    "entities": [_inclusive(e, False) for e in passage["entities"]]},
        "qas": qas,
    }


def record_json(passages, with_answers: bool = True) -> dict:
    ordered = sorted(passages, key=lambda p: p["passage_id"])
    return {"version": RECORD_VERSION, "data": [record_entry(p, with_answers) for p in ordered]}


def superglue_line(passage: dict, with_answers: bool = True) -> dict:
    """One SuperGLUE ReCoRD line before its place in the file is known (no `idx` yet)."""
    qas = []
    for qa in passage["qas"]:
        item = {"query": qa["query"]}
        if with_answers:
            item["answers"] = [_inclusive(a, True) for a in qa["answers"]]
        qas.append(item)
    return {"source": SOURCE_NAMES.get(passage["source"], passage["source"]),
            "passage": {"text": passage["passage"],
                        "entities": [_inclusive(e, False) for e in passage["entities"]]},
            "qas": qas}


def with_idx(line: dict, p_idx: int, q_idx: int):
    """(the line with its passage `idx` and running query `idx`s, the next query idx)."""
    qas = []
    for qa in line["qas"]:
        qas.append(dict(qa, idx=q_idx))
        q_idx += 1
    return dict(line, qas=qas, idx=p_idx), q_idx


def superglue_lines(passages, with_answers: bool = True) -> list:
    """SuperGLUE ReCoRD lines: passage `idx` per line (passage_id order) and a file-wide
    running `qas` idx."""
    lines, q_idx = [], 0
    for p_idx, passage in enumerate(sorted(passages, key=lambda p: p["passage_id"])):
        line, q_idx = with_idx(superglue_line(passage, with_answers), p_idx, q_idx)
        lines.append(line)
    return lines


def dumps_record_json(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=True) + "\n"


def dumps_jsonl(lines) -> str:
    return "".join(json.dumps(line, ensure_ascii=True) + "\n" for line in lines)


# --- streaming writers: the same bytes, one passage in memory at a time -----------------

_RECORD_HEAD = '{"version": "%s", "data": [' % RECORD_VERSION


class RecordJsonWriter:
    """Streams the official ReCoRD JSON to text file `f`: `add` record entries in
    passage_id order, then `close`; byte-identical to `dumps_record_json(record_json())`."""

    def __init__(self, f):
        self.f, self.n = f, 0
        f.write(_RECORD_HEAD)

    def add(self, entry: dict) -> None:
        if self.n:
            self.f.write(", ")
        self.f.write(json.dumps(entry, ensure_ascii=True))
        self.n += 1

    def close(self) -> None:
        self.f.write("]}\n")


class SuperGlueWriter:
    """Streams SuperGLUE lines (`superglue_line` dicts, in passage_id order) to `f` with
    their running idx; byte-identical to `dumps_jsonl(superglue_lines())`."""

    def __init__(self, f):
        self.f, self.passages, self.queries = f, 0, 0

    def add(self, line: dict) -> None:
        line, self.queries = with_idx(line, self.passages, self.queries)
        self.f.write(json.dumps(line, ensure_ascii=True) + "\n")
        self.passages += 1


def write_record_json(f, entries) -> int:
    writer = RecordJsonWriter(f)
    for entry in entries:
        writer.add(entry)
    writer.close()
    return writer.n


def write_superglue(f, lines) -> tuple:
    writer = SuperGlueWriter(f)
    for line in lines:
        writer.add(line)
    return writer.passages, writer.queries


# --- importing the released layouts back into contract rows -----------------------------

def _exclusive(span: dict, text: str) -> dict:
    start, end = span["start"], span["end"] + 1
    return {"start": start, "end": end, "text": text[start:end]}


def _source_id(name: str) -> str:
    return _SOURCE_IDS.get(name.lower(), name.lower())


def rows_from_record_json(obj: dict, origin: str = "public", split: str = "dev") -> list:
    """Contract rows (exclusive `end`, entity label unknown) from official ReCoRD JSON."""
    rows = []
    for entry in obj["data"]:
        text = entry["passage"]["text"]
        entities = [dict(_exclusive(e, text), label=None) for e in entry["passage"]["entities"]]
        for qa in entry["qas"]:
            rows.append({
                "id": qa["id"], "passage_id": entry["id"], "article_id": entry["id"],
                "source": _source_id(entry["source"]), "origin": origin, "url": None,
                "passage": text, "entities": entities, "query": qa["query"],
                "answers": [_exclusive(a, text) for a in qa.get("answers", [])],
                "split": split,
            })
    return rows


def rows_from_superglue(lines, id_prefix: str, origin: str = "public", split: str = "train") -> list:
    """Contract rows from SuperGLUE lines; ids are `{id_prefix}-p{idx}` / `-q{idx}`."""
    obj = {"data": [{
        "id": f"{id_prefix}-p{line['idx']}", "source": line["source"], "passage": line["passage"],
        "qas": [dict(qa, id=f"{id_prefix}-q{qa['idx']}") for qa in line["qas"]],
    } for line in lines]}
    return rows_from_record_json(obj, origin=origin, split=split)
