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
from tests.test_human_validation import clickable, write_record_candidates
from transforms.human_filtering import mturk, tokens
from transforms.human_filtering.csv_safe import safe_cell
from transforms.human_filtering.store import QueuePolicy, Answer, Store, hits_from_rows

REPO = pathlib.Path(__file__).resolve().parents[1]


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
                      str(tmp_path / "v"), "--min_answers", "9"])
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
                      str(tmp_path / "v"), *flags])
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
    hv.run(["ingest", "--results", str(tmp_path / "r.csv"), "--output", str(tmp_path / "v")])
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
