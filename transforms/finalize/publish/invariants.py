"""The dataset contract's invariants as pure checks (`docs/dataset-contract.md`).

Each check yields one human-readable violation per problem, naming the split and row,
so callers can stop after the first few.
"""
import hashlib

from transforms.core.constants import PLACEHOLDER, SPLITS
from transforms.ingestion.text import hygiene_problem

REQUIRED = ("id", "passage_id", "article_id", "source", "origin", "passage", "query", "split")


def _where(row) -> str:
    return f"{row.get('split')} row {row.get('id')!r}"


def check_row(row: dict):
    """Invariants 1-3 on one contract row (exclusive `end`)."""
    where = _where(row)
    for name in REQUIRED:
        if not isinstance(row.get(name), str):
            yield f"{where}: column {name} is {row.get(name)!r}, expected a string"
    if row.get("split") not in SPLITS:
        yield f"{where}: split {row.get('split')!r} is not one of {SPLITS}"
    passage = row.get("passage") or ""
    for kind, noun in (("entities", "entity"), ("answers", "answer")):
        for span in row.get(kind) or []:
            start, end, text = span.get("start"), span.get("end"), span.get("text")
            if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(passage)):
                yield f"{where}: {noun} span [{start}, {end}) outside the passage"
            elif passage[start:end] != text:
                yield f"{where}: {noun} span [{start}, {end}) reads {passage[start:end]!r}, not {text!r}"
    texts = [("passage", passage, True), ("query", row.get("query") or "", True)]
    texts += [("entity", e.get("text") or "", False) for e in row.get("entities") or []]
    for noun, text, multiline in texts:   # what a worker could not type or see (issue 22)
        problem = hygiene_problem(text, multiline)
        if problem:
            yield f"{where}: {noun} holds a {problem.reason} ({problem.detail})"
            break
    count = (row.get("query") or "").count(PLACEHOLDER)
    if count != 1:
        yield f"{where}: query has {count} {PLACEHOLDER} markers, expected exactly 1"
    if not row.get("answers"):
        yield f"{where}: no answers"
    entity_spans = {(e.get("start"), e.get("end")) for e in row.get("entities") or []}
    for a in row.get("answers") or []:
        if (a.get("start"), a.get("end")) not in entity_spans:
            yield f"{where}: answer span [{a.get('start')}, {a.get('end')}) is not one of the entities"


class LeakageChecker:
    """Invariants 4-5 across the whole dataset; feed rows with `add`, one at a time."""

    def __init__(self, split_config=None):
        self.config = split_config
        self.ids = set()
        self.first_split = {}   # (kind, value) -> split it first appeared in
        self.reported = set()

    def add(self, row: dict):
        where, split = _where(row), row.get("split")
        if row.get("id") in self.ids:
            yield f"{where}: id is not unique"
        self.ids.add(row.get("id"))
        passage = row.get("passage") or ""
        keys = [("passage_id", row.get("passage_id")), ("article", row.get("article_id")),
                ("passage text", hashlib.sha1(passage.encode("utf-8")).hexdigest()),
                ("url", row.get("url"))]
        for kind, value in keys:
            if value is None or value == "":
                continue
            seen = self.first_split.setdefault((kind, value), split)
            if seen != split and (kind, value) not in self.reported:
                self.reported.add((kind, value))
                shown = value if kind != "passage text" else passage[:60] + "..."
                yield f"{where}: {kind} {shown!r} appears in both {seen} and {split} (leakage)"
        if self.config is not None and not self.config.allows(split, row.get("origin")):
            yield f"{where}: origin {row.get('origin')!r} is not allowed in {split} by the split policy"


def _inclusive_span_checks(where, text, spans, kind, with_text):
    for span in spans:
        start, end = span.get("start"), span.get("end")
        if not (isinstance(start, int) and isinstance(end, int) and 0 <= start <= end < len(text)):
            yield f"{where}: {kind} span [{start}, {end}] (inclusive) outside the passage"
        elif with_text and text[start:end + 1] != span.get("text"):
            yield (f"{where}: {kind} span [{start}, {end}] (inclusive) reads "
                   f"{text[start:end + 1]!r}, not {span.get('text')!r}")


def check_record_json(obj: dict, split: str):
    """Invariant 6 on the official ReCoRD JSON export of one split."""
    if obj.get("version") != "1.0":
        yield f"record/{split}.json: version {obj.get('version')!r}, expected '1.0'"
    for entry in obj.get("data", []):
        text = entry["passage"]["text"]
        where = f"record/{split}.json passage {entry.get('id')!r}"
        yield from _inclusive_span_checks(where, text, entry["passage"]["entities"], "entity", False)
        entity_spans = {(e["start"], e["end"]) for e in entry["passage"]["entities"]}
        for qa in entry["qas"]:
            q_where = f"record/{split}.json query {qa.get('id')!r}"
            yield from _inclusive_span_checks(q_where, text, qa.get("answers", []), "answer", True)
            for a in qa.get("answers", []):
                if (a.get("start"), a.get("end")) not in entity_spans:
                    yield f"{q_where}: answer span [{a.get('start')}, {a.get('end')}] is not one of the entities"
            if qa.get("query", "").count(PLACEHOLDER) != 1:
                yield f"{q_where}: query needs exactly one {PLACEHOLDER}"


SUPERGLUE_FILES = {"train": "train", "dev": "val", "test": "test"}


def check_superglue_lines(lines, split: str):
    """Invariant 6 on a SuperGLUE jsonl export: inclusive spans, running idx, no test answers."""
    name = f"superglue/{SUPERGLUE_FILES[split]}.jsonl"
    q_next = 0
    for n, line in enumerate(lines):
        where = f"{name} line {n + 1}"
        if line.get("idx") != n:
            yield f"{where}: passage idx {line.get('idx')!r}, expected {n}"
        text = line["passage"]["text"]
        yield from _inclusive_span_checks(where, text, line["passage"]["entities"], "entity", False)
        for qa in line["qas"]:
            if qa.get("idx") != q_next:
                yield f"{where}: query idx {qa.get('idx')!r}, expected {q_next}"
            q_next += 1
            if split == "test" and "answers" in qa:
                yield f"{where}: test query {qa.get('idx')} carries answers"
            if split != "test":
                if not qa.get("answers"):
                    yield f"{where}: query {qa.get('idx')} has no answers"
                yield from _inclusive_span_checks(where, text, qa.get("answers", []), "answer", True)


def compare_export_ids(rows_ids: set, export_ids: set, name: str):
    """The export holds exactly the split's query ids."""
    for qid in sorted(rows_ids - export_ids)[:5]:
        yield f"{name}: query {qid!r} of the Parquet shards is missing"
    for qid in sorted(export_ids - rows_ids)[:5]:
        yield f"{name}: query {qid!r} is not in the Parquet shards"


def compare_record_answers(answers_by_id: dict, obj: dict, split: str):
    """Each exported answer is the row's answer with `end - 1` (inclusive)."""
    for entry in obj.get("data", []):
        for qa in entry["qas"]:
            expected = answers_by_id.get(qa["id"])
            got = [(a["start"], a["end"] + 1, a["text"]) for a in qa.get("answers", [])]
            if expected is not None and got and got != expected:
                yield (f"record/{split}.json query {qa['id']!r}: answers {got} (made exclusive) "
                       f"differ from the Parquet row's {expected}")
