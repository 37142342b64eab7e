"""The official ReCoRD v1.0 metric (paper section 5.3), as pure functions.

Same rules as the official script: lowercase, strip ASCII punctuation, drop a/an/the,
collapse whitespace; EM and bag-of-tokens F1 are each the maximum over the gold
answer texts; a query without a prediction scores 0. `evaluate` reports x100.
"""
import collections
import random
import re
import string

from transforms.core.hashing import stable_hash

_PUNCT = frozenset(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")


def normalize_answer(text: str) -> str:
    text = "".join(ch for ch in text.lower() if ch not in _PUNCT)
    return " ".join(_ARTICLES.sub(" ", text).split())


def exact_match_score(prediction: str, gold: str) -> float:
    return float(normalize_answer(prediction) == normalize_answer(gold))


def f1_score(prediction: str, gold: str) -> float:
    pred_tokens = normalize_answer(prediction).split()
    gold_tokens = normalize_answer(gold).split()
    same = sum((collections.Counter(pred_tokens) & collections.Counter(gold_tokens)).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred_tokens), same / len(gold_tokens)
    return 2 * precision * recall / (precision + recall)


def max_over_golds(metric, prediction: str, golds) -> float:
    return max(metric(prediction, gold) for gold in golds)


def evaluate(gold: dict, predictions: dict) -> dict:
    """`gold` maps query id to its answer texts; `predictions` maps query id to a string."""
    unanswerable = [qid for qid, golds in gold.items() if not golds]
    if unanswerable:
        raise ValueError(f"{len(unanswerable)} queries have no gold answers "
                         f"(first: {unanswerable[0]}); a test file without answers?")
    em = f1 = 0.0
    answered = 0
    for qid, golds in gold.items():
        if qid not in predictions:
            continue
        answered += 1
        em += max_over_golds(exact_match_score, predictions[qid], golds)
        f1 += max_over_golds(f1_score, predictions[qid], golds)
    total = len(gold)
    return {"exact_match": 100.0 * em / total if total else 0.0,
            "f1": 100.0 * f1 / total if total else 0.0,
            "total": total, "answered": answered}


# --- the file formats the evaluator reads -------------------------------------------

def gold_from_record_json(obj: dict) -> dict:
    """{query id: [answer texts]} from the official ReCoRD JSON (`{"version", "data"}`)."""
    return {qa["id"]: [a["text"] for a in qa.get("answers", [])]
            for entry in obj["data"] for qa in entry["qas"]}


def candidates_from_record_json(obj: dict) -> dict:
    """{query id: passage entity texts in passage order}; the ReCoRD `end` is inclusive."""
    out = {}
    for entry in obj["data"]:
        text = entry["passage"]["text"]
        mentions = [text[e["start"]:e["end"] + 1] for e in entry["passage"]["entities"]]
        for qa in entry["qas"]:
            out[qa["id"]] = mentions
    return out


def gold_from_superglue(lines) -> dict:
    """{str(qas idx): [answer texts]} from SuperGLUE ReCoRD lines (test lines have none)."""
    return {str(qa["idx"]): [a["text"] for a in qa.get("answers", [])]
            for line in lines for qa in line["qas"]}


def candidates_from_superglue(lines) -> dict:
    out = {}
    for line in lines:
        text = line["passage"]["text"]
        mentions = [text[e["start"]:e["end"] + 1] for e in line["passage"]["entities"]]
        for qa in line["qas"]:
            out[str(qa["idx"])] = mentions
    return out


# --- baselines (paper Table 4: random guess 18.41 dev / 18.55 test EM) ---------------

def _distinct(mentions):
    return list(dict.fromkeys(mentions))


def random_entity_predictions(candidates: dict, seed: int = 0) -> dict:
    """One distinct passage entity per query, drawn uniformly; stable per (seed, query id)."""
    out = {}
    for qid, mentions in candidates.items():
        choices = _distinct(mentions)
        if choices:
            out[qid] = random.Random(stable_hash(qid, salt=f"random-baseline-{seed}")).choice(choices)
    return out


def expected_random_scores(candidates: dict, gold: dict) -> dict:
    """The random baseline's expected EM and F1 (x100), averaged over every draw."""
    em = f1 = 0.0
    for qid, golds in gold.items():
        choices = _distinct(candidates.get(qid, []))
        if choices:
            em += sum(max_over_golds(exact_match_score, c, golds) for c in choices) / len(choices)
            f1 += sum(max_over_golds(f1_score, c, golds) for c in choices) / len(choices)
    total = len(gold)
    return {"exact_match": 100.0 * em / total if total else 0.0,
            "f1": 100.0 * f1 / total if total else 0.0}


def first_entity_predictions(candidates: dict) -> dict:
    return {qid: mentions[0] for qid, mentions in candidates.items() if mentions}
