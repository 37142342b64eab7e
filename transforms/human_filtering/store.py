"""The served HITs and their answers in SQLite: which HIT a worker gets next, and the
exactly-once insert of a submitted page (UNIQUE (worker_id, query_id), one transaction).
"""
import datetime
import json
import math
import uuid
from typing import NamedTuple

from transforms.core.hashing import stable_hash
from transforms.human_filtering import db as D
from transforms.human_filtering import hits as H


class Task(NamedTuple):
    query_id: str
    passage_id: str
    reference_answers: list
    spans: dict          # {(start, end): text} of the entities the page lets workers click


class Hit(NamedTuple):
    ref: str
    position: int
    gold: bool
    tasks: tuple


class Answer(NamedTuple):
    query_id: str
    text: str
    start: int
    end: int
    ambiguous: bool
    feedback: str


def hits_from_rows(rows, per_hit: int) -> list:
    """Hit records of the batch CSV rows of an export."""
    out = []
    for pos, row in enumerate(rows):
        tasks = tuple(Task(row["query_id" + s], row["passage_id" + s],
                           json.loads(row["reference_answers" + s]),
                           H.entity_spans(row["passage_html" + s]))
                      for s in H.slot_suffixes(per_hit))
        out.append(Hit(row["hit_ref"], pos, row.get("gold") == "1", tasks))
    return out


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


class Store:
    """The annotation database of one export."""

    def __init__(self, path: str, hits: list):
        self.path = path
        self.hits = {h.ref: h for h in hits}
        self.regular = [h.ref for h in hits if not h.gold]
        self.gold = [h.ref for h in hits if h.gold]
        D.create(path)
        with D.writing(path) as con:
            for hit in hits:
                for task in hit.tasks:
                    con.execute("INSERT OR IGNORE INTO hits VALUES (?,?,?,?,?,?)",
                                (task.query_id, hit.ref, hit.position, task.passage_id,
                                 json.dumps(task.reference_answers, ensure_ascii=False),
                                 int(hit.gold)))

    def next_hit(self, worker: str, assignments: int = 1, gold_share: float = 0.0,
                 per_worker: int = 0):
        """(hit_ref, n, of) of the worker's next HIT, or None when none is left.

        Regular HITs: the first with the fewest workers, below `assignments`, this worker
        has not done. Gold HITs (any number of workers) come at every 1/gold_share-th
        place of each worker's queue, in an order of their own per worker. `of` is
        `per_worker` when set, else the number of HITs in the batch."""
        with D.reading(self.path) as con:
            done = dict(con.execute("SELECT hit_ref, COUNT(DISTINCT worker_id) FROM "
                                    "annotations GROUP BY hit_ref"))
            mine = {r[0] for r in con.execute(
                "SELECT DISTINCT hit_ref FROM annotations WHERE worker_id = ?", (worker,))}
        of = per_worker or len(self.hits)
        if per_worker and len(mine) >= per_worker:
            return None
        todo = [h for h in self.regular if h not in mine and done.get(h, 0) < assignments]
        if not todo:
            return None
        n = len(mine) + 1
        gold_done = sum(h in mine for h in self.gold)
        gold_left = sorted((h for h in self.gold if h not in mine),
                           key=lambda h: stable_hash(worker + "\x00" + h, salt="gold"))
        if gold_left and math.floor(n * gold_share + 1e-9) > gold_done:
            return gold_left[0], n, of
        return min(todo, key=lambda h: done.get(h, 0)), n, of

    def save(self, worker: str, hit: Hit, answers, time_spent_ms=None,
             assignment: str = "") -> int:
        """Store one submitted page atomically: the rows written, 0 when this worker had
        already answered these queries (a repeated or concurrent duplicate post)."""
        assignment = assignment or "local-" + uuid.uuid4().hex
        now, written = _now(), 0
        with D.writing(self.path) as con:
            for a in answers:
                cur = con.execute(
                    "INSERT OR IGNORE INTO annotations (assignment_id, hit_ref, worker_id,"
                    " query_id, answer, answer_start, answer_end, ambiguous, feedback,"
                    " time_spent_ms, submitted_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (assignment, hit.ref, worker, a.query_id, a.text, a.start, a.end,
                     int(a.ambiguous), a.feedback, time_spent_ms, now))
                written += cur.rowcount
        return written

    def results(self) -> list:
        """Every stored answer with its HIT's gold flag and whether it is right."""
        with D.reading(self.path) as con:
            rows = con.execute(
                "SELECT a.worker_id, a.hit_ref, a.query_id, a.answer, a.answer_start,"
                " a.answer_end, a.ambiguous, a.feedback, a.time_spent_ms, a.submitted_at,"
                " h.gold, h.reference_answers FROM annotations a JOIN hits h"
                " ON h.query_id = a.query_id ORDER BY a.id").fetchall()
        keys = ("worker_id", "hit_ref", "query_id", "answer", "answer_start", "answer_end",
                "ambiguous", "feedback", "time_spent_ms", "submitted_at", "gold")
        out = []
        for r in rows:
            row = dict(zip(keys, r[:11]))
            row["correct"] = int(H.is_correct(r[3], r[4], r[5], json.loads(r[11])))
            out.append(row)
        return out

    def progress(self) -> dict:
        """The requester's view: HITs answered, and per worker answers and gold accuracy."""
        rows = self.results()
        workers = {}
        for r in rows:
            w = workers.setdefault(r["worker_id"], {"answers": 0, "correct": 0,
                                                    "gold_answers": 0, "gold_correct": 0})
            w["answers"] += 1
            w["correct"] += r["correct"]
            w["gold_answers"] += r["gold"]
            w["gold_correct"] += r["gold"] and r["correct"]
        for w in workers.values():
            w["gold_accuracy"] = (round(w["gold_correct"] / w["gold_answers"], 4)
                                  if w["gold_answers"] else None)
        answered = {r["hit_ref"] for r in rows}
        return {"hits": len(self.hits), "gold_hits": len(self.gold),
                "hits_answered": len(answered & set(self.regular)),
                "answers": len(rows), "workers": dict(sorted(workers.items()))}
