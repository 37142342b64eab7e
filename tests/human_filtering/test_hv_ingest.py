"""Ingest against the attacks of issue 13: repeated answers, gold questions, formula
injection in the CSV outputs, Label Studio exports, and bad input on the command line.
Real candidates, real SQLite, real CSV/JSON files."""
import csv
import json
import pathlib
import sqlite3
import subprocess
import sys

import pytest

from beam_pipelines import human_validation as hv
from tests.human_filtering.test_human_validation import (
    clickable,
    write_record_candidates,
)
from transforms.human_filtering import mturk, tokens
from transforms.human_filtering.csv_safe import safe_cell
from transforms.human_filtering.store import Answer, QueuePolicy, Store, hits_from_rows

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def exported(tmp_path_factory, record_format_dir):
    """The real ReCoRD sample exported with 2 gold HITs of 11."""
    tmp = tmp_path_factory.mktemp("hv")
    rows = write_record_candidates(record_format_dir, tmp / "candidates")
    hv.run(["export", "--filtered", str(tmp / "candidates"), "--output", str(tmp / "hits"),
            "--gold_share", "0.2"])
    return tmp / "hits", {r["id"]: r for r in rows}, mturk.read_batch(str(tmp / "hits" /
                                                                           "hits.csv"))


def _click(hit, row, right: bool):
    spans = {(a["start"], a["end"]) for a in row["answers"]}
    texts = {a["text"] for a in row["answers"]}
    ents = clickable(hit)
    if right:
        return next(e for e in ents if (e["start"], e["end"]) in spans)
    return next(e for e in ents if e["text"] not in texts)


def _results_csv(path, answers):
    """An MTurk batch results CSV: answers = [(worker, hit, entity)] in submit order."""
    fields = ["HITId", "AssignmentId", "WorkerId", "AssignmentStatus", "SubmitTime"]
    records = []
    for n, (worker, hit, ent) in enumerate(answers):
        rec = {"HITId": "H-" + hit["hit_ref"], "AssignmentId": "A%05d" % n, "WorkerId": worker,
               "AssignmentStatus": "Submitted",
               "SubmitTime": "Thu Oct 25 %02d:%02d:%02d PDT 2018" % (
                   8 + n // 3600, n // 60 % 60, n % 60)}
        rec.update({"Input." + k: v for k, v in hit.items()})
        rec.update({"Answer.query_id": hit["query_id"], "Answer.answer": ent["text"],
                    "Answer.answer_start": ent["start"], "Answer.answer_end": ent["end"],
                    "Answer.ambiguous": "", "Answer.feedback": ""})
        records.append(rec)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=fields + [k for k in records[0] if k not in fields])
        writer.writeheader()
        writer.writerows(records)


def _workers_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return {r["worker_id"]: r for r in csv.DictReader(f)}


def test_quality_counts_each_workers_first_answer_in_mturk_csvs(exported, tmp_path):
    hits_dir, rows, hits = exported
    regular = [h for h in hits if h["gold"] == "0"]
    q = lambda h: rows[h["query_id"]]      # noqa: E731
    # attack: a spammer, wrong on 8 queries, repeats its one right answer 6 times
    spam = [("spammer", h, _click(h, q(h), False)) for h in regular[:8]]
    spam += [("spammer", regular[8], _click(regular[8], q(regular[8]), True))] * 6
    # attack: an honest worker's one wrong answer repeated 120 times
    honest = [("honest", h, _click(h, q(h), True)) for h in regular[:8]]
    honest += [("honest", regular[8], _click(regular[8], q(regular[8]), False))] * 120
    _results_csv(tmp_path / "results.csv", spam + honest)
    summary = hv.run(["ingest", "--results", str(tmp_path / "results.csv"), "--output",
                      str(tmp_path / "v"), "--min_answers", "9", "--hits", str(hits_dir)])
    workers = _workers_csv(tmp_path / "v" / "workers.csv")
    # first answers only: spammer 1 right of 9 (11%), honest 8 right of 9 (89%);
    # counting every row would have given 7/14 = 50% and 8/128 = 6%
    assert (workers["spammer"]["submissions"], workers["spammer"]["correct"]) == ("9", "1")
    assert (workers["spammer"]["repeats"], workers["spammer"]["blocked"]) == ("5", "True")
    assert (workers["honest"]["submissions"], workers["honest"]["correct"]) == ("9", "8")
    assert (workers["honest"]["repeats"], workers["honest"]["blocked"]) == ("119", "False")
    assert summary["blocked_workers"] == ["spammer"] and summary["repeats"] == 124
    verdicts = {v["id"]: v for v in map(json.loads, open(tmp_path / "v" / "validated.jsonl"))}
    assert [verdicts[h["query_id"]]["valid_for"] for h in regular[:8]] == ["train"] * 8


def test_gold_accuracy_is_reported_and_blocks_in_sqlite_and_csv(exported, tmp_path):
    hits_dir, rows, hits = exported
    gold = [h for h in hits if h["gold"] == "1"]
    assert len(gold) == 2
    answers = []
    for h in hits:   # "paster": right on regular HITs, wrong on every gold one
        answers.append(("paster", h, _click(h, rows[h["query_id"]], h["gold"] == "0")))
        answers.append(("careful", h, _click(h, rows[h["query_id"]], True)))
    _results_csv(tmp_path / "r.csv", answers)
    flags = ["--min_gold_answers", "2", "--min_answers", "1000"]
    summary = hv.run(["ingest", "--results", str(tmp_path / "r.csv"), "--output",
                      str(tmp_path / "v"), "--hits", str(hits_dir), *flags])
    workers = _workers_csv(tmp_path / "v" / "workers.csv")
    assert (workers["paster"]["gold_answers"], workers["paster"]["gold_accuracy"]) == ("2", "0.0")
    assert workers["paster"]["reason"].startswith("gold accuracy 0.000 < 0.50")
    assert workers["careful"]["gold_accuracy"] == "1.0" and summary["blocked_workers"] == ["paster"]

    # the same answers through the server's SQLite store
    store = Store(str(tmp_path / "a.sqlite"), hits_from_rows(hits, 1), QueuePolicy(assignments=2, gold_share=0.5))
    picks = {(worker, h["hit_ref"]): (h, ent) for worker, h, ent in answers}
    for worker in ("paster", "careful"):
        while (served := store.next_hit(worker)) is not None:   # each answers what it is served
            h, ent = picks[(worker, served[0])]
            hit = store.hits[h["hit_ref"]]
            answer = Answer(h["query_id"], ent["text"], ent["start"], ent["end"], False, "")
            assert store.save(worker, hit, [answer]) == 1
            assert store.save(worker, hit, [answer]) == 0           # exactly once
    again = hv.run(["ingest", "--results", str(tmp_path / "a.sqlite"), "--output",
                    str(tmp_path / "v2"), *flags])
    assert again["blocked_workers"] == ["paster"]
    assert _workers_csv(tmp_path / "v2" / "workers.csv") == workers


OLD_SCHEMA = """
CREATE TABLE hits (query_id TEXT PRIMARY KEY, hit_ref TEXT NOT NULL, position INTEGER NOT NULL,
  passage_id TEXT, reference_answers TEXT NOT NULL);
CREATE TABLE annotations (id INTEGER PRIMARY KEY AUTOINCREMENT, assignment_id TEXT NOT NULL,
  hit_ref TEXT NOT NULL, worker_id TEXT NOT NULL, query_id TEXT NOT NULL, answer TEXT NOT NULL,
  answer_start INTEGER, answer_end INTEGER, ambiguous INTEGER NOT NULL DEFAULT 0,
  feedback TEXT NOT NULL DEFAULT '', time_spent_ms INTEGER, submitted_at TEXT NOT NULL);
"""


def test_a_database_of_the_old_server_is_ingested_by_first_answers_not_served(exported,
                                                                               tmp_path):
    hits_dir, rows, hits = exported
    db = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as con:     # the layout the old server wrote: no UNIQUE
        con.executescript(OLD_SCHEMA)
        for pos, h in enumerate(hits):
            con.execute("INSERT INTO hits VALUES (?,?,?,?,?)", (h["query_id"], h["hit_ref"],
                        pos, h["passage_id"], h["reference_answers"]))
        plan = [(h, True) for h in hits[:9]] + [(hits[9], False)] * 6   # a repeated wrong one
        for h, right in plan:
            ent = _click(h, rows[h["query_id"]], right)
            con.execute("INSERT INTO annotations (assignment_id, hit_ref, worker_id, query_id,"
                        " answer, answer_start, answer_end, submitted_at) VALUES"
                        " ('a',?,'ann',?,?,?,?,'t')", (h["hit_ref"], h["query_id"],
                                                       ent["text"], ent["start"], ent["end"]))
    summary = hv.run(["ingest", "--results", str(db), "--output", str(tmp_path / "v"),
                      "--min_answers", "5", "--min_accuracy", "0.85"])
    ann = _workers_csv(tmp_path / "v" / "workers.csv")["ann"]
    assert (ann["submissions"], ann["correct"], ann["repeats"]) == ("10", "9", "5")
    assert summary["blocked_workers"] == []          # 9/10; counting repeats: 9/15
    with pytest.raises(sqlite3.DatabaseError, match="older `serve`"):
        Store(str(db), hits_from_rows(hits, 1))


def test_csv_outputs_neutralise_formulas_and_strip_control_characters(exported, tmp_path):
    hits_dir, rows, hits = exported
    evil = ['=HYPERLINK("http://evil.example","x")', "+1+1", "-2+3", "@SUM(A1)",
            "\t=cmd", "\r=cmd", "nul\x00byte\x1fid", "=\x00hidden"]
    answers = [(w, hits[0], _click(hits[0], rows[hits[0]["query_id"]], True)) for w in evil]
    _results_csv(tmp_path / "r.csv", answers)
    hv.run(["ingest", "--results", str(tmp_path / "r.csv"), "--output", str(tmp_path / "v"),
            "--hits", str(hits_dir)])
    text = (tmp_path / "v" / "workers.csv").read_text(encoding="utf-8")
    with open(tmp_path / "v" / "workers.csv", newline="", encoding="utf-8") as f:
        ids = [r["worker_id"] for r in csv.DictReader(f)]
    assert sorted(ids) == sorted(["'=HYPERLINK(\"http://evil.example\",\"x\")", "'+1+1",
                                  "'-2+3", "'@SUM(A1)", "'=cmd", "'=cmd", "nulbyteid",
                                  "'=hidden"])
    assert not any(c in text for c in "\x00\x1f\t")
    assert all(not i.startswith(("=", "+", "-", "@")) for i in ids)
    assert safe_cell(-0.5) == -0.5 and safe_cell("Ann") == "Ann"


def _ls_annotation(n, who, task, pick, created):
    """A Label Studio annotation choosing `pick` (an entity, or a dict) as the Answer."""
    value = {"start": pick["start"], "end": pick["end"], "text": pick["text"],
             "labels": ["Answer"]}
    return {"id": n, "completed_by": who, "was_cancelled": False, "created_at": created,
            "result": [{"from_name": "answer", "to_name": "text", "type": "labels",
                        "value": value}]}


def test_label_studio_export_is_ingested(exported, tmp_path):
    hits_dir, rows, hits = exported
    tasks = json.loads((hits_dir / "labelstudio_tasks.json").read_text())
    by_hit = {h["query_id"]: h for h in hits}
    for i, t in enumerate(tasks):
        row, hit = rows[t["data"]["query_id"]], by_hit[t["data"]["query_id"]]
        right, wrong = _click(hit, row, True), _click(hit, row, False)
        padded = {**right, "start": right["start"] - 1, "text": " " + right["text"]}
        t["annotations"] = [
            _ls_annotation(1, 1, t, padded if i == 0 else right, "2026-01-01T10:%02d" % i),
            _ls_annotation(2, {"id": 2, "email": "b@lab.example"}, t, wrong,
                           "2026-01-01T11:%02d" % i)]
        if i == 1:
            t["annotations"].append({**_ls_annotation(3, 3, t, right, "x"),
                                     "was_cancelled": True})
        if i == 2:
            free = {"start": 0, "end": 9, "text": row["passage"][:9]}
            t["annotations"].append(_ls_annotation(4, 4, t, free, "2026-01-01T12:00"))
    (tmp_path / "ls.json").write_text(json.dumps(tasks))
    with pytest.raises(ValueError, match="needs --hits"):
        hv.run(["ingest", "--results", str(tmp_path / "ls.json"), "--output", str(tmp_path / "v")])
    summary = hv.run(["ingest", "--results", str(tmp_path / "ls.json"), "--hits",
                      str(hits_dir), "--output", str(tmp_path / "v"), "--min_answers", "5"])
    workers = _workers_csv(tmp_path / "v" / "workers.csv")
    assert workers["ls-1"]["correct"] == workers["ls-1"]["submissions"] == str(len(tasks))
    assert workers["b@lab.example"]["correct"] == "0"
    assert summary["blocked_workers"] == ["b@lab.example"]
    assert summary["rejected_assignments"] == 1 and summary["not_an_entity"] == 1
    assert workers["ls-1"]["gold_answers"] == "2"                 # gold flags from --hits
    assert summary["valid_for"]["train"] == len(tasks)


# --- the command line: one line for bad input -------------------------------------------

def _cli(*args):
    return subprocess.run([sys.executable, "-m", "beam_pipelines.human_validation", *args],
                          cwd=REPO, capture_output=True, text=True, timeout=120)


def test_bad_input_on_the_command_line_ends_with_one_line(tmp_path):
    done = _cli("serve", "--hits", str(tmp_path / "missing"), "--db", str(tmp_path / "a.db"))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "error: no HIT export at %s (manifest.json missing): run `human_validation export` "
        "first" % (tmp_path / "missing")]
    done = _cli("ingest", "--results", str(tmp_path / "nope.csv"), "--output", str(tmp_path))
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == ["error: no results file at %s"
                                                % (tmp_path / "nope.csv")]
    (tmp_path / "other.csv").write_text("a,b\n1,2\n")
    done = _cli("ingest", "--results", str(tmp_path / "other.csv"), "--output", str(tmp_path))
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1
    assert "is not an MTurk results CSV" in done.stderr


def test_workers_add_list_revoke(tmp_path, capsys):
    db = str(tmp_path / "a.sqlite")
    done = _cli("workers", "add", "ann", "bob", "--db", db, "--base_url", "https://hv.lab.example")
    assert done.returncode == 0, done.stderr
    lines = [line.split("\t") for line in done.stdout.splitlines()]
    assert [n for n, _ in lines] == ["ann", "bob"]
    assert all(link.startswith("https://hv.lab.example/next?token=") for _, link in lines)
    assert lines[0][1] != lines[1][1]
    hv.run(["workers", "add", "boss", "--role", "admin", "--db", db])
    hv.run(["workers", "revoke", "bob", "--db", db])
    capsys.readouterr()
    hv.run(["workers", "list", "--db", db])
    out = capsys.readouterr().out.splitlines()
    assert out[0].split("\t") == ["worker_id", "role", "answers", "created_at", "revoked_at"]
    listed = {r.split("\t")[0]: r.split("\t") for r in out[1:]}
    assert listed["ann"][4] == "-" and listed["bob"][4] != "-" and listed["boss"][1] == "admin"
    assert lines[0][1].split("token=")[1] not in "\n".join(out)   # never shown again
    for bad in (["ann"], ["=cmd"], ["a b"]):
        done = _cli("workers", "add", *bad, "--db", db)
        assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1, bad
    with pytest.raises(ValueError, match="no worker named"):
        tokens.revoke(db, ["nobody"])


# --- issue 28: ingest trusts nothing a results file says about a HIT ---------------------

def _forged_csv(path, records):
    """An MTurk results CSV of `records`: [(worker, hit, entity, {Input field: value})]."""
    rows = []
    for n, (worker, hit, ent, forged) in enumerate(records):
        rows.append((worker, dict(hit, **forged), ent))
    _results_csv(path, rows)


def _rejected_rows(folder):
    with open(folder / "rejected_results.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_mturk_rows_whose_hits_differ_are_rejected_by_name(exported, tmp_path):
    """Before: reference answers rewritten in the CSV turned wrong clicks into dev_test
    verdicts (`--hits` was ignored for CSV)."""
    hits_dir, rows, hits = exported
    regular = [h for h in hits if h["gold"] == "0"]
    records = []
    for h in regular:                 # two workers click a wrong entity, the CSV says it is right
        wrong = _click(h, rows[h["query_id"]], False)
        forged = json.dumps([{k: wrong[k] for k in ("start", "end", "text")}])
        for worker in ("w1", "w2"):
            records.append((worker, h, wrong, {"reference_answers": forged}))
    right = _click(regular[0], rows[regular[0]["query_id"]], True)
    records.append(("w3", regular[0], right, {"query": "Another @placeholder altogether."}))
    records.append(("w3", regular[1], right, {"query_id": "no-such-query"}))
    records.append(("w3", regular[2], right, {"hit_ref": "hit-000000000000"}))
    _forged_csv(tmp_path / "r.csv", records)
    done = _cli("ingest", "--results", str(tmp_path / "r.csv"), "--output", str(tmp_path / "x"))
    assert done.returncode == 1 and done.stderr.strip().splitlines() == [
        "error: an MTurk results CSV needs --hits DIR/hits (the export it was made from; "
        "`build --results` reads DIR/hits): its rows are checked against those HITs and scored "
        "with their reference answers, never the CSV's own copy"]
    summary = hv.run(["ingest", "--results", str(tmp_path / "r.csv"), "--hits", str(hits_dir),
                      "--output", str(tmp_path / "v")])
    assert summary["valid_for"]["dev_test"] == 0 and summary["submissions"] == 0
    assert summary["rejected_results"] == {"differs_from_hit": 2 * len(regular) + 2,
                                           "unknown_query": 1}
    rejected = _rejected_rows(tmp_path / "v")
    assert [r["row"] for r in rejected] == ["line %d" % (n + 2) for n in range(len(records))]
    first = rejected[0]
    assert (first["worker_id"], first["query_id"], first["reason"]) == \
        ("w1", regular[0]["query_id"], "differs_from_hit")
    assert first["detail"] == (f"reference_answers of query {regular[0]['query_id']!r} differ "
                               f"from HIT {regular[0]['hit_ref']} in hits.csv")
    assert "query of query" in rejected[-3]["detail"] and "hit_ref" in rejected[-1]["detail"]
    assert rejected[-2]["detail"] == "query 'no-such-query' is in no exported HIT"
    # the same clicks with the HITs' own reference answers: wrong, as they are
    _forged_csv(tmp_path / "honest.csv", [r[:3] + ({},) for r in records[:-3]])
    summary = hv.run(["ingest", "--results", str(tmp_path / "honest.csv"), "--hits",
                      str(hits_dir), "--output", str(tmp_path / "h"), "--min_answers", "1000"])
    assert summary["rejected_results"] == {} and summary["valid_for"]["dev_test"] == 0
    assert summary["valid_for"]["none"] == len(regular)


def test_one_assignment_id_counts_once_under_two_worker_ids(exported, tmp_path):
    """Before: one AssignmentId under two WorkerIds gave two votes (dev_test)."""
    hits_dir, rows, hits = exported
    h = next(h for h in hits if h["gold"] == "0")
    right = _click(h, rows[h["query_id"]], True)
    _results_csv(tmp_path / "r.csv", [("alice", h, right), ("mallory", h, right)])
    text = (tmp_path / "r.csv").read_text().replace("A00001", "A00000")   # one assignment
    (tmp_path / "r.csv").write_text(text)
    summary = hv.run(["ingest", "--results", str(tmp_path / "r.csv"), "--hits", str(hits_dir),
                      "--output", str(tmp_path / "v")])
    verdicts = {v["id"]: v for v in map(json.loads, open(tmp_path / "v" / "validated.jsonl"))}
    assert verdicts[h["query_id"]]["n_answers"] == 1
    assert verdicts[h["query_id"]]["valid_for"] == "train"
    assert summary["rejected_results"] == {"duplicate_assignment": 1}
    (row,) = _rejected_rows(tmp_path / "v")
    assert (row["row"], row["assignment_id"], row["worker_id"]) == ("line 3", "A00000", "mallory")
    assert row["detail"] == ("assignment A00000 is counted once, for worker 'alice' (its first "
                             "row); this row (worker 'mallory') is not counted")


def test_a_label_studio_user_is_one_worker_whatever_shape_completed_by_takes(exported,
                                                                             tmp_path):
    """Before: `completed_by` 7 in one annotation and {"id": 7, ...} in another were two
    workers, whose agreement made a dev_test verdict."""
    hits_dir, rows, hits = exported
    tasks = json.loads((hits_dir / "labelstudio_tasks.json").read_text())
    by_query = {h["query_id"]: h for h in hits}
    for i, t in enumerate(tasks):
        qid = t["data"]["query_id"]
        right = _click(by_query[qid], rows[qid], True)
        t["annotations"] = [
            _ls_annotation(2 * i, 7, t, right, "2026-01-01T10:%02d" % i),
            _ls_annotation(2 * i + 1, {"id": 7, "email": "ann@lab.example"}, t, right,
                           "2026-01-01T11:%02d" % i)]
    tasks[0]["annotations"][1]["completed_by"] = "7"            # a string id, the same user
    tasks[1]["data"]["query"] = "Forged @placeholder query."    # a task that is not its HIT's
    (tmp_path / "ls.json").write_text(json.dumps(tasks))
    summary = hv.run(["ingest", "--results", str(tmp_path / "ls.json"), "--hits",
                      str(hits_dir), "--output", str(tmp_path / "v")])
    workers = _workers_csv(tmp_path / "v" / "workers.csv")
    assert list(workers) == ["ann@lab.example"]
    assert workers["ann@lab.example"]["repeats"] == str(len(tasks) - 1)
    assert summary["valid_for"]["dev_test"] == 0
    assert summary["valid_for"]["train"] == len(tasks) - 1
    (row,) = _rejected_rows(tmp_path / "v")
    assert (row["row"], row["worker_id"], row["reason"]) == ("task 2", "ann@lab.example",
                                                             "differs_from_hit")


def test_hits_csv_cells_never_start_a_formula_and_read_back_unchanged(record_format_dir,
                                                                      tmp_path):
    """Before: 36 query cells of hits.csv started with `=`, `+` or `-`."""
    import html

    import pyarrow as pa
    import pyarrow.parquet as pq

    from transforms.core.schema import CANDIDATE_SCHEMA
    rows = write_record_candidates(record_format_dir, tmp_path / "candidates")
    starts = ["=", "+", "-", "@", "\t", "'"]
    for n, row in enumerate(rows):
        row["query"] = starts[n % len(starts)] + row["query"]
    pq.write_table(pa.Table.from_pylist(rows, schema=CANDIDATE_SCHEMA),
                   tmp_path / "candidates" / "candidates-00000.parquet")
    hv.run(["export", "--filtered", str(tmp_path / "candidates"), "--output",
            str(tmp_path / "hits")])
    with open(tmp_path / "hits" / "hits.csv", newline="", encoding="utf-8") as f:
        raw = list(csv.DictReader(f))
    cells = [v for r in raw for v in r.values()]
    assert not [c for c in cells if c.startswith(("=", "+", "-", "@", "\t", "\r"))]
    by_id = {r["id"]: r for r in rows}
    for r in raw:
        assert html.unescape(r["query_html"]).startswith(by_id[r["query_id"]]["query"][:1])
    back = mturk.read_batch(str(tmp_path / "hits" / "hits.csv"))
    assert sorted(b["query"] for b in back) == sorted(r["query"] for r in rows)
    # MTurk sends the cells back as uploaded: ingest accepts them as the HITs'
    records = [("w1", dict(b, **{k: v for k, v in r.items()}), _click(b, by_id[b["query_id"]], True))
               for b, r in zip(back, raw)]
    _results_csv(tmp_path / "r.csv", records)
    summary = hv.run(["ingest", "--results", str(tmp_path / "r.csv"), "--hits",
                      str(tmp_path / "hits"), "--output", str(tmp_path / "v")])
    assert summary["rejected_results"] == {} and summary["valid_for"]["train"] == len(raw)


def test_build_ingests_a_csv_against_the_runs_own_hits(exported, tmp_path):
    """`build --results results.csv` checks the CSV against DIR/hits, where export puts them."""
    import shutil

    from transforms.human_filtering.fields import UserError
    from transforms.stages import BY_NAME, BuildConfig, BuildPaths
    hits_dir, rows, hits = exported
    h = next(h for h in hits if h["gold"] == "0")
    wrong = _click(h, rows[h["query_id"]], False)
    forged = json.dumps([{k: wrong[k] for k in ("start", "end", "text")}])
    _forged_csv(tmp_path / "r.csv", [(w, h, wrong, {"reference_answers": forged})
                                     for w in ("w1", "w2")])
    config = BuildConfig(BuildPaths((), str(tmp_path / "run"), str(tmp_path / "r.csv")))
    with pytest.raises(UserError, match="needs --hits"):
        BY_NAME["human_validation"].run_in_build(config, str(tmp_path / "staging"), None, {})
    shutil.copytree(hits_dir, tmp_path / "run" / "hits")
    summary = BY_NAME["human_validation"].run_in_build(config, str(tmp_path / "staging"), None, {})
    assert summary["rejected_results"] == {"differs_from_hit": 2}
    assert summary["valid_for"]["dev_test"] == 0
