"""Model in the loop (`serve --show_model_answer`), as Quoref and AdversarialQA put a model
beside the people who write or check items: for a share of HITs, once the worker's own
answers are stored, the server shows the adversary's answer beside theirs and asks a
second, recorded judgement: does the query need more than the model used?

    export  DIR/hits/model_answers.json  {query_id: the adversary's answer} from the kept
            rows' `adversary_prediction`; never in hits.csv nor in any HIT page
    serve   POST /hit/submit of a chosen HIT  -> 303 /hit/<ref>/model (answers stored first)
            GET  /hit/<ref>/model?token=T    the worker's answer beside the model's; 403
                                             until this worker's answers to it are stored
            POST /hit/judge                  needs_more=yes|no per task, stored once (409)
    ingest  validated.jsonl `model_judgements` and `needs_more_than_model` (more than half
            of the counted workers' judgements said yes; null when nobody judged it)

A HIT is chosen when it is not gold, every task has a model answer, and a stable hash of
its ref falls under the share: the same HITs every run.
"""
import datetime
import html
import json
import os
import sqlite3
import urllib.parse

import fsspec
import pyarrow.parquet as pq

from transforms.core import io_utils, safejson
from transforms.core.hashing import stable_hash
from transforms.human_filtering import db as D
from transforms.human_filtering import hits as H
from transforms.human_filtering.fields import FieldError, UserError, shown
from transforms.human_filtering.store import QueueRefused

FILE = "model_answers.json"
CHOICES = {"yes": 1, "no": 0}
JUDGE_FIELDS = ("needs_more",)
QUESTION = "Does filling the @placeholder need more than the model used?"
YES = ("Yes: a reader needs more here (common sense, or several sentences read together); "
       "the model's answer is wrong, or right only by matching words or names")
NO = "No: what the model did is enough to find the answer"


# --- export: the adversary's answers, kept out of the HITs ------------------------------

def model_answers(pattern: str, ids) -> dict:
    """{query id: the adversary's answer} of the kept rows among `ids` (empty when the
    rows carry no `adversary_prediction`, e.g. an export of raw candidates)."""
    ids, out = set(ids), {}
    for path in io_utils.glob(pattern):
        with fsspec.open(path, "rb") as f:
            reader = pq.ParquetFile(f)
            if "adversary_prediction" not in reader.schema_arrow.names:
                continue
            for batch in reader.iter_batches(columns=["id", "adversary_prediction"],
                                             use_threads=False):
                for row in batch.to_pylist():
                    if row["id"] in ids and row["adversary_prediction"]:
                        out[row["id"]] = row["adversary_prediction"]
    return dict(sorted(out.items()))


def write_model_answers(fs, root: str, answers: dict) -> None:
    with fs.open(io_utils.join(root, FILE), "w", encoding="utf-8") as f:
        json.dump(answers, f, ensure_ascii=False, sort_keys=True, indent=0)


def read_model_answers(hits_dir: str) -> dict:
    """The export's model answers; UserError when there are none to show."""
    path = io_utils.join(hits_dir, FILE)
    if not io_utils.glob(path):
        raise UserError("--show_model_answer: %s has no %s: export from DIR/filtered (the "
                        "kept rows carry the adversary's answers)" % (hits_dir, FILE))
    with fsspec.open(path, "r", encoding="utf-8") as f:
        data = safejson.load(f)
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                             for k, v in data.items()):
        raise UserError("%s is not {query_id: answer text}" % path)
    if not data:
        raise UserError("--show_model_answer: %s is empty: the exported rows carry no "
                        "adversary answer" % path)
    return data


def chosen(hit, share: float, answers: dict) -> bool:
    """Whether this HIT shows the model's answer (after the worker's is stored)."""
    return (not hit.gold and all(t.query_id in answers for t in hit.tasks)
            and stable_hash(hit.ref, salt="model-in-the-loop") < share * 2 ** 64)


def check_share(share: float) -> float:
    if not 0.0 < share <= 1.0:
        raise UserError("--model_answer_share must be in (0, 1], got %s" % share)
    return share


# --- the page after the answers are stored ----------------------------------------------

_STYLE = """body { font-family: "Liberation Sans", "DejaVu Sans", Arial, sans-serif;
 max-width: 60em; margin: 1em auto; padding: 0 1em; line-height: 1.5; color: #222; }
.task { border-top: 2px solid #ccc; margin-top: 1em; }
.placeholder { color: #c00; font-weight: bold; }
#confirmation { background: #e6f4e6; border: 1px solid #8b8; padding: .3em .8em; }
.yours { color: #1f6fd1; } .model { color: #8a2be2; } label { display: block; margin: .4em 0; }
button { font-size: 1.1em; padding: .4em 2em; margin: 1em 0; }"""


def stored_answers(db: str, worker: str, hit) -> dict:
    """{query id: answer text} this worker stored for the HIT's queries."""
    ids = [t.query_id for t in hit.tasks]
    with D.reading(db) as con:
        rows = con.execute("SELECT query_id, answer FROM annotations WHERE worker_id = ? AND "
                           "query_id IN (%s)" % ",".join("?" * len(ids)), (worker, *ids))
        return dict(rows.fetchall())


def judged(db: str, worker: str, hit) -> bool:
    ids = [t.query_id for t in hit.tasks]
    with D.reading(db) as con:
        return con.execute("SELECT 1 FROM judgements WHERE worker_id = ? AND query_id IN (%s)"
                           % ",".join("?" * len(ids)), (worker, *ids)).fetchone() is not None


def page(hit, row: dict, per_hit: int, mine: dict, answers: dict, hidden: dict) -> str:
    """The judgement page: each query with the worker's stored answer and the model's."""
    blocks = []
    for sfx, task in zip(H.slot_suffixes(per_hit), hit.tasks):
        name = "needs_more" + sfx
        blocks.append(
            '<section class="task"><p class="query">%s</p>'
            '<p>Your answer: <strong class="yours">%s</strong><br>The model\'s answer: '
            '<strong class="model">%s</strong></p><fieldset><legend>%s</legend>'
            '<label><input type="radio" name="%s" value="yes" required> %s</label>'
            '<label><input type="radio" name="%s" value="no"> %s</label></fieldset>'
            '<details><summary>The passage again</summary><div class="passage">%s</div>'
            '</details></section>' % (
                row["query_html" + sfx], html.escape(mine.get(task.query_id, "")),
                html.escape(answers[task.query_id]), html.escape(QUESTION), name,
                html.escape(YES), name, html.escape(NO), row["passage_html" + sfx]))
    fields = "".join('<input type="hidden" name="%s" value="%s">' % (html.escape(k),
                                                                      html.escape(v))
                     for k, v in {**hidden, "hit_ref": hit.ref}.items())
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>The model\'s '
            'answer</title><style>%s</style></head><body><p id="confirmation" role="status">'
            'Saved: your answers were stored.</p><h1>One more question: a model\'s answer</h1>'
            '<p>A reading model answered the same statement. Your answer is stored and does not '
            'change; please say whether the statement needs more than the model used.</p>'
            '<form id="judge-form" method="post" action="/hit/judge">%s%s<button type="submit" '
            'id="judgeButton">Submit</button></form></body></html>'
            % (_STYLE, fields, "".join(blocks)))


# --- the judgement, checked and stored once ---------------------------------------------

def form_fields(per_hit: int) -> set:
    from transforms.human_filtering.forms import PAGE_FIELDS
    return set(PAGE_FIELDS) | {f + s for s in H.slot_suffixes(per_hit) for f in JUDGE_FIELDS}


def judgements(form: dict, hit, per_hit: int) -> dict:
    """{query id: needs more (bool)} of a judgement form; FieldError when malformed."""
    out = {}
    for sfx, task in zip(H.slot_suffixes(per_hit), hit.tasks):
        value = form.get("needs_more" + sfx, "")
        if value not in CHOICES:
            raise FieldError("needs_more%s must be 'yes' or 'no', got %s" % (sfx, shown(value)))
        out[task.query_id] = bool(CHOICES[value])
    return out


def save(db: str, worker: str, hit, verdicts: dict, answers: dict) -> int:
    """Store a judgement atomically, only after this worker's answers to every query of
    the HIT are stored (else QueueRefused 403). Returns the rows written (0: judged
    before)."""
    stamp = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    written = 0
    with D.writing(db) as con:
        ids = [t.query_id for t in hit.tasks]
        have = {r[0] for r in con.execute(
            "SELECT query_id FROM annotations WHERE worker_id = ? AND query_id IN (%s)"
            % ",".join("?" * len(ids)), (worker, *ids))}
        if have != set(ids):
            raise QueueRefused(403, "answer %s before judging the model's answer" % hit.ref)
        for qid, needs_more in verdicts.items():
            cur = con.execute("INSERT OR IGNORE INTO judgements (worker_id, query_id, hit_ref,"
                              " model_answer, needs_more, submitted_at) VALUES (?,?,?,?,?,?)",
                              (worker, qid, hit.ref, answers[qid], int(needs_more), stamp))
            written += cur.rowcount
    return written


def model_url(ref: str, query: dict) -> str:
    return "/hit/%s/model?%s" % (ref, urllib.parse.urlencode(query))


# --- ingest: one flag per query ---------------------------------------------------------

def read_judgements(results: str) -> list:
    """[(worker as ingest counts them, query id, needs more)] of the server's database;
    empty for other results files or a database without judgements."""
    from transforms.human_filtering.ingest import SQLITE_SUFFIXES, _counted_workers
    if not results.endswith(SQLITE_SUFFIXES) or not os.path.isfile(results):
        return []
    try:
        con = sqlite3.connect("file:%s?mode=ro" % results, uri=True)
        try:
            if "judgements" not in {r[0] for r in con.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'")}:
                return []
            rows = con.execute("SELECT worker_id, query_id, needs_more FROM judgements "
                               "ORDER BY rowid").fetchall()
            counted, _ = _counted_workers(con, {r[0] for r in rows})
        finally:
            con.close()
    except sqlite3.DatabaseError:
        return []
    return [(counted[w], q, bool(n)) for w, q, n in rows]


def apply_judgements(verdicts: dict, judgements: list, counted: set) -> dict:
    """Add `model_judgements` and `needs_more_than_model` to each verdict from the
    judgements of counted answers ((worker, query) pairs); returns the summary's counts."""
    per = {}
    for worker, qid, needs_more in judgements:
        if (worker, qid) in counted:
            per.setdefault(qid, {})[worker] = needs_more   # one per counted worker
    for qid, v in verdicts.items():
        said = list(per.get(qid, {}).values())
        v["model_judgements"] = len(said)
        v["needs_more_than_model"] = (2 * sum(said) > len(said)) if said else None
    return {"model_judgements": sum(len(p) for p in per.values()),
            "model_judged_queries": sum(1 for v in verdicts.values() if v["model_judgements"]),
            "needs_more_than_model": sum(1 for v in verdicts.values()
                                         if v["needs_more_than_model"])}
