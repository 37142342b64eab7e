"""`ingest`: answers from MTurk, the local server or Label Studio, checked and turned into
one verdict per triple.

    DIR/validated/validated.jsonl     id, valid_for (train|dev_test|none), counts, feedback
    DIR/validated/workers.csv         per worker: answers, accuracy, gold accuracy, blocks
    DIR/validated/block_workers.csv   the blocked workers
    DIR/validated/republish_hits.csv  HITs a blocked worker answered
    DIR/validated/answers.jsonl       every answer and what it was to the verdicts (answers.py)
    DIR/validated/rejected_results.csv  results rows not counted, by name (results_check.py)
    DIR/validated/summary.json        config and counts

CSV cells are spreadsheet-safe (`csv_safe`).
"""
import dataclasses
import json
import logging
import os
import sqlite3

import fsspec

from transforms.core import io_utils, safejson
from transforms.human_filtering import answers, labelstudio, mturk, prolific
from transforms.human_filtering import db as D
from transforms.human_filtering import hits as H
from transforms.human_filtering import results_check as R
from transforms.human_filtering import worker_quality as Q
from transforms.human_filtering.csv_safe import write_csv
from transforms.human_filtering.export import hits_index, read_hits
from transforms.human_filtering.fields import UserError, truthy

LOG = logging.getLogger(__name__)
SQLITE_SUFFIXES = (".sqlite", ".db", ".sqlite3")


def read_sqlite(path: str) -> tuple:
    """(submissions in insertion order, query ids, counters) of the server's database
    (an older one, without gold flags or the unique constraint, too)."""
    try:
        con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        try:
            gold = "gold" if "gold" in D.columns(con, "hits") else "0"
            hits = {q: (safejson.loads(a), bool(g)) for q, a, g in con.execute(
                "SELECT query_id, reference_answers, %s FROM hits ORDER BY position" % gold)}
            rows = con.execute("SELECT worker_id, query_id, hit_ref, answer, answer_start,"
                               " answer_end, ambiguous, feedback FROM annotations ORDER BY id"
                               ).fetchall()
            counted, unverified = _counted_workers(con, {r[0] for r in rows})
        finally:
            con.close()
    except sqlite3.DatabaseError as err:
        raise UserError("%s is not an annotation database of `serve` (%s)" % (path, err)) \
            from None
    subs = [Q.Submission(counted[w], q, h, H.is_correct(a, s, e, hits[q][0]),
                         Q.is_ambiguity_report(truthy(amb), fb), fb, hits[q][1], a)
            for w, q, h, a, s, e, amb, fb in rows]
    if unverified:
        LOG.warning("%d Prolific participant(s) are not on their study's imported list: "
                    "their answers count as one worker per study (STUDY:unverified); import "
                    "Prolific's export with `human_validation participants import`", unverified)
    return subs, list(hits), {"rejected_assignments": 0, "unanswered": 0, "not_an_entity": 0,
                              "unverified_participants": unverified}


def _counted_workers(con, workers) -> tuple:
    """({worker_id: the worker its answers count for}, participants merged as unverified)."""
    study_of = {}
    if "study" in D.columns(con, "workers"):
        study_of = dict(con.execute("SELECT worker_id, study FROM workers"))
    has_list = "participants" in {r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    out, merged = {}, 0
    for w in sorted(workers):
        study = study_of.get(w)
        if study and has_list:
            out[w] = prolific.counted_worker(con, w, study)
        elif study:
            out[w] = "%s:%s" % (study, prolific.UNVERIFIED)
        else:
            out[w] = w
        merged += out[w] != w
    return out, merged


def read_results(results: str, hits_dir: str | None = None,
                 rejected: list | None = None) -> tuple:
    """(submissions, query ids, counters) of a results file. A Label Studio export or an
    MTurk results CSV is checked against the HITs of `hits_dir`, its rows that differ
    rejected by name into `rejected` (results_check.py)."""
    if "://" not in results and not os.path.isfile(results):
        raise FileNotFoundError("no results file at %s" % results)
    if results.endswith(SQLITE_SUFFIXES):
        return read_sqlite(results)
    if results.endswith(".json"):
        if not hits_dir:
            raise UserError("a Label Studio export needs --hits DIR/hits (the export it was "
                            "made from: reference answers and gold flags)")
        return labelstudio.read_export(results, hits_index(hits_dir), hit_records(hits_dir),
                                       rejected)
    try:
        return _read_mturk(results, hits_dir, rejected)
    except (UnicodeDecodeError, json.JSONDecodeError, KeyError) as err:
        raise UserError("%s: not a readable MTurk results CSV (%s: %s)"
                        % (results, type(err).__name__, err)) from None


def _read_mturk(results: str, hits_dir: str | None, rejected: list | None) -> tuple:
    """An MTurk results CSV is read (its own errors first), then needs the HITs: its
    `Input.*` columns are only the rows' word for them."""
    if not hits_dir:
        mturk.read_results(results)
        raise UserError("an MTurk results CSV needs --hits DIR/hits (the export it was made "
                        "from; `build --results` reads DIR/hits): its rows are checked against "
                        "those HITs and scored with their reference answers, never the CSV's "
                        "own copy")
    return mturk.read_results(results, hit_records(hits_dir), rejected)


def hit_records(hits_dir: str) -> dict:
    rows, manifest, _ = read_hits(hits_dir)
    return R.hit_records(rows, manifest["per_hit"])


def write_rejected(fs, root: str, rejected: list) -> dict:
    """`rejected_results.csv` (every results row not counted, by name) and {reason: n}."""
    write_csv(fs, io_utils.join(root, "rejected_results.csv"),
              [r._asdict() for r in rejected], R.REJECTED_COLUMNS)
    reasons = {}
    for r in rejected:
        reasons[r.reason] = reasons.get(r.reason, 0) + 1
    if rejected:
        first = rejected[0]
        LOG.warning("%d results row(s) not counted %s, e.g. %s (%s): %s; every one is in "
                    "%s", len(rejected), reasons, first.row, first.worker_id, first.detail,
                    io_utils.join(root, "rejected_results.csv"))
    return dict(sorted(reasons.items()))


def _worker_row(name: str, s: Q.WorkerStats) -> dict:
    return {"worker_id": name, "submissions": s.submissions, "correct": s.correct,
            "accuracy": round(s.accuracy, 4), "gold_answers": s.gold_answers,
            "gold_correct": s.gold_correct,
            "gold_accuracy": "" if s.gold_accuracy is None else round(s.gold_accuracy, 4),
            "repeats": s.repeats, "blocked": s.blocked_at is not None,
            "blocked_at_submission": s.blocked_at, "reason": s.reason}


def ingest(results: str, output: str, cfg: Q.QualityConfig = Q.QualityConfig(),
           hits_dir: str | None = None) -> dict:
    """Check workers, list blocks and republished HITs, write one verdict per triple."""
    rejected = []
    subs, query_ids, counts = read_results(results, hits_dir, rejected)
    workers, total, checks = Q.check_workers(subs, cfg)
    blocked = {w for w, s in workers.items() if s.blocked_at is not None}
    verdicts = Q.validate_queries(subs, query_ids, blocked, cfg)
    again = Q.republish(subs, blocked)
    fs, root = fsspec.core.url_to_fs(output)
    fs.makedirs(root, exist_ok=True)
    extra = answers.add_to_ingest(fs, root, results, subs, blocked, cfg, verdicts)
    with fs.open(io_utils.join(root, "validated.jsonl"), "w", encoding="utf-8") as f:
        for qid in sorted(verdicts):
            f.write(json.dumps(verdicts[qid], ensure_ascii=False, sort_keys=True) + "\n")
    rows = [_worker_row(w, s) for w, s in sorted(workers.items())]
    columns = list(_worker_row("", Q.WorkerStats()))
    write_csv(fs, io_utils.join(root, "workers.csv"), rows, columns)
    write_csv(fs, io_utils.join(root, "block_workers.csv"), [r for r in rows if r["blocked"]],
              ["worker_id", "submissions", "accuracy", "gold_accuracy",
               "blocked_at_submission", "reason"])
    write_csv(fs, io_utils.join(root, "republish_hits.csv"),
              [{"hit_id": h, "assignments": v["assignments"],
                "query_ids": " ".join(v["query_ids"]), "workers": " ".join(v["workers"])}
               for h, v in sorted(again.items())],
              ["hit_id", "assignments", "query_ids", "workers"])
    counts = dict(counts, rejected_results=write_rejected(fs, root, rejected))
    by_status = {k: sum(v["valid_for"] == k for v in verdicts.values())
                 for k in ("train", "dev_test", "none")}
    summary = {"results": results, "config": dataclasses.asdict(cfg),
               "submissions": total, "repeats": sum(s.repeats for s in workers.values()),
               "checks": checks, "workers": len(workers),
               "blocked_workers": sorted(blocked), "republish_hits": len(again),
               "queries": len(verdicts), "valid_for": by_status,
               "ambiguous": sum(v["ambiguous"] for v in verdicts.values()), **counts, **extra}
    io_utils.write_json(io_utils.join(output, "summary.json"), summary)
    LOG.info("ingested %d answers (%d repeats ignored): %d workers, %d blocked; valid_for %s",
             total, summary["repeats"], len(workers), len(blocked), by_status)
    return summary
