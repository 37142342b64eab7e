"""The released exports cross-checked against the Parquet shards, field by field.

`record/<split>.json` and `superglue/<file>.jsonl` are regenerated in outline from the
shards (exports.py's layout: inclusive ends, passages in passage_id order, queries in id
order) and compared: passage id, source, passage text, entity spans, query text and answer
spans, so a shard edited on its own (its manifest entry rewritten to match) disagrees with
the exports and is named. The shards are held compactly: a digest of each text, the spans.
"""
import hashlib

from transforms.finalize.exports.layouts import SOURCE_NAMES
from transforms.finalize.publish.invariants import SPLITS, SUPERGLUE_FILES


def _h(text) -> str:
    return hashlib.sha1(str(text).encode("utf-8", errors="surrogateescape")).hexdigest()


def _spans(spans, with_text: bool) -> tuple:
    """Exclusive-end spans (contract rows) as comparable inclusive tuples."""
    return tuple((s.get("start"), s.get("end") - 1 if isinstance(s.get("end"), int) else None)
                 + ((s.get("text"),) if with_text else ()) for s in spans or [])


def _exported(spans, with_text: bool) -> tuple:
    """Inclusive-end spans as the exports hold them."""
    if not isinstance(spans, list):
        return ("not a list",)
    return tuple((s.get("start"), s.get("end")) + ((s.get("text"),) if with_text else ())
                 if isinstance(s, dict) else ("not an object",) for s in spans)


class ShardIndex:
    """What the shards hold, per split: each query's passage, text digest and answers;
    each passage's text digest, entities and source. `add` yields the shards' own
    disagreements (two rows of one passage with other text or entities)."""

    def __init__(self):
        self.queries = {s: {} for s in SPLITS}
        self.passages = {s: {} for s in SPLITS}

    def add(self, row: dict):
        split = row.get("split")
        if split not in SPLITS:
            return
        pid = row.get("passage_id")
        self.queries[split][row.get("id")] = (pid, _h(row.get("query")),
                                              _spans(row.get("answers"), True))
        passage = (_h(row.get("passage")), _spans(row.get("entities"), False),
                   SOURCE_NAMES.get(row.get("source"), row.get("source")))
        seen = self.passages[split].setdefault(pid, passage)
        if seen != passage:
            what = ("text" if seen[0] != passage[0] else "entities" if seen[1] != passage[1]
                    else "source")
            yield (f"{split} row {row.get('id')!r}: passage {pid!r} has another {what} than "
                   "in the other rows of that passage")

    def order(self, split: str) -> list:
        """[(passage_id, [query ids])] in the exports' order."""
        by_passage = {}
        for qid, (pid, _, _) in self.queries[split].items():
            by_passage.setdefault(pid, []).append(qid)
        return [(pid, sorted(by_passage[pid])) for pid in sorted(by_passage, key=str)]


def _passage_problems(where, index_passage, passage: dict, source):
    text_h, entities, want_source = index_passage
    if not isinstance(passage, dict):
        yield f"{where}: passage is not an object"
        return
    if _h(passage.get("text")) != text_h:
        yield f"{where}: passage text differs from the shards'"
    if _exported(passage.get("entities"), False) != entities:
        yield f"{where}: entity spans differ from the shards'"
    if source != want_source:
        yield f"{where}: source {source!r}, the shards say {want_source!r}"


def _query_problems(where, index_query, qa: dict, with_answers: bool):
    _, query_h, answers = index_query
    if _h(qa.get("query")) != query_h:
        yield f"{where}: query text differs from the shard's"
    got = _exported(qa.get("answers", []), True)
    if with_answers and got != answers:
        yield f"{where}: answers {list(got)} differ from the shard's {list(answers)} (inclusive ends)"
    if not with_answers and got:
        yield f"{where}: carries answers, which this release hides"


def check_record(index: ShardIndex, split: str, obj, with_answers: bool):
    """`record/<split>.json` against the shards of `split`."""
    name = f"record/{split}.json"
    data = obj.get("data") if isinstance(obj, dict) else None
    if not isinstance(data, list):
        yield f"{name}: no `data` list"
        return
    passages, queries = index.passages[split], index.queries[split]
    seen = set()
    for entry in data:
        pid = entry.get("id") if isinstance(entry, dict) else None
        where = f"{name} passage {pid!r}"
        if pid not in passages:
            yield f"{where}: not a passage of the {split} shards"
            continue
        seen.add(pid)
        yield from _passage_problems(where, passages[pid], entry.get("passage"),
                                     entry.get("source"))
        for qa in entry.get("qas") or []:
            qid = qa.get("id") if isinstance(qa, dict) else None
            q_where = f"{name} query {qid!r}"
            if qid not in queries:
                continue                      # named by the id comparison
            if queries[qid][0] != pid:
                yield f"{q_where}: under passage {pid!r}, the shards put it under {queries[qid][0]!r}"
                continue
            yield from _query_problems(q_where, queries[qid], qa, with_answers)
    for pid in sorted(set(passages) - seen, key=str)[:5]:
        yield f"{name}: passage {pid!r} of the shards is missing"


def check_superglue(index: ShardIndex, split: str, lines: list):
    """`superglue/<file>.jsonl` against the shards of `split` (no ids: the order decides)."""
    name = f"superglue/{SUPERGLUE_FILES[split]}.jsonl"
    order = index.order(split)
    if len(lines) != len(order):
        yield f"{name}: {len(lines)} passages, the shards {len(order)}"
    for n, (line, (pid, qids)) in enumerate(zip(lines, order)):
        where = f"{name} line {n + 1} (passage {pid!r})"
        if not isinstance(line, dict):
            yield f"{where}: not an object"
            continue
        yield from _passage_problems(where, index.passages[split][pid], line.get("passage"),
                                     line.get("source"))
        qas = line.get("qas") if isinstance(line.get("qas"), list) else []
        if len(qas) != len(qids):
            yield f"{where}: {len(qas)} queries, the shards {len(qids)}"
        for qa, qid in zip(qas, qids):
            if isinstance(qa, dict):
                yield from _query_problems(f"{where} query {qid!r}", index.queries[split][qid],
                                           qa, split != "test")
