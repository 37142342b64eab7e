"""Mechanical Turk: the batch input CSV, the submit hosts the page may post to, and the
batch results CSV read back for ingest.
"""
import csv
import datetime

import fsspec

from transforms.core import safejson
from transforms.human_filtering import hits as H
from transforms.human_filtering import results_check as R
from transforms.human_filtering import worker_quality as Q
from transforms.human_filtering.csv_safe import escape_row, unescape_row
from transforms.human_filtering.fields import UserError, as_int, truthy

#: The only `turkSubmitTo` values the page accepts (production and sandbox); the page
#: template holds the same list.
SUBMIT_HOSTS = ("https://www.mturk.com", "https://workersandbox.mturk.com")
_TZ = {"PST": -8, "PDT": -7, "UTC": 0, "GMT": 0}


def write_batch(fs, path: str, hit_rows, per_hit: int) -> None:
    """hits.csv, every cell spreadsheet-safe and nothing lost (csv_safe.escape_cell)."""
    with fs.open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=H.csv_columns(per_hit))
        writer.writeheader()
        writer.writerows(escape_row(row) for row in hit_rows)


def read_batch(path: str) -> list:
    """The rows of hits.csv with the values export gave (csv_safe.unescape_cell)."""
    csv.field_size_limit(1 << 30)
    with fsspec.open(path, "r", encoding="utf-8", newline="") as f:
        return [unescape_row(row) for row in csv.DictReader(f)]


def submit_time(text: str) -> float:
    """Seconds since the epoch of MTurk's `Thu Oct 25 07:22:41 PDT 2018` (0 if unparsable)."""
    parts = (text or "").split()
    if len(parts) != 6:
        return 0.0
    try:
        t = datetime.datetime.strptime(" ".join(parts[:4] + parts[5:]), "%a %b %d %H:%M:%S %Y")
    except ValueError:
        return 0.0
    offset = datetime.timezone(datetime.timedelta(hours=_TZ.get(parts[4], 0)))
    return t.replace(tzinfo=offset).timestamp()


def submission(worker, qid, hit, refs, spans, text, start, end, flag, feedback, gold,
               counts) -> Q.Submission:
    """One answer scored: right when it is one of the page's entities (where the page's
    entities are known) and matches a reference answer. An answer that is no entity of
    the page (a tampered post) counts as wrong and is counted in `not_an_entity`."""
    feedback = feedback or ""
    start, end = as_int(start), as_int(end)
    correct = H.is_correct(text, start, end, refs)
    if spans is not None and not H.is_entity(text, start, end, spans):
        counts["not_an_entity"] += 1
        correct = False
    return Q.Submission(worker, qid, hit, correct,
                        Q.is_ambiguity_report(truthy(flag), feedback), feedback, gold, text or "")


def read_results(path: str, records: dict = None, rejected: list = None) -> tuple:
    """(submissions in submission order, query ids, counters) of a batch results CSV,
    read row by row; only the compact answer of each task is kept. With `records` (the
    exported HITs, results_check.hit_records) each row's `Input.*` copy of its HITs is
    checked against them and the HITs' reference answers, entities and gold flags are
    used; a row that differs is rejected whole, by name, into `rejected`. One AssignmentId
    counts once either way."""
    csv.field_size_limit(1 << 30)
    rejected = [] if rejected is None else rejected
    timed, queries, spans, gold = [], {}, {}, {}
    counts = {"rejected_assignments": 0, "unanswered": 0, "not_an_entity": 0}
    with fsspec.open(path, "r", encoding="utf-8-sig", newline="") as f:
        reader = csv.DictReader(f)
        columns = reader.fieldnames or []
        suffixes = [c[len("Input.query_id"):] for c in columns if c.startswith("Input.query_id")]
        if not suffixes or "WorkerId" not in columns:
            raise UserError("%s is not an MTurk results CSV of exported HITs (no WorkerId "
                             "or Input.query_id column)" % path)
        for n, row in enumerate(reader):
            if records is not None and _row_rejected(row, n, suffixes, records, rejected):
                continue
            rejected_status = row.get("AssignmentStatus", "") == "Rejected"
            counts["rejected_assignments"] += rejected_status
            for sfx in suffixes:
                qid = row["Input.query_id" + sfx]
                if qid not in queries:
                    queries[qid], spans[qid], gold[qid] = _task_truth(row, sfx, qid, records)
                if rejected_status:
                    continue
                text = row.get("Answer.answer" + sfx, "")
                if not text:
                    counts["unanswered"] += 1
                    continue
                sub = submission(row["WorkerId"], qid, row.get("HITId", ""), queries[qid],
                                 spans[qid], text, row.get("Answer.answer_start" + sfx),
                                 row.get("Answer.answer_end" + sfx),
                                 row.get("Answer.ambiguous" + sfx),
                                 row.get("Answer.feedback" + sfx), gold[qid], counts)
                timed.append((submit_time(row.get("SubmitTime", "")), n,
                              row.get("AssignmentId", ""), sub))
    timed.sort(key=lambda t: (t[0], t[1]))
    subs = once_per_assignment(timed, rejected)
    counts["rejected_results"] = len(rejected)
    return subs, list(queries), counts


def _task_truth(row, sfx, qid, records) -> tuple:
    """(reference answers, clickable spans, gold) of a task: from the HITs when known,
    else (no --hits) from the row's own Input columns."""
    if records is not None:
        record = records[qid]
        return (safejson.loads(record["reference_answers"]),
                H.entity_spans(record["passage_html"]) if record.get("passage_html") else None,
                record.get("gold") == "1")
    html = row.get("Input.passage_html" + sfx)
    return (safejson.loads(row["Input.reference_answers" + sfx]),
            H.entity_spans(html) if html else None, row.get("Input.gold") == "1")


def _row_rejected(row, n, suffixes, records, rejected) -> bool:
    """Check every task of a results row against the HITs; a row that differs is rejected
    whole (results_check.task_problem)."""
    for sfx in suffixes:
        qid = row["Input.query_id" + sfx]
        problem = R.task_problem(lambda field: row.get("Input." + field), sfx, qid, records)
        if problem:
            rejected.append(R.Rejection(f"line {n + 2}", row.get("AssignmentId", ""),
                                        row.get("WorkerId", ""), row.get("HITId", ""), qid,
                                        *problem))
            return True
    return False


def once_per_assignment(timed, rejected) -> list:
    """The submissions of `timed` ((time, row, assignment id, submission), replay order)
    with every row of an assignment after its first one rejected by name."""
    seen, out, named = R.Assignments(), [], set()
    for _, n, assignment, sub in timed:
        repeat = seen.repeat(assignment, n, sub.worker_id)
        if repeat is None:
            out.append(sub)
        elif n not in named:
            named.add(n)
            rejected.append(R.Rejection(f"line {n + 2}", assignment, sub.worker_id, sub.hit_id,
                                        sub.query_id, "duplicate_assignment", repeat))
    return out
