"""Model in the loop (`serve --show_model_answer`) through the real server on 127.0.0.1 and
its SQLite store, on real ReCoRD passages: the adversary's answer is shown only once the
worker's own answer is stored, the second judgement is checked and stored once, ingest
turns it into a per-query flag; off by default."""
import json
import urllib.parse

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from beam_pipelines import human_validation as hv
from tests.human_filtering.test_human_validation import write_record_candidates
from tests.human_filtering.test_hv_server import Served, wrong_entity
from transforms.core.record_metric import normalize_answer
from transforms.core.schema import SCORED_SCHEMA
from transforms.human_filtering import model_loop, mturk, tokens
from transforms.human_filtering.app import ServeConfig
from transforms.human_filtering.fields import UserError
from transforms.human_filtering.server import Server

pytestmark = pytest.mark.fast

LOOP = ServeConfig(show_model_answer=True, model_answer_share=1.0, assignments=3)


def write_kept(record_format_dir, root):
    """The real ReCoRD sample as the filter's kept rows, the adversary's answer a wrong
    entity of each passage (what a kept query usually carries)."""
    rows = write_record_candidates(record_format_dir, root / "candidates")
    scored = [dict(r, adversary_prediction=wrong_entity(r)["text"], adversary_correct=False)
              for r in rows]
    (root / "filtered" / "kept").mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(scored, schema=SCORED_SCHEMA),
                   root / "filtered" / "kept" / "kept-0.parquet")
    return root / "filtered", {r["id"]: r for r in scored}


class Looped(Served):
    """Served, but exported from kept rows that carry the adversary's answers."""

    def __init__(self, tmp, record_format_dir, cfg=LOOP):
        self.tmp, self.db = tmp, str(tmp / "annotations.sqlite")
        filtered, self.scored = write_kept(record_format_dir, tmp)
        self.rows = self.scored
        hv.run(["export", "--filtered", str(filtered), "--output", str(tmp / "hits")])
        self.hits = mturk.read_batch(str(tmp / "hits" / "hits.csv"))
        self.tokens = dict(tokens.add(self.db, ["ann", "bob", "eve"]))
        self.server = Server(str(tmp / "hits"), self.db, cfg=cfg).start()
        self.port = self.server.port


@pytest.fixture
def looped(tmp_path, record_format_dir):
    s = Looped(tmp_path, record_format_dir)
    yield s
    s.stop()


def judge_form(token, hit, value="yes", **extra):
    return {"token": token, "hit_ref": hit["hit_ref"], "needs_more": value, **extra}


def judge(s, form, raw=False):
    body = form if raw else urllib.parse.urlencode(form).encode()
    return s.request("POST", "/hit/judge", body,
                     {"Content-Type": "application/x-www-form-urlencoded"})


def test_the_models_answer_is_shown_only_after_the_workers_answer_is_stored(looped):
    s, ann, bob = looped, looped.tokens["ann"], looped.tokens["bob"]
    hit = s.next_hit(ann)
    said = s.scored[hit["query_id"]]["adversary_prediction"]
    status, _, page = s.request("GET", "/hit/%s?token=%s" % (hit["hit_ref"], ann))
    assert status == 200 and 'class="model"' not in page and "model's answer" not in page
    model = "/hit/%s/model?token=" % hit["hit_ref"]
    status, _, body = s.request("GET", model + ann)             # before the answer is stored
    assert status == 403 and said not in body and "answer %s first" % hit["hit_ref"] in body
    assert judge(s, judge_form(ann, hit))[0] == 403
    assert s.stored("SELECT * FROM judgements") == []

    status, headers, _ = s.post(s.form(ann, hit=hit))           # the answer, stored...
    assert status == 303 and headers["location"].startswith(model)
    assert s.stored() == [("ann", hit["query_id"], s.rows[hit["query_id"]]["answers"][0]["text"])]
    status, _, page = s.request("GET", headers["location"])     # ...then the model's
    assert status == 200 and '<strong class="model">%s</strong>' % said in page
    assert '<strong class="yours">%s</strong>' % s.rows[hit["query_id"]]["answers"][0]["text"] \
        in page
    assert s.request("GET", model + bob)[0] == 403               # bob has not answered it
    assert s.post(s.form(ann, hit=hit, pick="wrong"))[0] == 409   # no changing it now
    assert s.stored()[0][2] == s.rows[hit["query_id"]]["answers"][0]["text"]
    assert s.request("GET", "/hit/%s/model" % hit["hit_ref"])[0] == 401

    # the judgement's fields are checked like the page's
    assert judge(s, judge_form(ann, hit, "maybe"))[0] == 400
    assert judge(s, judge_form(ann, hit, worker_id="bob", extra="1"))[0] == 400
    assert judge(s, b"token=%s&hit_ref=%s&needs_more=yes&needs_more=no" % (
        ann.encode(), hit["hit_ref"].encode()), raw=True)[0] == 400
    assert judge(s, judge_form("", hit))[0] == 401
    assert judge(s, judge_form(bob, hit))[0] == 403
    assert judge(s, judge_form(ann, dict(hit, hit_ref="hit-nothing")))[0] == 404
    big = judge_form(ann, hit, PROLIFIC_PID="x" * 70_000)
    assert judge(s, big)[0] == 413
    status, headers, _ = judge(s, judge_form(ann, hit))
    assert status == 303 and headers["location"].startswith("/next?") and "saved=1" in \
        headers["location"]
    assert judge(s, judge_form(ann, hit, "no"))[0] == 409       # once
    assert s.request("GET", model + ann)[0] == 409
    (stored,) = s.stored("SELECT a.submitted_at <= j.submitted_at, j.model_answer, "
                         "j.needs_more FROM judgements j JOIN annotations a USING "
                         "(worker_id, query_id)")
    assert stored == (1, said, 1)


def test_ingest_turns_the_judgements_into_a_flag_per_query(looped, tmp_path):
    s = looped
    for name, value in (("ann", "yes"), ("bob", "no"), ("eve", "yes")):
        token = s.tokens[name]
        while (hit := s.next_hit(token)) is not None:
            assert s.post(s.form(token, hit=hit))[0] == 303
            assert judge(s, judge_form(token, hit, value))[0] == 303
    hv.run(["workers", "revoke", "eve", "--db", s.db])     # a revoked worker's answers count
    summary = hv.run(["ingest", "--results", s.db, "--output", str(tmp_path / "v")])
    verdicts = [json.loads(line) for line in open(tmp_path / "v" / "validated.jsonl")]
    assert len(verdicts) == len(s.rows)
    assert all((v["model_judgements"], v["needs_more_than_model"]) == (3, True)
               for v in verdicts)                          # two yes of three
    assert (summary["model_judgements"], summary["model_judged_queries"],
            summary["needs_more_than_model"]) == (3 * len(s.rows), len(s.rows), len(s.rows))
    recs = [json.loads(line) for line in open(tmp_path / "v" / "answers.jsonl")]
    assert {(r["worker"], r["role"], r["rank"], r["needs_more_than_model"]) for r in recs} == {
        ("ann", "verdict", 1, True), ("bob", "verdict", 2, False), ("eve", "heldout", 3, True)}

    # one judgement per query: bob's "no" alone decides nothing but its own query
    flags = model_loop.apply_judgements({"q": {}}, [("bob", "q", False)], {("bob", "q")})
    assert flags["needs_more_than_model"] == 0
    v = {"q": {}}
    model_loop.apply_judgements(v, [("ann", "q", True), ("bob", "q", False)],
                                {("ann", "q"), ("bob", "q")})
    assert v["q"] == {"model_judgements": 2, "needs_more_than_model": False}   # a tie
    v = {"q": {}}
    model_loop.apply_judgements(v, [("spam", "q", True)], set())   # not a counted answer
    assert v["q"] == {"model_judgements": 0, "needs_more_than_model": None}


def test_model_in_the_loop_is_off_by_default(tmp_path, record_format_dir):
    s = Looped(tmp_path, record_format_dir, ServeConfig())
    try:
        ann = s.tokens["ann"]
        hit = s.next_hit(ann)
        status, headers, _ = s.post(s.form(ann, hit=hit))
        assert status == 303 and headers["location"].startswith("/next?")
        assert s.request("GET", "/hit/%s/model?token=%s" % (hit["hit_ref"], ann))[0] == 404
        assert judge(s, judge_form(ann, hit))[0] == 404
    finally:
        s.stop()
    answers = json.loads((tmp_path / "hits" / "model_answers.json").read_text())
    assert answers == {q: r["adversary_prediction"] for q, r in s.scored.items()}
    assert "adversary_prediction" not in (tmp_path / "hits" / "hits.csv").read_text()


def test_the_share_picks_the_same_hits_and_never_a_gold_hit(tmp_path, record_format_dir):
    s = Looped(tmp_path, record_format_dir, ServeConfig(show_model_answer=True))
    s.stop()
    hits = list(s.server.store.hits.values())
    answers = json.loads((tmp_path / "hits" / "model_answers.json").read_text())
    half = [h.ref for h in hits if model_loop.chosen(h, 0.5, answers)]
    assert 0 < len(half) < len(hits) and half == [
        h.ref for h in hits if model_loop.chosen(h, 0.5, answers)]
    assert all(model_loop.chosen(h, 1.0, answers) for h in hits)
    gold = hits[0]._replace(gold=True)
    assert not model_loop.chosen(gold, 1.0, answers)
    assert not model_loop.chosen(hits[0], 1.0, {})               # no model answer, no page


def test_serve_needs_the_models_answers_and_a_share(tmp_path, record_format_dir):
    write_record_candidates(record_format_dir, tmp_path / "candidates")   # no adversary here
    hv.run(["export", "--filtered", str(tmp_path / "candidates"), "--output",
            str(tmp_path / "hits")])
    db = str(tmp_path / "a.sqlite")
    tokens.add(db, ["ann"])
    with pytest.raises(UserError, match="model_answers.json is empty"):
        Server(str(tmp_path / "hits"), db, cfg=LOOP)
    with pytest.raises(UserError, match=r"--model_answer_share must be in \(0, 1\]"):
        Server(str(tmp_path / "hits"), db, cfg=ServeConfig(show_model_answer=True,
                                                            model_answer_share=0.0))


def test_simulated_workers_answer_hits_of_several_tasks_and_judge_them(tmp_path,
                                                                       record_format_dir):
    from transforms.human_filtering import simulate
    filtered, scored = write_kept(record_format_dir, tmp_path)
    hv.run(["export", "--filtered", str(filtered), "--output", str(tmp_path / "hits"),
            "--per_hit", "2"])                      # 11 queries: the last HIT repeats one
    db = str(tmp_path / "a.sqlite")
    server = Server(str(tmp_path / "hits"), db, cfg=LOOP).start()
    try:
        truth = simulate.run_study(server.url, str(tmp_path / "hits"),
                                   dict(tokens.add(db, ["s1", "s2"])),
                                   simulate.SimConfig(accuracy=0.5, seed=1))
    finally:
        server.stop()
    assert sorted((t["worker"], t["query_id"]) for t in truth) == sorted(
        (w, q) for w in ("s1", "s2") for q in scored)
    assert all(t["needs_more_than_model"] == (normalize_answer(t["answer"]) !=
                                              normalize_answer(t["model_answer"])) for t in truth)
    summary = hv.run(["ingest", "--results", db, "--output", str(tmp_path / "v")])
    assert summary["submissions"] == 22 and summary["model_judgements"] == 22
    recs = [json.loads(line) for line in open(tmp_path / "v" / "answers.jsonl")]
    said = {(t["worker"], t["query_id"]): t for t in truth}
    assert all(r["correct"] == said[(r["worker"], r["id"])]["right"] for r in recs)
