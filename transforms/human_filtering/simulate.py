"""Simulated workers: a seeded rehearsal of a validation study through the real server,
over HTTP on 127.0.0.1 only, so the figures ingest and finalize report can be checked
against a known truth before anyone is paid.

Each simulated worker opens its personal link, follows `/next` to its HIT, reads the page
the server sends (each task's query id and clickable entities), clicks an entity, posts
the form as the page would, answers the judgement page of a model-in-the-loop HIT, and
goes on until the end page. Workers take turns, one HIT each, so a run is deterministic.

What a worker clicks, drawn from (seed, worker, query) and so the same every run:
- `accuracy` p: the chance an answer is right (a mention of the reference answer);
- `agreement` a: the chance the worker gives the query's common answer (drawn once per
  query: right with chance p, else the query's one common wrong entity) rather than an
  answer of their own (right with chance p, else a wrong entity of their own). a = 0:
  workers err independently; a = 1: all give the same answer. Either way p holds;
- `unsure`: the chance a wrong answer is ticked "not obvious";
- on the judgement page: "needs more" when the model's answer is not their own.
With `exact_accuracy`, whether an answer is right is no draw but `ExactSchedule`: at each
answer position (a query's 1st, 2nd, 3rd answer), round(p x queries) answers are right,
spread evenly over the queries (and over each class of their earlier answers); agreement
then only picks the entity (the query's common pick or the worker's own).
The truth is one record per answer posted (`right` as the simulator meant it).
"""
import dataclasses
import html
import http.client
import json
import math
import random
import re
import urllib.parse

from transforms.core.config import setting
from transforms.core.hashing import stable_hash
from transforms.core.record_metric import normalize_answer
from transforms.human_filtering import hits as H
from transforms.human_filtering.export import read_hits
from transforms.human_filtering.fields import UserError

LOOPBACK = ("127.0.0.1", "localhost", "::1")
_TASK = re.compile(r'<section class="task" data-suffix="([^"]*)">(.*?)</section>', re.S)
_INPUT = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')
_MODEL = re.compile(r'<strong class="model">(.*?)</strong>', re.S)


@dataclasses.dataclass(frozen=True)
class SimConfig:
    accuracy: float = setting(0.9, "chance a simulated answer is right")
    agreement: float = setting(0.0, "chance a worker gives the query's common answer "
                                    "(0: independent errors; 1: identical answers)")
    unsure: float = setting(0.5, "chance a wrong answer is ticked 'not obvious'")
    seed: int = setting(0, "seed of every draw")
    exact_accuracy: bool = setting(False, "realise --accuracy exactly: at each answer position "
                                          "round(p x queries) answers are right, spread evenly "
                                          "over a hash order of the queries (not drawn)")

    def check(self) -> "SimConfig":
        for name in ("accuracy", "agreement", "unsure"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise UserError("--%s must be in [0, 1], got %s" % (name, getattr(self, name)))
        return self


def _rng(*parts) -> random.Random:
    return random.Random(stable_hash("\x00".join(map(str, parts)), salt="simulate"))


def candidates(spans: dict, references: list) -> tuple:
    """(right, wrong) clickable spans [(start, end, text)] of a task, as ingest scores them:
    right when the span or the normalised text is a reference answer's."""
    ref_spans = {(r["start"], r["end"]) for r in references}
    ref_texts = {normalize_answer(r["text"]) for r in references}
    right, wrong = [], []
    for (start, end), text in sorted(spans.items()):
        ok = (start, end) in ref_spans or normalize_answer(text) in ref_texts
        (right if ok else wrong).append((start, end, text))
    return right, wrong


class ExactSchedule:
    """Right or wrong by (answer position, query), exact over the population of queries:
    at position k the queries are ordered by their earlier answers (right or wrong at
    positions 0..k-1), then by a hash salted by (seed, k), and are right by a Beatty
    sequence along that order: any first m of it hold floor(m p + c) - floor(c) right
    answers (c in [0, 1) from the seed), within 1 of m p; so are all N, and each class of
    earlier answers (a block of the order) holds p of right answers within 2. Human
    filtering keeps a query by its deciding answers, so the held-out answers of the
    queries it keeps are still right p of the time, not p plus that class's luck; the
    stages after it choose without seeing answers, so a released n of the N deviates from
    p as a draw without replacement (sd below sqrt(p(1-p)/n x (N-n)/(N-1))), not as n
    coin flips."""

    def __init__(self, cfg: SimConfig, query_ids):
        self.cfg, self.ids, self.ranks = cfg, sorted(set(query_ids)), {}

    def right(self, position: int, query_id: str) -> bool:
        if position not in self.ranks:
            salt = "\x00".join(map(str, (self.cfg.seed, "order", position)))
            order = sorted(self.ids, key=lambda q: (
                [self.right(k, q) for k in range(position)],
                stable_hash(salt + "\x00" + q, "simulate"), q))
            self.ranks[position] = {q: r for r, q in enumerate(order)}
        r, p = self.ranks[position][query_id], self.cfg.accuracy
        c = _rng(self.cfg.seed, "offset", position).random()
        return math.floor((r + 1) * p + c) > math.floor(r * p + c)


def choose(cfg: SimConfig, worker: str, query_id: str, spans: dict, references: list,
           scheduled: bool | None = None) -> tuple:
    """((start, end, text), right, unsure) of one simulated click; `scheduled`: whether it is
    right by `ExactSchedule` (None: drawn with chance `accuracy`)."""
    right, wrong = candidates(spans, references)
    if not right and not wrong:
        raise UserError("query %s: the page has no entity to click" % query_id)
    mine, common = _rng(cfg.seed, worker, query_id), _rng(cfg.seed, query_id)
    follow, own_right, pick, doubt = (mine.random() < cfg.agreement, mine.random() < cfg.accuracy,
                                      mine.random(), mine.random())
    common_right, common_pick = common.random() < cfg.accuracy, common.random()
    is_right, u = (common_right, common_pick) if follow else (own_right, pick)
    if scheduled is not None:
        is_right = scheduled
    if not wrong:
        is_right = True
    if not right:
        is_right = False
    pool = right if is_right and right else wrong
    entity = pool[min(int(u * len(pool)), len(pool) - 1)]
    return entity, is_right, (not is_right) and doubt < cfg.unsure


class Client:
    """HTTP to the server under rehearsal; refuses any host but the loopback."""

    def __init__(self, base_url: str):
        parts = urllib.parse.urlsplit(base_url)
        if parts.scheme != "http" or parts.hostname not in LOOPBACK:
            raise UserError("simulated workers talk only to a server on 127.0.0.1 "
                            "(http://127.0.0.1:PORT), not %s" % base_url[:80])
        self.host, self.port = parts.hostname, parts.port or 80

    def request(self, method: str, path: str, form: dict | None = None) -> tuple:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            body = urllib.parse.urlencode(form).encode() if form is not None else None
            headers = {"Content-Type": "application/x-www-form-urlencoded"} if form else {}
            conn.request(method, path, body=body, headers=headers)
            resp = conn.getresponse()
            return resp.status, resp.getheader("location", ""), resp.read().decode("utf-8")
        finally:
            conn.close()


def _expect(status: int, want: int, what: str, body: str) -> None:
    if status != want:
        raise UserError("%s: HTTP %d (expected %d): %s" % (what, status, want, body[:200]))


def _form(page: str) -> dict:
    return {html.unescape(k): html.unescape(v) for k, v in _INPUT.findall(page)}


def worker_turns(client: Client, name: str, token: str, refs: dict, cfg: SimConfig,
                 posted=None, schedule: ExactSchedule | None = None):
    """A worker's session: yields the truth records of each HIT it answers, HIT by HIT.
    `posted`: {query id: answers posted so far} shared by the workers (the next answer's
    position, for `schedule`)."""
    posted = {} if posted is None else posted
    status, location, body = client.request("GET", "/next?" + urllib.parse.urlencode(
        {"token": token}))
    while status == 303 and location.startswith("/hit/"):
        status, _, page = client.request("GET", location)
        _expect(status, 200, "GET " + location.split("?")[0], page)
        given = _form(page)
        form = {"token": token, "hit_ref": given["hit_ref"], "time_spent_ms": "31000"}
        done = []
        for sfx, section in _TASK.findall(page):
            qid = given["query_id" + sfx]
            due = schedule.right(posted.get(qid, 0), qid) if schedule else None
            (start, end, text), right, unsure = choose(cfg, name, qid, H.entity_spans(section),
                                                       refs[qid], due)
            form.update({"query_id" + sfx: qid, "answer" + sfx: text,
                         "answer_start" + sfx: str(start), "answer_end" + sfx: str(end),
                         "feedback" + sfx: "not obvious, I guessed" if unsure else ""})
            if unsure:
                form["ambiguous" + sfx] = "on"
            done.append({"worker": name, "query_id": qid, "hit_ref": given["hit_ref"],
                         "answer": text, "start": start, "end": end, "right": right,
                         "ambiguous": unsure, "needs_more_than_model": None})
        status, location, body = client.request("POST", "/hit/submit", form)
        _expect(status, 303, "POST /hit/submit", body)
        if "/model?" in location:
            location = _judge(client, location, done)
        firsts = {}                    # a short last HIT repeats its tasks: one record each
        mine = [firsts.setdefault(r["query_id"], r) for r in done if r["query_id"] not in firsts]
        for r in mine:
            posted[r["query_id"]] = posted.get(r["query_id"], 0) + 1
        yield mine
        status, location, body = client.request("GET", location)
    _expect(status, 200, "GET /next (end page)", body)


def _judge(client: Client, location: str, done: list) -> str:
    """Answer a judgement page (needs more when the model's answer is not mine)."""
    status, _, page = client.request("GET", location)
    _expect(status, 200, "GET " + location.split("?")[0], page)
    form = _form(page)
    models = [html.unescape(m) for m in _MODEL.findall(page)]
    for i, (rec, said) in enumerate(zip(done, models)):
        sfx = "" if len(done) == 1 else "_%d" % (i + 1)
        rec["model_answer"] = said
        rec["needs_more_than_model"] = normalize_answer(said) != normalize_answer(rec["answer"])
        form["needs_more" + sfx] = "yes" if rec["needs_more_than_model"] else "no"
    status, location, body = client.request("POST", "/hit/judge", form)
    _expect(status, 303, "POST /hit/judge", body)
    return location


def run_study(base_url: str, hits_dir: str, workers: dict, cfg: SimConfig = SimConfig()) -> list:
    """Every worker ({name: token}) answers until the queue ends, taking turns; returns the
    truth (one record per answer posted, in posting order)."""
    cfg.check()
    client = Client(base_url)
    rows, manifest, _ = read_hits(hits_dir)
    refs = {row["query_id" + s]: json.loads(row["reference_answers" + s])
            for row in rows for s in H.slot_suffixes(manifest["per_hit"])}
    posted, schedule = {}, ExactSchedule(cfg, refs) if cfg.exact_accuracy else None
    sessions = [worker_turns(client, name, token, refs, cfg, posted, schedule)
                for name, token in workers.items()]
    truth = []
    while sessions:
        for session in list(sessions):
            try:
                truth.extend(next(session))
            except StopIteration:
                sessions.remove(session)
    return truth
