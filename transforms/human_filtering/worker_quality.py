"""Worker quality control and triple validation (paper section 3.4), as pure functions.

Workers are checked against the reference answers every `check_every` submissions and
blocked below `min_accuracy`; a blocked worker's answers do not count and their HITs are
republished. Only each worker's first answer to a query counts, for the checks and the
verdicts alike (a repeated post is neither extra credit nor extra blame). Gold questions
(HITs whose answers the team knows) give each worker a gold accuracy, and a worker below
`min_gold_accuracy` on at least `min_gold_answers` gold answers is blocked too.
Train keeps triples one worker answered correctly; dev/test keeps triples two workers
answered correctly (and nobody answered wrongly). Only the first `verdict_answers` counted
answers of a query (by submission time) decide its verdict; later ones are held out, the
"additional worker answer" ReCoRD measured human performance with (paper section 5.2).
"""
import dataclasses
import re
from typing import Iterable, NamedTuple

from transforms.core.config import setting


@dataclasses.dataclass(frozen=True)
class QualityConfig:
    check_every: int = setting(1000, "submissions between worker accuracy checks (paper: 1000)")
    min_accuracy: float = setting(0.20, "block workers below this accuracy (paper: 20%)")
    min_answers: int = setting(20, "never judge a worker on fewer answers than this")
    check_at_end: bool = setting(True, "also check every worker after the last submission",
                                 cli=False)
    min_gold_accuracy: float = setting(0.5, "block workers below this accuracy on gold "
                                            "questions (not in the paper)")
    min_gold_answers: int = setting(5, "gold answers a worker needs before the gold check")
    train_min_correct: int = setting(1, "correct workers a train triple needs (paper: 1)")
    dev_test_min_correct: int = setting(2, "correct workers a dev/test triple needs (paper: 2)")
    verdict_answers: int = setting(2, "counted answers per query that decide its verdict, by "
                                      "submission time; later ones are held out to measure "
                                      "human performance (paper: 2 decide, a third measures; "
                                      "0: every answer decides)")


class Submission(NamedTuple):
    """One worker's answer to one query (compact: no passage text)."""
    worker_id: str
    query_id: str
    hit_id: str
    correct: bool
    ambiguous: bool
    feedback: str
    gold: bool = False       # a gold question: its reference answer is known to be right
    answer: str = ""         # the clicked entity's text (scored for human performance)


_AMBIGUITY = re.compile(r"\b(ambiguous|ambiguity|more than one|not obvious|unclear|guess(ed)?"
                        r")\b", re.IGNORECASE)


def is_ambiguity_report(flag: bool, feedback: str) -> bool:
    """The worker ticked 'not obvious' or said so in the feedback box."""
    return bool(flag) or bool(_AMBIGUITY.search(feedback or ""))


def block_reason(n_answers: int, n_correct: int, cfg: QualityConfig,
                 n_gold: int = 0, n_gold_correct: int = 0) -> str | None:
    """Why a worker with these counts is blocked at a check (None: keep the worker)."""
    if n_answers >= cfg.min_answers and n_answers > 0:
        accuracy = n_correct / n_answers
        if accuracy < cfg.min_accuracy:
            return "accuracy %.3f < %.2f after %d answers" % (accuracy, cfg.min_accuracy,
                                                                n_answers)
    if n_gold >= cfg.min_gold_answers and n_gold > 0:
        accuracy = n_gold_correct / n_gold
        if accuracy < cfg.min_gold_accuracy:
            return "gold accuracy %.3f < %.2f after %d gold answers" % (
                accuracy, cfg.min_gold_accuracy, n_gold)
    return None


def validation_status(n_answers: int, n_correct: int, cfg: QualityConfig) -> str:
    """'dev_test' (eligible for dev/test, hence also train), 'train' or 'none'."""
    if n_correct >= cfg.dev_test_min_correct and n_correct == n_answers:
        return "dev_test"
    if n_correct >= cfg.train_min_correct:
        return "train"
    return "none"


@dataclasses.dataclass
class WorkerStats:
    submissions: int = 0            # first answers (one per query)
    correct: int = 0
    gold_answers: int = 0
    gold_correct: int = 0
    repeats: int = 0                # later answers to a query already answered: ignored
    blocked_at: int | None = None   # total submissions seen at the check that blocked them
    reason: str | None = None

    @property
    def accuracy(self) -> float:
        return self.correct / self.submissions if self.submissions else 0.0

    @property
    def gold_accuracy(self) -> float | None:
        return self.gold_correct / self.gold_answers if self.gold_answers else None


def first_answers(subs: Iterable[Submission]):
    """(submission, is_first) for each submission: is_first when it is the worker's first
    answer to that query."""
    seen = set()
    for sub in subs:
        key = (sub.worker_id, sub.query_id)
        yield sub, key not in seen
        seen.add(key)


def check_workers(subs: Iterable[Submission], cfg: QualityConfig) -> tuple[dict, int, int]:
    """Replay first answers in order, checking every worker after each `check_every` of
    them (and at the end). Returns ({worker: WorkerStats}, first answers, checks)."""
    stats: dict[str, WorkerStats] = {}
    total = checks = 0

    def check():
        for w in stats.values():
            if w.blocked_at is None:
                w.reason = block_reason(w.submissions, w.correct, cfg,
                                        w.gold_answers, w.gold_correct)
                if w.reason:
                    w.blocked_at = total

    for sub, first in first_answers(subs):
        w = stats.setdefault(sub.worker_id, WorkerStats())
        if not first:
            w.repeats += 1
            continue
        w.submissions += 1
        w.correct += int(sub.correct)
        w.gold_answers += int(sub.gold)
        w.gold_correct += int(sub.gold and sub.correct)
        total += 1
        if total % cfg.check_every == 0:
            checks += 1
            check()
    if cfg.check_at_end and total % cfg.check_every:
        checks += 1
        check()
    return stats, total, checks


#: What each submission is to the verdicts: it decides one, it is held out (it measures
#: human performance only), or it does not count (a repeat, or a blocked worker's).
VERDICT, HELDOUT, REPEAT, BLOCKED = "verdict", "heldout", "repeat", "blocked"


def answer_roles(subs: Iterable[Submission], blocked: set, verdict_answers: int):
    """(submission, role, rank) in order: the first answer of each worker who is not
    blocked counts, ranked 1, 2, ... per query; ranks up to `verdict_answers` (all when 0)
    decide the verdict, later ones are held out. Repeats and blocked workers' answers get
    rank None."""
    seen, ranks = set(), {}
    for sub in subs:
        key = (sub.worker_id, sub.query_id)
        if key in seen:
            yield sub, REPEAT, None
            continue
        seen.add(key)
        if sub.worker_id in blocked:
            yield sub, BLOCKED, None
            continue
        rank = ranks[sub.query_id] = ranks.get(sub.query_id, 0) + 1
        yield sub, (VERDICT if not verdict_answers or rank <= verdict_answers else HELDOUT), rank


def validate_queries(subs: Iterable[Submission], query_ids: Iterable[str], blocked: set,
                     cfg: QualityConfig) -> dict:
    """One verdict per query from the answers of workers not blocked: the first answer of
    each worker counts, repeats are ignored; the first `verdict_answers` decide, later ones
    are held out (`n_heldout`)."""
    def verdict(q):
        return {"id": q, "n_answers": 0, "n_correct": 0, "n_discarded": 0, "n_heldout": 0,
                "ambiguous": False, "feedback": []}

    out = {q: verdict(q) for q in query_ids}
    for sub, role, _ in answer_roles(subs, blocked, cfg.verdict_answers):
        v = out.get(sub.query_id) or out.setdefault(sub.query_id, verdict(sub.query_id))
        if role in (REPEAT, BLOCKED):
            v["n_discarded"] += 1
            continue
        v["ambiguous"] |= sub.ambiguous
        if sub.feedback.strip():
            v["feedback"].append(sub.feedback.strip())
        if role == HELDOUT:
            v["n_heldout"] += 1
            continue
        v["n_answers"] += 1
        v["n_correct"] += int(sub.correct)
    for v in out.values():
        v["valid_for"] = validation_status(v["n_answers"], v["n_correct"], cfg)
    return out


def republish(subs: Iterable[Submission], blocked: set) -> dict:
    """{hit_id: {"assignments": n, "query_ids": [...], "workers": [...]}} for every HIT a
    blocked worker answered: those assignments go back to the pool."""
    out: dict[str, dict] = {}
    seen = set()
    for sub in subs:
        if sub.worker_id not in blocked:
            continue
        h = out.setdefault(sub.hit_id, {"assignments": 0, "query_ids": [], "workers": []})
        if (sub.hit_id, sub.worker_id) not in seen:
            seen.add((sub.hit_id, sub.worker_id))
            h["assignments"] += 1
            h["workers"].append(sub.worker_id)
        if sub.query_id not in h["query_ids"]:
            h["query_ids"].append(sub.query_id)
    return out
