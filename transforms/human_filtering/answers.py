"""The validation answers as records, `DIR/validated/answers.jsonl`: what each submission
was to the verdicts, so human performance (paper section 5.2) is measured from them and
`evaluate --human` scores people like a model's predictions.

One line per submission, in the order ingest replayed them:
    id, worker, hit, answer (the clicked entity's text), correct (ingest's match), gold,
    ambiguous, role: verdict (decided the verdict) | heldout (after the `verdict_answers`
    that did: measures human performance only) | repeat | blocked (neither counts),
    rank (1, 2, ... among the query's counted answers; null when not counted),
    needs_more_than_model (the worker's model-in-the-loop judgement; null: none)

The file holds worker ids: it stays with the requester (the release carries only counts).
"""
import json

import fsspec

from transforms.core import io_utils, safejson
from transforms.human_filtering import model_loop
from transforms.human_filtering import worker_quality as Q

FILE = "answers.jsonl"
#: which answer of a query stands for "a person" when people are scored like a model
WHICH = ("heldout", "first")


def records(subs, blocked: set, cfg: Q.QualityConfig, judgements=()) -> list:
    said = {(w, q): n for w, q, n in judgements}
    out = []
    for sub, role, rank in Q.answer_roles(subs, blocked, cfg.verdict_answers):
        counted = rank is not None
        out.append({"id": sub.query_id, "worker": sub.worker_id, "hit": sub.hit_id,
                    "answer": sub.answer, "correct": bool(sub.correct), "gold": bool(sub.gold),
                    "ambiguous": bool(sub.ambiguous), "role": role, "rank": rank,
                    "needs_more_than_model": said.get((sub.worker_id, sub.query_id))
                    if counted else None})
    return out


def add_to_ingest(fs, root: str, results: str, subs, blocked: set, cfg: Q.QualityConfig,
                  verdicts: dict) -> dict:
    """Write answers.jsonl and add the model-in-the-loop flag to each verdict; returns the
    summary's counts."""
    judged = model_loop.read_judgements(results)
    recs = records(subs, blocked, cfg, judged)
    counted = {(r["worker"], r["id"]) for r in recs if r["rank"] is not None}
    loop = model_loop.apply_judgements(verdicts, judged, counted)
    with fs.open(io_utils.join(root, FILE), "w", encoding="utf-8") as f:
        for rec in recs:
            f.write(json.dumps(rec, ensure_ascii=False, sort_keys=True) + "\n")
    return {"verdict_answers": cfg.verdict_answers,
            "heldout_answers": sum(r["role"] == Q.HELDOUT for r in recs), **loop}


def path_of(results: str) -> str | None:
    """answers.jsonl of a validated folder (or beside its validated.jsonl), or the file."""
    if results.endswith(FILE):
        return results
    base = results.rsplit("/", 1)[0] if results.endswith((".jsonl", ".parquet")) else results
    path = io_utils.join(base, FILE)
    return path if io_utils.glob(path) else None


def read(path: str) -> list:
    """The records of an answers.jsonl file (ValueError naming a line that is not one)."""
    out = []
    with fsspec.open(path, "r", encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = safejson.loads(line)
            except ValueError as err:
                raise ValueError("%s line %d: not JSON (%s)" % (path, n, err)) from None
            if not isinstance(rec, dict) or not isinstance(rec.get("id"), str) or \
                    not isinstance(rec.get("answer"), str) or rec.get("role") not in (
                        Q.VERDICT, Q.HELDOUT, Q.REPEAT, Q.BLOCKED):
                raise ValueError("%s line %d: not an answer record of `ingest`" % (path, n))
            out.append(rec)
    return out


def load(results: str, hits_dir: str | None = None,
         cfg: Q.QualityConfig = Q.QualityConfig()) -> list:
    """Answer records from a validated folder / answers.jsonl, or straight from a results
    file (MTurk CSV, the server's SQLite, Label Studio JSON with `hits_dir`), read and
    checked exactly as `ingest` does."""
    path = path_of(results)
    if path:
        return read(path)
    from transforms.human_filtering.ingest import read_results
    subs, _, _ = read_results(results, hits_dir)
    workers, _, _ = Q.check_workers(subs, cfg)
    blocked = {w for w, s in workers.items() if s.blocked_at is not None}
    return records(subs, blocked, cfg, model_loop.read_judgements(results))


def person_answers(recs, which: str = "heldout") -> dict:
    """{query id: the record of a person's answer}: each query's first held-out answer
    (ReCoRD 5.2: an answer that did not decide the verdict), or with `first` its first
    counted answer (before human filtering; on released queries it helped release them)."""
    out, best = {}, {}
    for r in recs:
        if r["rank"] is None or (which == "heldout" and r["role"] != Q.HELDOUT):
            continue
        if r["id"] not in best or r["rank"] < best[r["id"]]:
            best[r["id"]], out[r["id"]] = r["rank"], r
    return dict(sorted(out.items()))
