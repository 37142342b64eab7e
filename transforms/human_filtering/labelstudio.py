"""Label Studio: the triples as span-selection tasks, and its JSON export read back.

Each task shows the passage (`text`) and the query; the page's clickable entities come as
a prediction of `Entity` spans (text, start, end, labels), and the annotator labels the
answer `Answer` (one span), may tick `not obvious` and write feedback. Reference answers
and gold flags stay out of the tasks: ingest takes them from the export's hits.csv.
"""
import json

import fsspec

from transforms.core import safejson
from transforms.human_filtering import hits as H
from transforms.human_filtering import mturk
from transforms.human_filtering import results_check as R
from transforms.human_filtering.fields import UserError

CONFIG = """<View>
  <Header value="Find the entity that fits the @placeholder"/>
  <Text name="query" value="$query"/>
  <Labels name="answer" toName="text" choice="single">
    <Label value="Answer" background="#1f6fd1"/>
    <Label value="Entity" background="#d9ecff"/>
  </Labels>
  <Text name="text" value="$text"/>
  <Choices name="ambiguous" toName="text">
    <Choice value="not obvious" hint="More than one entity fits, or I guessed"/>
  </Choices>
  <TextArea name="feedback" toName="text" placeholder="Feedback (optional)"/>
</View>
"""


def task(row: dict, hit_ref: str) -> dict:
    """One Label Studio task of a query row."""
    spans = H.entity_spans(H.render_passage_html(row["passage"], row["entities"]))
    regions = [{"id": "e%d" % i, "from_name": "answer", "to_name": "text", "type": "labels",
                "value": {"start": s, "end": e, "text": t, "labels": ["Entity"]}}
               for i, ((s, e), t) in enumerate(sorted(spans.items()))]
    return {"data": {"text": row["passage"], "query": row["query"], "query_id": row["id"],
                     "hit_ref": hit_ref},
            "predictions": [{"model_version": "entities", "result": regions}]}




def _answer(results):
    """(text, start, end) of the one `Answer` span (whitespace trimmed), or None."""
    spans = [r["value"] for r in results if r.get("type") == "labels"
             and r.get("from_name") == "answer" and "Answer" in r["value"].get("labels", [])]
    if len(spans) != 1:
        return None, len(spans)
    value = spans[0]
    text = str(value.get("text") or "")
    lead = len(text) - len(text.lstrip())
    start = value.get("start") if isinstance(value.get("start"), int) else None
    text = text.strip()
    if start is None:
        return (text, None, None), 1
    return (text, start + lead, start + lead + len(text)), 1


def _extras(results):
    ambiguous = any(r.get("from_name") == "ambiguous" and r["value"].get("choices")
                    for r in results)
    feedback = " ".join(t for r in results if r.get("from_name") == "feedback"
                        for t in r["value"].get("text", []))
    return ambiguous, feedback


def read_export(path: str, index: dict, records: dict = None, rejected: list = None) -> tuple:
    """(submissions in creation order, query ids, counters) of a Label Studio JSON export;
    `index` is {query_id: (hit_ref, reference_answers, spans, gold)} from the hits. With
    `records` (results_check.hit_records) a task whose `hit_ref` or `query` differs from
    its HIT's is rejected by name into `rejected`. A user is one worker whatever shape
    `completed_by` takes (results_check.worker_of)."""
    rejected = [] if rejected is None else rejected
    try:
        with fsspec.open(path, "r", encoding="utf-8") as f:
            data = safejson.load(f)
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise UserError("%s is not JSON (%s)" % (path, err)) from None
    if not isinstance(data, list) or not all(isinstance(t, dict) for t in data):
        raise UserError("%s is not a Label Studio JSON export (a list of tasks)" % path)
    counts = {"rejected_assignments": 0, "unanswered": 0, "not_an_entity": 0,
              "unknown_query": 0, "multiple_answers": 0}
    timed, seen = [], []
    names = R.worker_names(data)
    for n, task_ in enumerate(data):
        qid = (task_.get("data") or {}).get("query_id")
        if qid not in index:
            counts["unknown_query"] += 1
            continue
        if records is not None and _task_rejected(task_, n, qid, records, names, rejected):
            continue
        seen.append(qid)
        hit_ref, refs, spans, gold = index[qid]
        for ann in task_.get("annotations") or []:
            if ann.get("was_cancelled"):
                counts["rejected_assignments"] += 1
                continue
            results = ann.get("result") or []
            answer, n = _answer(results)
            if answer is None:
                counts["multiple_answers" if n > 1 else "unanswered"] += 1
                continue
            ambiguous, feedback = _extras(results)
            sub = mturk.submission(R.worker_of(ann.get("completed_by"), names), qid, hit_ref, refs,
                                   spans, answer[0], answer[1], answer[2],
                                   "on" if ambiguous else "", feedback, gold, counts)
            timed.append((str(ann.get("created_at") or ""), ann.get("id") or 0, sub))
    timed.sort(key=lambda t: (t[0], t[1]))
    counts["rejected_results"] = len(rejected)
    return [t[2] for t in timed], list(dict.fromkeys(seen)), counts


def _task_rejected(task_, n, qid, records, names, rejected) -> bool:
    """A task whose copy of its HIT (`hit_ref`, `query`) differs from the HIT's: rejected
    by name, every annotation of it (one line)."""
    data = task_.get("data") or {}
    problem = R.task_problem(data.get, "", qid, records)
    if not problem:
        return False
    workers = sorted({R.worker_of(a.get("completed_by"), names)
                      for a in task_.get("annotations") or []})
    rejected.append(R.Rejection(f"task {n + 1}", "", " ".join(workers), str(data.get("hit_ref")),
                                qid, *problem))
    return True
