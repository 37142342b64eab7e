"""The annotation server enforces its queue (issue 22): a worker answers only the HIT served
to them and still open for them, within --assignments and --hits_per_worker, under
concurrency; Prolific participants count once known. Real uvicorn on 127.0.0.1, real SQLite."""
import json
import subprocess
import sys
import urllib.parse

import pytest

from beam_pipelines import human_validation as hv
from tests.human_filtering.test_hv_server import Served, _together
from transforms.human_filtering import tokens
from transforms.human_filtering.app import ServeConfig
from transforms.human_filtering.store import (
    QueuePolicy,
    QueueRefused,
    Store,
    hits_from_rows,
)

STUDY_IDS = {"STUDY_ID": "60aa11bb22cc33dd44ee55ff"}


@pytest.fixture
def serve(tmp_path, record_format_dir):
    made = []

    def start(**cfg):
        s = Served(tmp_path / str(len(made)), record_format_dir, cfg=ServeConfig(**cfg))
        made.append(s)
        return s
    (tmp_path / "0").mkdir(), (tmp_path / "1").mkdir()
    yield start
    for s in made:
        s.stop()


def test_a_hit_never_served_to_the_worker_is_refused_and_not_stored(serve):
    s = serve()
    ann, bob = s.tokens["ann"], s.tokens["bob"]
    served = s.next_hit(ann)
    other = next(h for h in s.hits if h["hit_ref"] != served["hit_ref"] and h["gold"] == "0")
    status, _, body = s.post(s.form(ann, hit=other))
    assert status == 403 and "was not served to ann" in body
    # bob forges ann's reserved HIT: never served to him
    assert s.post(s.form(bob, hit=served))[0] == 403
    assert s.stored() == []
    assert s.post(s.form(ann, hit=served))[0] == 303
    assert s.stored() == [("ann", served["query_id"], s.rows[served["query_id"]]["answers"][0]["text"])]


def test_hits_per_worker_and_assignments_hold(serve):
    s = serve(per_worker=1, assignments=1)
    ann = s.tokens["ann"]
    first = s.next_hit(ann)
    assert s.post(s.form(ann, hit=first))[0] == 303
    assert s.next_hit(ann) is None                         # the end page: cap reached
    for hit in s.hits:                                     # forging any other HIT
        if hit["hit_ref"] != first["hit_ref"]:
            assert s.post(s.form(ann, hit=hit))[0] in (403, 409)
    # the answered HIT's one assignment is used: nobody else is served it
    served_to_others = {s.next_hit(s.tokens[w])["hit_ref"] for w in ("bob", "eve")}
    assert first["hit_ref"] not in served_to_others
    assert len(s.stored()) == 1


def test_the_queue_holds_under_concurrency(serve):
    s = serve(assignments=1)
    names = ["c%02d" % i for i in range(30)]
    made = dict(tokens.add(s.db, names))
    regular = [h for h in s.hits if h["gold"] == "0"]

    def client(i):       # each asks for a HIT, then posts every HIT of the batch
        token = made[names[i]]
        s.next_hit(token)
        return [s.post(s.form(token, hit=h))[0] for h in regular]
    statuses = [st for out in _together(30, client) for st in out]
    per_hit = s.stored("SELECT hit_ref, COUNT(DISTINCT worker_id) FROM annotations GROUP BY hit_ref")
    assert len(per_hit) == len(regular) and all(n == 1 for _, n in per_hit)
    assert statuses.count(303) == len(regular) and set(statuses) <= {303, 403, 409}
    # one worker hammering /next and submit at once with a cap of 1 stores one answer
    t = serve(per_worker=1, assignments=5)
    ann = t.tokens["ann"]
    out = _together(20, lambda i: t.post(t.form(ann))[0])
    assert out.count(303) == 1 and len(t.stored()) == 1


def test_an_expired_reservation_goes_to_another_worker(tmp_path, record_format_dir):
    s = Served(tmp_path, record_format_dir)
    s.stop()
    from transforms.human_filtering.export import read_hits
    rows, manifest, _ = read_hits(str(tmp_path / "hits"))
    store = Store(str(tmp_path / "q.sqlite"), hits_from_rows(rows, manifest["per_hit"]),
                  QueuePolicy(assignments=1, hold_seconds=60))
    ref, _, _ = store.next_hit("ann", now=1000.0)
    assert store.next_hit("bob", now=1030.0)[0] != ref         # held for ann
    assert store.next_hit("ann", now=1030.0)[0] == ref         # served again on reload
    assert store.next_hit("eve", now=1061.0)[0] == ref         # ann's time ran out: eve's now
    hit = store.hits[ref]
    with pytest.raises(QueueRefused) as late:
        store.save("ann", hit, [], now=1062.0)
    assert late.value.status == 409 and "went to another" in late.value.reason


def _study_answers(s, study, pids, per_worker=3):
    """Participants arriving through the study link (token `study`), each answering what
    it is served; the status of each arrival."""
    codes = []
    for i, pid in enumerate(pids):
        ids = {"PROLIFIC_PID": pid, "SESSION_ID": "%024x" % (i + 1), **STUDY_IDS}
        status, headers, _ = s.request("GET", "/next?" + urllib.parse.urlencode({"token": study, **ids}))
        codes.append(status)
        if status != 303:
            continue
        token = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(headers["location"]).query))["token"]
        for _ in range(per_worker):
            hit = s.next_hit(token, **ids)
            if hit is None:
                break
            assert s.post(s.form(token, hit=hit, **ids))[0] == 303
    return codes


def test_made_up_prolific_ids_count_as_one_worker(tmp_path, record_format_dir):
    s = Served(tmp_path, record_format_dir, cfg=ServeConfig(assignments=2))
    try:
        fake = ["%024x" % (0xabc000 + i) for i in range(5)]
        study = tokens.add(s.db, ["study1"], "study")[0][1]
        assert _study_answers(s, study, fake) == [303] * 5
    finally:
        s.stop()
    assert len({r[0] for r in s.stored()}) == 5
    summary = hv.run(["ingest", "--results", s.db, "--output", str(tmp_path / "v")])
    assert summary["workers"] == 1 and summary["unverified_participants"] == 5
    verdicts = [json.loads(line) for line in open(tmp_path / "v" / "validated.jsonl")]
    assert not [v for v in verdicts if v["valid_for"] == "dev_test"]   # one person never agrees


def test_an_imported_participant_list_refuses_other_ids(tmp_path, record_format_dir):
    s = Served(tmp_path, record_format_dir, cfg=ServeConfig(assignments=2))
    real = ["5f0c1e2d3a4b5c6d7e8f9a0b", "5f0c1e2d3a4b5c6d7e8f9a0c"]
    export = tmp_path / "prolific_export.csv"
    export.write_text("Submission id,Participant id,Status\n" + "".join(
        "sub%d,%s,APPROVED\n" % (i, pid) for i, pid in enumerate(real)))
    try:
        study = tokens.add(s.db, ["study1"], "study")[0][1]
        assert hv.run(["participants", "import", "--db", s.db, "--study", "study1",
                       "--export", str(export)]) == 2
        codes = _study_answers(s, study, real + ["%024x" % 0xbad], per_worker=11)
    finally:
        s.stop()
    assert codes == [303, 303, 403]
    summary = hv.run(["ingest", "--results", s.db, "--output", str(tmp_path / "v")])
    assert summary["workers"] == 2 and summary["unverified_participants"] == 0
    assert any(json.loads(v)["valid_for"] == "dev_test" for v in open(tmp_path / "v" / "validated.jsonl"))


def test_participant_import_errors_are_one_line(tmp_path):
    db = str(tmp_path / "a.sqlite")
    tokens.add(db, ["study1"], "study")
    bad = tmp_path / "x.csv"
    bad.write_text("name,score\nann,3\n")
    run = lambda f: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "beam_pipelines.human_validation", "participants", "import",
         "--db", db, "--study", "study1", "--export", str(f)], capture_output=True, text=True)
    for f, says in ((bad, "no participant id column"), (tmp_path / "none.csv", "no Prolific export")):
        out = run(f)
        assert out.returncode == 1 and says in out.stderr and "Traceback" not in out.stderr


def test_workers_add_prints_the_address_serve_listens_on(tmp_path, record_format_dir):
    s = Served(tmp_path, record_format_dir)
    try:
        from transforms.human_filtering import db as D
        D.set_meta(s.db, "base_url", s.server.url)       # what `serve` records when it starts
        out = subprocess.run([sys.executable, "-m", "beam_pipelines.human_validation", "workers",
                              "add", "zoe", "--db", s.db], capture_output=True, text=True)
        link = out.stdout.split("\t")[1].strip()
        assert link.startswith(s.server.url + "/next?token=")
        assert s.request("GET", urllib.parse.urlsplit(link).path + "?" +
                         urllib.parse.urlsplit(link).query)[0] == 303
    finally:
        s.stop()


def test_an_entity_holding_a_format_character_stays_answerable():
    # an entity the page shows must be answerable whatever it holds: before, U+202E in a
    # name made every answer a 400 ("control character") and /next served the HIT forever
    from transforms.human_filtering import forms
    from transforms.human_filtering.fields import FieldError
    from transforms.human_filtering.store import Hit, Task
    name = "Ali\u202eEvil"
    hit = Hit("hit-1", 0, False, (Task("q1", "p1", [{"start": 4, "end": 12, "text": name}],
                                       {(4, 12): name}),))
    form = {"hit_ref": "hit-1", "query_id": "q1", "answer": name, "answer_start": "4",
            "answer_end": "12"}
    assert forms.answers(form, hit, 1)[0].text == name
    with pytest.raises(FieldError):      # free text still may not carry one
        forms.answers(dict(form, feedback="ok\u202e"), hit, 1)
