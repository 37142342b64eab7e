"""The annotation server against hostile and honest clients: the real uvicorn server on
127.0.0.1 (a free port), real SQLite, real ReCoRD passages. Each attack of issue 13 has a
test showing what it now gets."""
import http.client
import json
import logging
import socket
import sqlite3
import threading
import urllib.parse

import pytest

from beam_pipelines import human_validation as hv
from tests.human_filtering.test_human_validation import write_record_candidates
from transforms.human_filtering import mturk, tokens
from transforms.human_filtering.app import ServeConfig
from transforms.human_filtering.server import Server

pytestmark = pytest.mark.fast   # unit tests: `python -m pytest -q -m fast`


# --- helpers ----------------------------------------------------------------------------

class Served:
    """An export of the real ReCoRD sample, its workers, and the server running on it."""

    def __init__(self, tmp, record_format_dir, cfg=ServeConfig(), export_flags=()):
        self.tmp, self.db = tmp, str(tmp / "annotations.sqlite")
        rows = write_record_candidates(record_format_dir, tmp / "candidates")
        self.rows = {r["id"]: r for r in rows}
        hv.run(["export", "--filtered", str(tmp / "candidates"), "--output", str(tmp / "hits"),
                *export_flags])
        self.hits = mturk.read_batch(str(tmp / "hits" / "hits.csv"))
        self.tokens = dict(tokens.add(self.db, ["ann", "bob", "eve"]))
        self.admin = tokens.add(self.db, ["boss"], "admin")[0][1]
        self.server = Server(str(tmp / "hits"), self.db, cfg=cfg).start()
        self.port = self.server.port

    def request(self, method, path, body=None, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            resp = conn.getresponse()
            return resp.status, dict(resp.getheaders()), resp.read().decode("utf-8", "replace")
        finally:
            conn.close()

    def post(self, form, headers=None):
        body = urllib.parse.urlencode(form).encode() if isinstance(form, dict) else form
        return self.request("POST", "/hit/submit", body, {
            "Content-Type": "application/x-www-form-urlencoded", **(headers or {})})

    def raw(self, data: bytes) -> bytes:
        """Bytes sent as they are (no client library to fix them), the whole reply read."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=30) as sock:
            sock.sendall(data)
            out = b""
            while chunk := sock.recv(65536):
                out += chunk
        return out

    def next_hit(self, token, **params):
        """The HIT /next serves (and reserves for) this token's worker, or None."""
        status, headers, _ = self.request("GET", "/next?" + urllib.parse.urlencode(
            {"token": token, **params}))
        if status != 303:
            return None
        ref = urllib.parse.urlsplit(headers["location"]).path.rsplit("/", 1)[1]
        return next(h for h in self.hits if h["hit_ref"] == ref)

    def form(self, token, hit=None, pick="right", **extra):
        """A page's form for `hit` (default: the HIT /next serves this token, else the
        first HIT) answered with a right or a wrong entity."""
        hit = hit or self.next_hit(token) or self.hits[0]
        row = self.rows[hit["query_id"]]
        ent = row["answers"][0] if pick == "right" else wrong_entity(row)
        return {"token": token, "hit_ref": hit["hit_ref"], "query_id": hit["query_id"],
                "answer": ent["text"], "answer_start": str(ent["start"]),
                "answer_end": str(ent["end"]), "feedback": "", "time_spent_ms": "31000",
                "assignmentId": "", **extra}

    def stored(self, sql="SELECT worker_id, query_id, answer FROM annotations ORDER BY id"):
        with sqlite3.connect(self.db) as con:
            return con.execute(sql).fetchall()

    def stop(self):
        self.server.stop()


def wrong_entity(row):
    texts = {a["text"] for a in row["answers"]}
    return next(e for e in row["entities"] if e["text"] not in texts)


@pytest.fixture
def served(tmp_path, record_format_dir):
    s = Served(tmp_path, record_format_dir)
    yield s
    s.stop()


def form_post(path: str, body: bytes, extra: bytes = b"") -> bytes:
    return (b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n%s"
            b"Content-Length: %d\r\n\r\n%s" % (path.encode(), extra, len(body), body))


def status_of(reply: bytes) -> int:
    return int(reply.split(b" ", 2)[1])


# --- access: tokens ---------------------------------------------------------------------

def test_submissions_need_a_token_and_the_worker_is_the_tokens(served):
    # attack: 70 wrong answers posted under an honest worker's id, from anyone on the port
    ann, eve = served.tokens["ann"], served.tokens["eve"]
    assert served.post(served.form("", pick="wrong", worker_id="ann"))[0] == 401
    assert served.post(served.form("not-a-token", pick="wrong", worker_id="ann"))[0] == 403
    status, headers, _ = served.post(served.form(eve, pick="wrong", worker_id="ann"))
    assert status == 303 and headers["location"].startswith("/next?")
    assert served.stored() == [("eve", served.hits[0]["query_id"],
                                wrong_entity(served.rows[served.hits[0]["query_id"]])["text"])]
    # one person, one token: the same person posting again is the same worker (409)
    assert served.post(served.form(eve, hit=served.hits[0], worker_id="eve-second-id"))[0] == 409
    assert served.post(served.form(served.admin))[0] == 403       # admins do not answer
    assert served.post(served.form(ann))[0] == 303
    hv.run(["workers", "revoke", "ann", "--db", served.db])
    assert served.post(served.form(ann, hit=served.hits[1]))[0] == 403
    assert served.request("GET", "/next?token=" + ann)[0] == 403
    assert served.request("GET", "/hit/%s" % served.hits[0]["hit_ref"])[0] == 401
    assert [r[0] for r in served.stored()] == ["eve", "ann"]


def test_requester_views_need_the_admin_token(served):
    ann = served.tokens["ann"]
    # ids must be printable ids: a formula as worker id is refused (and never used anyway)
    assert served.post(served.form(ann, worker_id="=HYPERLINK(\"http://x\")"))[0] == 400
    assert served.post(served.form(ann))[0] == 303
    assert served.request("GET", "/admin/progress")[0] == 401
    assert served.request("GET", "/admin/progress?token=" + ann)[0] == 403
    assert served.request("GET", "/admin/results.csv",
                          headers={"Authorization": "Bearer " + ann})[0] == 403
    status, _, body = served.request("GET", "/admin/progress",
                                     headers={"Authorization": "Bearer " + served.admin})
    progress = json.loads(body)
    assert status == 200 and progress["answers"] == 1 and progress["hits"] == len(served.hits)
    assert progress["workers"]["ann"]["correct"] == 1
    status, headers, body = served.request("GET", "/admin/results.csv?token=" + served.admin)
    assert status == 200 and headers["content-type"].startswith("text/csv")
    assert body.splitlines()[1].startswith("ann,%s," % served.hits[0]["hit_ref"])


def test_tokens_are_stored_hashed_and_never_logged(served, caplog):
    caplog.set_level(logging.DEBUG)
    ann = served.tokens["ann"]
    served.request("GET", "/next?token=" + ann)
    served.post(served.form(ann))
    served.post(served.form(ann, feedback="x" * 3000))
    served.request("GET", "/admin/progress?token=" + served.admin)
    served.request("GET", "/next?token=" + ann[:-1] + "A")
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "GET /next 303" in logged and "POST /hit/submit 400" in logged
    for token in list(served.tokens.values()) + [served.admin]:
        assert token not in logged and token[:12] not in logged
    with open(served.db, "rb") as f:
        raw = f.read()
    hashes = [r[0] for r in served.stored("SELECT token_sha256 FROM workers")]
    assert all(len(h) == 64 for h in hashes)
    assert not any(t.encode() in raw for t in served.tokens.values())


# --- limits and validation --------------------------------------------------------------

def test_a_body_over_the_limit_gets_413_unread(served):
    # a 50 MB body: only the head is sent, and the 413 comes back without waiting for it
    reply = served.raw(b"POST /hit/submit HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                       b"application/x-www-form-urlencoded\r\nContent-Length: 52428800\r\n\r\n")
    assert status_of(reply) == 413 and b"at most 65536" in reply
    # a 10 MB worker id in the form: the same
    size = len(urllib.parse.urlencode(served.form(served.tokens["ann"],
                                                  worker_id="w" * (10 << 20))))
    reply = served.raw(b"POST /hit/submit HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                       b"application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n" % size)
    assert status_of(reply) == 413
    # no Content-Length (chunked): read up to the limit, then 413
    chunk = b"%x\r\n%s\r\n" % (70_000, b"a" * 70_000)
    reply = served.raw(b"POST /hit/submit HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                       b"application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked"
                       b"\r\n\r\n" + chunk + b"0\r\n\r\n")
    assert status_of(reply) == 413
    assert served.stored() == []


def test_malformed_input_gets_400_and_a_log_line_never_a_dropped_connection(served, caplog):
    caplog.set_level(logging.INFO)
    ann = served.tokens["ann"]
    good = urllib.parse.urlencode(served.form(ann)).encode()
    cases = {
        "bad UTF-8 body": form_post("/hit/submit", b"token=" + b"\xff\xfe" * 8),
        "bad percent-encoding": form_post("/hit/submit", b"token=%FF%FE"),
        "Content-Length abc": b"POST /hit/submit HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                              b"Content-Type: application/x-www-form-urlencoded\r\n"
                              b"Content-Length: abc\r\n\r\n" + good,
        "not a form": form_post("/hit/submit", good).replace(
            b"application/x-www-form-urlencoded", b"application/json"),
        "unknown field": form_post("/hit/submit", good + b"&is_admin=1"),
        "repeated field": form_post("/hit/submit", good + b"&answer=Obama"),
        "non-ASCII path": b"GET /hit/\xff\xfe HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          b"Connection: close\r\n\r\n",
    }
    for name, data in cases.items():
        assert status_of(served.raw(data)) == 400, name
    fields = {"feedback": "x" * 2001, "answer_start": "12abc", "answer_end": "-4",
              "assignmentId": "A\x00B", "PROLIFIC_PID": "=cmd|' /C calc'!A0",
              "time_spent_ms": "9" * 40, "ambiguous": "maybe", "hit_ref": "hit-nope"}
    for key, value in fields.items():
        status, _, body = served.post(served.form(ann, **{key: value}))
        assert status == 400, (key, body)
    status, _, body = served.post(served.form(ann, feedback="fine\x00"))
    assert status == 400 and "control character" in body
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) >= len(cases) + len(fields) + 1
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert served.stored() == []
    assert served.post(served.form(ann, feedback="x" * 2000))[0] == 303   # still serving


def test_an_answer_must_be_one_of_the_hits_entities(served):
    ann = served.tokens["ann"]
    hit, other = served.hits[0], served.hits[1]
    row = served.rows[hit["query_id"]]
    ent = row["entities"][0]
    cases = {
        "free text": {"answer": "Anything I like", "answer_start": "0", "answer_end": "15"},
        "entity text, other offsets": {"answer": ent["text"], "answer_start": "1",
                                       "answer_end": str(1 + len(ent["text"]))},
        "entity offsets, other text": {"answer": "Nobody", "answer_start": str(ent["start"]),
                                       "answer_end": str(ent["end"])},
        "no answer": {"answer": ""},
        "query of another HIT": {"query_id": other["query_id"]},
    }
    for name, change in cases.items():
        status, _, body = served.post({**served.form(ann), **change})
        assert status == 400, name
    assert served.stored() == []
    status, _, _ = served.post({**served.form(ann), "answer": ent["text"],
                                "answer_start": str(ent["start"]), "answer_end": str(ent["end"])})
    assert status == 303 and served.stored()[0][2] == ent["text"]


# --- exactly once, and many clients -----------------------------------------------------

def _together(n, work):
    """Run `work(i)` on n threads released at once; their results."""
    barrier, out = threading.Barrier(n), [None] * n

    def run(i):
        barrier.wait()
        try:
            out[i] = work(i)
        except Exception as err:        # a reset or refused connection shows up here
            out[i] = repr(err)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def test_concurrent_duplicates_store_one_row(served):
    form = served.form(served.tokens["ann"])
    statuses = _together(50, lambda i: served.post(form)[0])
    assert sorted(statuses) == [303] + [409] * 49
    assert len(served.stored()) == 1
    with sqlite3.connect(served.db) as con, pytest.raises(sqlite3.IntegrityError):
        con.execute("INSERT INTO annotations (assignment_id, hit_ref, worker_id, query_id,"
                    " answer, submitted_at) VALUES ('a', 'h', 'ann', ?, 'x', 'now')",
                    (form["query_id"],))


def test_200_concurrent_clients_are_all_answered(tmp_path, record_format_dir):
    s = Served(tmp_path, record_format_dir, cfg=ServeConfig(assignments=20))
    names = ["w%03d" % i for i in range(200)]
    made = dict(tokens.add(s.db, names))
    try:
        assert _together(200, lambda i: s.post(s.form(made[names[i]]))[0]) == [303] * 200
        per_hit = s.stored("SELECT hit_ref, COUNT(*) FROM annotations GROUP BY hit_ref")
        assert sum(n for _, n in per_hit) == 200 and max(n for _, n in per_hit) <= 20
    finally:
        s.stop()


# --- progress, gold questions, Prolific -------------------------------------------------

def _walk(s, token, limit=50):
    """Answer every HIT the server hands this worker (right answers); the (n, of, gold)
    of each and the final page."""
    seen, gold = [], {h["hit_ref"] for h in s.hits if h["gold"] == "1"}
    path = "/next?token=" + token
    for _ in range(limit):
        status, headers, body = s.request("GET", path)
        if status == 200:
            return seen, body
        assert status == 303
        url = urllib.parse.urlsplit(headers["location"])
        q = dict(urllib.parse.parse_qsl(url.query))
        ref = url.path.rsplit("/", 1)[1]
        seen.append((int(q["n"]), int(q["of"]), ref in gold))
        hit = next(h for h in s.hits if h["hit_ref"] == ref)
        extra = {k: q[k] for k in tokens.PROLIFIC_PARAMS if k in q}
        status, headers, _ = s.post(s.form(q["token"], hit=hit, **extra))
        assert status == 303 and "saved=1" in headers["location"]
        path = headers["location"]
    raise AssertionError("the queue did not end")


def test_progress_and_gold_questions_mixed_into_each_queue(tmp_path, record_format_dir):
    s = Served(tmp_path, record_format_dir, export_flags=("--gold_share", "0.2"))
    try:
        gold = [h for h in s.hits if h["gold"] == "1"]
        assert len(gold) == 2 and len(s.hits) == 11
        seen, last = _walk(s, s.tokens["ann"])
        assert [n for n, _, _ in seen] == list(range(1, 12))
        assert {of for _, of, _ in seen} == {11}
        assert [n for n, _, g in seen if g] == [5, 10]        # every fifth HIT is gold
        assert 'id="done"' in last and "Saved" in last
        # bob gets the gold HITs too (any number of workers), but no regular HIT is left
        seen, _ = _walk(s, s.tokens["bob"])
        assert seen == []
        progress = json.loads(s.request("GET", "/admin/progress?token=" + s.admin)[2])
        assert progress["workers"]["ann"]["gold_answers"] == 2
        assert progress["workers"]["ann"]["gold_accuracy"] == 1.0
    finally:
        s.stop()


def test_prolific_participants_end_on_the_completion_link(tmp_path, record_format_dir):
    s = Served(tmp_path, record_format_dir, cfg=ServeConfig(per_worker=3),
               export_flags=("--prolific_completion_code", "C1A2B3"))
    try:
        study = tokens.add(s.db, ["study1"], "study")[0][1]
        link = tokens.link("http://127.0.0.1:8000", "study", study)
        assert link.endswith("&PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}"
                             "&SESSION_ID={{%SESSION_ID%}}")
        ids = {"PROLIFIC_PID": "5f0c1e2d3a4b5c6d7e8f9a0b", "STUDY_ID": "60aa11bb22cc33dd44ee55ff",
               "SESSION_ID": "61bb22cc33dd44ee55ff6600"}
        assert s.request("GET", "/next?token=" + study)[0] == 400     # no Prolific ids
        status, headers, _ = s.request("GET", "/next?" + urllib.parse.urlencode(
            {"token": study, **ids}))
        assert status == 303
        personal = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(
            headers["location"]).query))
        assert personal["token"] != study and personal["PROLIFIC_PID"] == ids["PROLIFIC_PID"]
        seen, last = _walk(s, personal["token"] + "&" + urllib.parse.urlencode(ids))
        assert [(n, of) for n, of, _ in seen] == [(1, 3), (2, 3), (3, 3)]
        assert "https://app.prolific.com/submissions/complete?cc=C1A2B3" in last
        assert 'http-equiv="refresh"' in last
        assert {r[0] for r in s.stored()} == {"study1:" + ids["PROLIFIC_PID"]}
        # someone else typing that PROLIFIC_PID into the study link, from another session
        other = {**ids, "SESSION_ID": "ffffffffffffffffffffffff"}
        assert s.request("GET", "/next?" + urllib.parse.urlencode(
            {"token": study, **other}))[0] == 403
        form = s.form(personal["token"], hit=s.hits[5], **other)
        assert s.post(form)[0] == 403
    finally:
        s.stop()
