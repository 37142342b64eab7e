"""Human validation stage (paper section 3.4): export HITs, serve them, ingest the answers.

  export  --filtered DIR/filtered --output DIR/hits [--per_hit N]
          MTurk batch input CSV (hits.csv) + the self-contained task page (mturk_template.html)
  serve   --hits DIR/hits --db annotations.sqlite [--port P]
          the same page for in-house annotators; answers stored in SQLite
  ingest  --results RESULTS.csv|annotations.sqlite --output DIR/validated
          worker accuracy checks, blocks, HITs to republish, one verdict per triple
"""
import argparse
import contextlib
import csv
import dataclasses
import datetime
import http.server
import json
import logging
import sqlite3
import sys
import urllib.parse
import uuid

import fsspec

from transforms.human_filtering import hits as H
from transforms.core import io_utils
from transforms.human_filtering import worker_quality as Q
from transforms.core.hashing import stable_hash

LOG = logging.getLogger(__name__)
_COLUMNS = ["id", "passage_id", "passage", "entities", "query", "answers"]


# --- export -----------------------------------------------------------------------------

def _input_pattern(filtered: str) -> str:
    kept = io_utils.join(filtered, "kept", "*.parquet")
    return kept if io_utils.glob(kept) else io_utils.join(filtered, "*.parquet")


def export(filtered: str, output: str, per_hit: int = 1, limit: int | None = None) -> dict:
    """Write hits.csv, mturk_template.html, preview.html and manifest.json under `output`."""
    if per_hit < 1:
        raise ValueError("--per_hit must be >= 1")
    pattern = _input_pattern(filtered)
    rows, skipped, seen = [], {}, set()
    for row in io_utils.read_parquet(pattern, columns=_COLUMNS).to_pylist():
        problem = H.row_problem(row) or ("duplicate_id" if row["id"] in seen else None)
        if problem:
            skipped[problem] = skipped.get(problem, 0) + 1
            continue
        seen.add(row["id"])
        rows.append(row)
    rows.sort(key=lambda r: (stable_hash(r["id"], salt="hits"), r["id"]))
    rows = rows[:limit] if limit else rows
    hit_rows = list(H.hit_rows(rows, per_hit))
    template = H.page_template(per_hit)
    fs, root = fsspec.core.url_to_fs(output)
    fs.makedirs(root, exist_ok=True)
    with fs.open(io_utils.join(root, "hits.csv"), "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=H.csv_columns(per_hit))
        writer.writeheader()
        writer.writerows(hit_rows)
    with fs.open(io_utils.join(root, "mturk_template.html"), "w", encoding="utf-8") as f:
        f.write(template)
    if hit_rows:
        with fs.open(io_utils.join(root, "preview.html"), "w", encoding="utf-8") as f:
            f.write(H.substitute(template, hit_rows[0]))
    manifest = {"input": pattern, "per_hit": per_hit, "hits": len(hit_rows),
                "queries": len(rows), "skipped": skipped,
                "template_variables": sorted(H.template_variables(template))}
    io_utils.write_json(io_utils.join(output, "manifest.json"), manifest)
    LOG.info("exported %d queries in %d HITs to %s (skipped %s)", len(rows), len(hit_rows),
             output, skipped)
    return manifest


def read_hits(hits_dir: str) -> tuple[list[dict], int, str]:
    """(batch CSV rows, per_hit, page template) of an export directory."""
    manifest = io_utils.read_json(io_utils.join(hits_dir, "manifest.json"))
    csv.field_size_limit(1 << 30)
    with fsspec.open(io_utils.join(hits_dir, "hits.csv"), "r", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    with fsspec.open(io_utils.join(hits_dir, "mturk_template.html"), "r", encoding="utf-8") as f:
        template = f.read()
    return rows, manifest["per_hit"], template


# --- SQLite store of the local server ---------------------------------------------------

_SCHEMA = """
CREATE TABLE IF NOT EXISTS hits (
  query_id TEXT PRIMARY KEY, hit_ref TEXT NOT NULL, position INTEGER NOT NULL,
  passage_id TEXT, reference_answers TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS annotations (
  id INTEGER PRIMARY KEY AUTOINCREMENT, assignment_id TEXT NOT NULL, hit_ref TEXT NOT NULL,
  worker_id TEXT NOT NULL, query_id TEXT NOT NULL, answer TEXT NOT NULL,
  answer_start INTEGER, answer_end INTEGER, ambiguous INTEGER NOT NULL DEFAULT 0,
  feedback TEXT NOT NULL DEFAULT '', time_spent_ms INTEGER, submitted_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS annotations_hit ON annotations(hit_ref, worker_id);
"""


class Store:
    """The annotation database: the HITs being served and every answer submitted."""

    def __init__(self, db: str, hit_rows: list[dict], per_hit: int):
        self.db, self.per_hit = db, per_hit
        self.hits = {row["hit_ref"]: row for row in hit_rows}
        self.order = [row["hit_ref"] for row in hit_rows]
        with self._connect() as con:
            con.executescript(_SCHEMA)
            for pos, row in enumerate(hit_rows):
                for sfx in H.slot_suffixes(per_hit):
                    con.execute("INSERT OR IGNORE INTO hits VALUES (?,?,?,?,?)",
                                (row["query_id" + sfx], row["hit_ref"], pos,
                                 row["passage_id" + sfx], row["reference_answers" + sfx]))

    @contextlib.contextmanager
    def _connect(self):
        con = sqlite3.connect(self.db, timeout=30)
        try:
            with con:  # one transaction
                yield con
        finally:
            con.close()

    def next_hit(self, worker_id: str, assignments: int) -> str | None:
        """The first HIT with the fewest workers, below `assignments`, this worker has not done."""
        with self._connect() as con:
            done = dict(con.execute(
                "SELECT hit_ref, COUNT(DISTINCT worker_id) FROM annotations GROUP BY hit_ref"))
            mine = {r[0] for r in con.execute(
                "SELECT DISTINCT hit_ref FROM annotations WHERE worker_id = ?", (worker_id,))}
        todo = [h for h in self.order if h not in mine and done.get(h, 0) < assignments]
        return min(todo, key=lambda h: done.get(h, 0)) if todo else None

    def save(self, form: dict) -> int:
        """Store one submitted page (one row per task); returns the rows written, 0 when
        this worker already answered this HIT (a resubmitted form)."""
        worker, hit = form.get("worker_id", "").strip(), form.get("hit_ref", "")
        if not worker or hit not in self.hits:
            raise ValueError("missing worker_id or unknown hit_ref")
        row, assignment = self.hits[hit], "local-" + uuid.uuid4().hex
        now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        spent = _int(form.get("time_spent_ms"))
        records = []
        for sfx in H.slot_suffixes(self.per_hit):
            if form.get("query_id" + sfx) != row["query_id" + sfx]:
                raise ValueError("query_id%s does not belong to %s" % (sfx, hit))
            answer = form.get("answer" + sfx, "")
            if not answer:
                raise ValueError("no answer for query_id%s" % sfx)
            records.append((assignment, hit, worker, row["query_id" + sfx], answer,
                            _int(form.get("answer_start" + sfx)),
                            _int(form.get("answer_end" + sfx)),
                            int(_truthy(form.get("ambiguous" + sfx))),
                            form.get("feedback" + sfx, ""), spent, now))
        with self._connect() as con:
            if con.execute("SELECT 1 FROM annotations WHERE hit_ref = ? AND worker_id = ?",
                           (hit, worker)).fetchone():
                return 0
            con.executemany(
                "INSERT INTO annotations (assignment_id, hit_ref, worker_id, query_id, answer,"
                " answer_start, answer_end, ambiguous, feedback, time_spent_ms, submitted_at)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?)", records)
        return len(records)


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _truthy(value) -> bool:
    return str(value or "").strip().lower() in ("on", "true", "1", "yes")


# --- the local server -------------------------------------------------------------------

_LANDING = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Annotation</title></head>
<body><h1>ReCoRD human validation</h1><form action="next" method="get">
<label>Your annotator id: <input name="workerId" required></label>
<button type="submit">Start</button></form></body></html>"""
_DONE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Done</title></head>
<body><h1>No tasks left</h1><p id="done">Thank you: every task has its answers.</p></body></html>"""


def make_server(hits_dir: str, db: str, host: str = "127.0.0.1", port: int = 0,
                assignments: int = 1) -> http.server.ThreadingHTTPServer:
    """An HTTP server for the exported HITs (port 0: any free port)."""
    hit_rows, per_hit, template = read_hits(hits_dir)
    store = Store(db, hit_rows, per_hit)

    class Handler(http.server.BaseHTTPRequestHandler):
        def _send(self, code, body="", location=None, kind="text/html"):
            data = body.encode("utf-8")
            self.send_response(code)
            if location:
                self.send_header("Location", location)
            self.send_header("Content-Type", kind + "; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            query = dict(urllib.parse.parse_qsl(url.query))
            worker = query.get("workerId", "")
            if url.path == "/":
                return self._send(200, _LANDING)
            if url.path == "/next":
                hit = store.next_hit(worker, assignments) if worker else None
                if hit is None:
                    return self._send(200, _DONE)
                qs = urllib.parse.urlencode({"workerId": worker})
                return self._send(303, location="/hit/%s?%s" % (hit, qs))
            if url.path.startswith("/hit/") and url.path[5:] in store.hits:
                return self._send(200, H.substitute(template, store.hits[url.path[5:]]))
            return self._send(404, "not found", kind="text/plain")

        def do_POST(self):
            if urllib.parse.urlsplit(self.path).path != "/hit/submit":
                return self._send(404, "not found", kind="text/plain")
            length = int(self.headers.get("Content-Length") or 0)
            form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode("utf-8"),
                                               keep_blank_values=True))
            try:
                store.save(form)
            except ValueError as err:
                return self._send(400, str(err), kind="text/plain")
            qs = urllib.parse.urlencode({"workerId": form["worker_id"]})
            return self._send(303, location="/next?" + qs)

        def log_message(self, fmt, *args):
            LOG.info("%s - %s", self.address_string(), fmt % args)

    server = http.server.ThreadingHTTPServer((host, port), Handler)
    server.store = store
    return server


# --- ingest -----------------------------------------------------------------------------

_TZ = {"PST": -8, "PDT": -7, "UTC": 0, "GMT": 0}


def _submit_time(text: str) -> float:
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


def _submission(worker, qid, hit, refs, text, start, end, flag, feedback) -> Q.Submission:
    feedback = feedback or ""
    return Q.Submission(worker, qid, hit, H.is_correct(text, _int(start), _int(end), refs),
                        Q.is_ambiguity_report(_truthy(flag), feedback), feedback)


def read_mturk_results(path: str) -> tuple[list[Q.Submission], list[str], dict]:
    """(submissions in submission order, query ids, counters) of a batch results CSV,
    read row by row; only the compact answer of each task is kept."""
    csv.field_size_limit(1 << 30)
    timed, queries, counts = [], {}, {"rejected_assignments": 0, "unanswered": 0}
    with fsspec.open(path, "r", encoding="utf-8-sig", newline="") as f:
        reader = csv.DictReader(f)
        suffixes = [c[len("Input.query_id"):] for c in reader.fieldnames or []
                    if c.startswith("Input.query_id")]
        if not suffixes or "WorkerId" not in reader.fieldnames:
            raise ValueError("%s is not an MTurk results CSV of exported HITs" % path)
        for n, row in enumerate(reader):
            rejected = row.get("AssignmentStatus", "") == "Rejected"
            counts["rejected_assignments"] += rejected
            for sfx in suffixes:
                qid = row["Input.query_id" + sfx]
                refs = queries.get(qid)
                if refs is None:
                    refs = queries[qid] = json.loads(row["Input.reference_answers" + sfx])
                if rejected:
                    continue
                text = row.get("Answer.answer" + sfx, "")
                if not text:
                    counts["unanswered"] += 1
                    continue
                sub = _submission(row["WorkerId"], qid, row.get("HITId", ""), refs, text,
                                  row.get("Answer.answer_start" + sfx),
                                  row.get("Answer.answer_end" + sfx),
                                  row.get("Answer.ambiguous" + sfx),
                                  row.get("Answer.feedback" + sfx))
                timed.append((_submit_time(row.get("SubmitTime", "")), n, sub))
    timed.sort(key=lambda t: (t[0], t[1]))
    return [t[2] for t in timed], list(queries), counts


def read_sqlite_results(path: str) -> tuple[list[Q.Submission], list[str], dict]:
    """The same from the local server's SQLite store, in insertion order."""
    con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        refs = {q: json.loads(a) for q, a in
                con.execute("SELECT query_id, reference_answers FROM hits ORDER BY position")}
        subs = [_submission(w, q, h, refs[q], a, s, e, amb, fb) for w, q, h, a, s, e, amb, fb in
                con.execute("SELECT worker_id, query_id, hit_ref, answer, answer_start,"
                            " answer_end, ambiguous, feedback FROM annotations ORDER BY id")]
    finally:
        con.close()
    return subs, list(refs), {"rejected_assignments": 0, "unanswered": 0}


def ingest(results: str, output: str, cfg: Q.QualityConfig = Q.QualityConfig()) -> dict:
    """Check workers, list blocks and republished HITs, write one verdict per triple."""
    reader = read_sqlite_results if results.endswith((".sqlite", ".db", ".sqlite3")) \
        else read_mturk_results
    subs, query_ids, counts = reader(results)
    workers, total, checks = Q.check_workers(subs, cfg)
    blocked = {w for w, s in workers.items() if s.blocked_at is not None}
    verdicts = Q.validate_queries(subs, query_ids, blocked, cfg)
    again = Q.republish(subs, blocked)
    fs, root = fsspec.core.url_to_fs(output)
    fs.makedirs(root, exist_ok=True)
    with fs.open(io_utils.join(root, "validated.jsonl"), "w", encoding="utf-8") as f:
        for qid in sorted(verdicts):
            f.write(json.dumps(verdicts[qid], ensure_ascii=False, sort_keys=True) + "\n")
    worker_rows = [{"worker_id": w, "submissions": s.submissions, "correct": s.correct,
                    "accuracy": round(s.accuracy, 4), "blocked": s.blocked_at is not None,
                    "blocked_at_submission": s.blocked_at, "reason": s.reason}
                   for w, s in sorted(workers.items())]
    _write_csv(fs, io_utils.join(root, "workers.csv"), worker_rows,
               list(worker_rows[0]) if worker_rows else ["worker_id"])
    _write_csv(fs, io_utils.join(root, "block_workers.csv"),
               [r for r in worker_rows if r["blocked"]],
               ["worker_id", "submissions", "accuracy", "blocked_at_submission", "reason"])
    _write_csv(fs, io_utils.join(root, "republish_hits.csv"),
               [{"hit_id": h, "assignments": v["assignments"],
                 "query_ids": " ".join(v["query_ids"]), "workers": " ".join(v["workers"])}
                for h, v in sorted(again.items())],
               ["hit_id", "assignments", "query_ids", "workers"])
    by_status = {k: sum(v["valid_for"] == k for v in verdicts.values())
                 for k in ("train", "dev_test", "none")}
    summary = {"results": results, "config": dataclasses.asdict(cfg),
               "submissions": total, "checks": checks, "workers": len(workers),
               "blocked_workers": sorted(blocked), "republish_hits": len(again),
               "queries": len(verdicts), "valid_for": by_status,
               "ambiguous": sum(v["ambiguous"] for v in verdicts.values()), **counts}
    io_utils.write_json(io_utils.join(output, "summary.json"), summary)
    LOG.info("ingested %d submissions: %s", total, summary)
    return summary


def _write_csv(fs, path, rows, columns):
    with fs.open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)


# --- command line -----------------------------------------------------------------------

def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="record-human-validation", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    # flags use underscores like every other command; the dashed spellings still work
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("export", help="write the MTurk batch CSV and the task page")
    p.add_argument("--filtered", required=True,
                   help="DIR/filtered (reads kept/*.parquet) or a dir of candidate Parquet")
    p.add_argument("--output", required=True, help="DIR/hits")
    p.add_argument("--per_hit", "--per-hit", type=int, default=1, help="triples per HIT (paper: 1)")
    p.add_argument("--limit", type=int, default=None, help="export only the first N triples")
    p = sub.add_parser("serve", help="serve the HITs to local annotators")
    p.add_argument("--hits", required=True)
    p.add_argument("--db", required=True, help="SQLite file the answers go to")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--assignments", type=int, default=1,
                   help="workers per HIT (1 for train, 2 for dev/test candidates)")
    p = sub.add_parser("ingest", help="check workers and validate triples")
    p.add_argument("--results", required=True, help="MTurk results CSV or annotations.sqlite")
    p.add_argument("--output", required=True, help="DIR/validated")
    defaults = Q.QualityConfig()
    p.add_argument("--check_every", "--check-every", type=int, default=defaults.check_every)
    p.add_argument("--min_accuracy", "--min-accuracy", type=float, default=defaults.min_accuracy)
    p.add_argument("--min_answers", "--min-answers", type=int, default=defaults.min_answers)
    return parser


def run(argv=None):
    args = _parser().parse_args(argv)
    if args.command == "export":
        return export(args.filtered, args.output, args.per_hit, args.limit)
    if args.command == "ingest":
        cfg = Q.QualityConfig(check_every=args.check_every, min_accuracy=args.min_accuracy,
                              min_answers=args.min_answers)
        return ingest(args.results, args.output, cfg)
    server = make_server(args.hits, args.db, args.host, args.port, args.assignments)
    host, port = server.server_address[:2]
    print("serving %d HITs on http://%s:%d/ (Ctrl-C to stop)" % (
        len(server.store.hits), host, port), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return None


def main():
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    run(sys.argv[1:])


if __name__ == "__main__":
    main()
