"""Results files checked against the HITs they answer: ingest trusts nothing a results file
says about a HIT (issue 28).

A results file is made outside the project (MTurk's batch results CSV, a Label Studio
export) and can say anything: a query id, the HIT it belongs to, the query text, the
reference answers a click is scored against. Ingest takes all of these from the exported
HITs (`--hits DIR/hits`) instead, and rejects by name every results row whose copy of them
differs (`Rejection`: the row, the assignment, the worker, the query, the reason), written
to `validated/rejected_results.csv` and counted in the summary.

- MTurk CSV: every `Input.<field>` column of a task must equal the HIT's `<field>` in
  hits.csv (`reference_answers` compared as JSON); a query id the HITs do not hold is
  rejected too. One `AssignmentId` counts once: a second row with it (under another
  WorkerId, or the same) is rejected, naming the worker whose row counted (the first
  submitted; the file's order breaks ties).
- Label Studio: a task's `query_id` must be a HIT's, and its `hit_ref` and `query` equal
  the HIT's. Worker identity is normalised across export shapes: `completed_by` as a user
  id (an int, or a string of digits) and as an object with that `id` are one worker, named
  by the object's email wherever the export gives one (`worker_names`).
"""
import json
from typing import NamedTuple, Optional

from transforms.human_filtering import hits as H
from transforms.human_filtering.csv_safe import escape_cell

REJECTED_COLUMNS = ["row", "assignment_id", "worker_id", "hit_id", "query_id", "reason",
                    "detail"]
CHECKED_FIELDS = ("hit_ref", "gold", "passage_id", "query", "query_html", "passage_html",
                  "reference_answers")


class Rejection(NamedTuple):
    row: str            # where in the results file ("line 7", "task 3 annotation 12")
    assignment_id: str
    worker_id: str
    hit_id: str
    query_id: str
    reason: str         # unknown_query | differs_from_hit | duplicate_assignment
    detail: str


def hit_records(rows, per_hit: int) -> dict:
    """{query_id: {field: value}} of the exported HITs (hits.csv rows, as read back)."""
    out = {}
    for row in rows:
        for sfx in H.slot_suffixes(per_hit):
            record = {"hit_ref": row.get("hit_ref"), "gold": row.get("gold")}
            record.update({f: row.get(f + sfx) for f in H.TASK_FIELDS})
            out.setdefault(record["query_id"], record)
    return out


def _same(field: str, claimed: str, value) -> bool:
    """The results file's copy of a HIT field equals the HIT's value (as hits.csv holds it,
    spreadsheet-escaped, or as export gave it)."""
    if field == "reference_answers":
        try:
            return json.loads(claimed) == json.loads(value)
        except (TypeError, ValueError):
            return False
    return claimed in (value, escape_cell(value, html="_html" in field), "'" + value)


def task_problem(get, sfx: str, qid: str, records: dict) -> Optional[tuple]:
    """(reason, detail) when the task `qid` of a results row disagrees with the HITs;
    `get(field)` is the row's claimed value of an `Input.` field (None when absent)."""
    record = records.get(qid)
    if record is None:
        return "unknown_query", f"query {qid!r} is in no exported HIT"
    differ = []
    for field in CHECKED_FIELDS:
        claimed = get(field if field in ("hit_ref", "gold") else field + sfx)
        if claimed is not None and record.get(field) is not None \
                and not _same(field, claimed, record[field]):
            differ.append(field)
    if differ:
        return "differs_from_hit", (f"{', '.join(differ)} of query {qid!r} differ from HIT "
                                    f"{record['hit_ref']} in hits.csv")
    return None


class Assignments:
    """One MTurk assignment counts once (`repeat`)."""

    def __init__(self):
        self.first_row = {}     # assignment id -> (row, worker) whose answers count

    def repeat(self, assignment_id: str, row, worker: str) -> Optional[str]:
        """None when row `row` may count (the first row of its assignment, or a row with
        no assignment id); else the detail naming the worker whose row counted. Call it in
        the order answers are replayed."""
        if not assignment_id:
            return None
        counted_row, counted = self.first_row.setdefault(assignment_id, (row, worker))
        if counted_row == row:
            return None
        return (f"assignment {assignment_id} is counted once, for worker {counted!r} (its "
                f"first row); this row (worker {worker!r}) is not counted")


def worker_names(tasks) -> dict:
    """{Label Studio user id: name}: the email an annotation's `completed_by` object gives
    for that id, else `ls-<id>`."""
    emails = {}
    for task in tasks:
        for ann in task.get("annotations") or []:
            who = ann.get("completed_by")
            if isinstance(who, dict) and who.get("email") and _user_id(who.get("id")):
                emails.setdefault(_user_id(who.get("id")), str(who["email"]))
    return emails


def _user_id(value) -> Optional[str]:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and value.strip().isdigit():
        return str(int(value.strip()))
    return None


def worker_of(completed_by, emails: dict) -> str:
    """One name per Label Studio user, whatever shape `completed_by` takes."""
    if isinstance(completed_by, dict):
        uid = _user_id(completed_by.get("id"))
        if uid is not None:
            return emails.get(uid) or f"ls-{uid}"
        return str(completed_by.get("email") or "ls-unknown")
    uid = _user_id(completed_by)
    if uid is not None:
        return emails.get(uid) or f"ls-{uid}"
    return f"ls-{completed_by}"
