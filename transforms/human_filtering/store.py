"""The served HITs and their answers in SQLite: which HIT a worker gets next (reserved for
them in `served`), and the exactly-once insert of a submitted page, allowed only for a HIT
served to that worker and still open for them (UNIQUE (worker_id, query_id); the checks
and the insert in one transaction).
"""
import collections
import dataclasses
import datetime
import json
import math
import time
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


@dataclasses.dataclass(frozen=True)
class QueuePolicy:
    """What the server enforces (paper 3.4: one worker per train triple, two for dev/test)."""
    assignments: int = 1          # workers per regular HIT
    per_worker: int = 0           # HITs one worker may answer (0: no cap)
    gold_share: float = 0.0       # share of gold HITs in each queue
    hold_seconds: float = 3600.0  # how long a served HIT stays reserved for its worker


class QueueRefused(Exception):
    """A submission the queue does not allow: nothing is stored."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status, self.reason = status, reason


def _answered_by(con, worker: str) -> set:
    return {r[0] for r in con.execute(
        "SELECT DISTINCT hit_ref FROM annotations WHERE worker_id = ?", (worker,))}


def _taken(con, worker: str, now: float) -> dict:
    """{hit_ref: workers who answered it, or hold a live reservation (other than `worker`)}."""
    taken = collections.Counter()
    for ref, w in con.execute("SELECT DISTINCT hit_ref, worker_id FROM annotations"):
        taken[ref] += 1
    for (ref,) in con.execute(
            "SELECT s.hit_ref FROM served s WHERE s.expires_at > ? AND s.worker_id != ? AND "
            "NOT EXISTS (SELECT 1 FROM annotations a WHERE a.worker_id = s.worker_id AND "
            "a.hit_ref = s.hit_ref)", (now, worker)):
        taken[ref] += 1
    return taken


class Store:
    """The annotation database of one export, and the queue policy it enforces."""

    def __init__(self, path: str, hits: list, queue: QueuePolicy = QueuePolicy()):
        self.path, self.queue = path, queue
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

    def next_hit(self, worker: str, now: float | None = None):
        """(hit_ref, n, of) of the worker's next HIT, reserved for them, or None when none
        is left; one write transaction, so concurrent workers never get more HITs than the
        policy allows.

        A HIT served and not yet answered is served again (reloading a page costs
        nothing). Regular HITs: the first with the fewest workers, counting answers and
        live reservations of others, below `assignments`, that this worker has not done.
        Gold HITs (any number of workers) come at every 1/gold_share-th place of each
        worker's queue, in an order of their own per worker. `of` is `per_worker` when
        set, else the number of HITs in the batch."""
        q, now = self.queue, time.time() if now is None else now
        with D.writing(self.path) as con:
            mine = _answered_by(con, worker)
            of = q.per_worker or len(self.hits)
            held = con.execute(
                "SELECT hit_ref FROM served WHERE worker_id = ? AND expires_at > ? ORDER BY "
                "served_at", (worker, now)).fetchall()
            for (ref,) in held:
                if ref not in mine and ref in self.hits:
                    return ref, len(mine) + 1, of
            if q.per_worker and len(mine) >= q.per_worker:
                return None
            taken = _taken(con, worker, now)
            todo = [h for h in self.regular if h not in mine and taken.get(h, 0) < q.assignments]
            if not todo:
                return None
            n = len(mine) + 1
            gold_done = sum(h in mine for h in self.gold)
            gold_left = sorted((h for h in self.gold if h not in mine),
                               key=lambda h: stable_hash(worker + "\x00" + h, salt="gold"))
            if gold_left and math.floor(n * q.gold_share + 1e-9) > gold_done:
                ref = gold_left[0]
            else:
                ref = min(todo, key=lambda h: taken.get(h, 0))
            con.execute("INSERT OR REPLACE INTO served (worker_id, hit_ref, served_at, "
                        "expires_at) VALUES (?,?,?,?)", (worker, ref, now, now + q.hold_seconds))
            return ref, n, of

    def save(self, worker: str, hit: Hit, answers, time_spent_ms=None,
             assignment: str = "", now: float | None = None) -> int:
        """Store one submitted page atomically, after checking in the same transaction that
        the HIT was served to this worker and is still open for them: `QueueRefused` (403:
        never served to them; 409: its assignments or the worker's HIT cap are used up).
        Returns the rows written, 0 when this worker had already answered these queries (a
        repeated or concurrent duplicate post)."""
        assignment = assignment or "local-" + uuid.uuid4().hex
        now = time.time() if now is None else now
        stamp, written, q = _now(), 0, self.queue
        with D.writing(self.path) as con:
            served = con.execute("SELECT expires_at FROM served WHERE worker_id = ? AND "
                                 "hit_ref = ?", (worker, hit.ref)).fetchone()
            if served is None:
                raise QueueRefused(403, "%s was not served to %s: answer the HIT /next gives "
                                   "you" % (hit.ref, worker))
            mine = _answered_by(con, worker)
            if hit.ref in mine:
                return 0
            if q.per_worker and len(mine) >= q.per_worker:
                raise QueueRefused(409, "%s has answered its %d HITs" % (worker, q.per_worker))
            if not hit.gold and _taken(con, worker, now).get(hit.ref, 0) >= q.assignments:
                raise QueueRefused(409, "%s already has its %d worker(s): its time for you ran "
                                   "out and it went to another" % (hit.ref, q.assignments))
            for a in answers:
                cur = con.execute(
                    "INSERT OR IGNORE INTO annotations (assignment_id, hit_ref, worker_id,"
                    " query_id, answer, answer_start, answer_end, ambiguous, feedback,"
                    " time_spent_ms, submitted_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (assignment, hit.ref, worker, a.query_id, a.text, a.start, a.end,
                     int(a.ambiguous), a.feedback, time_spent_ms, stamp))
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
