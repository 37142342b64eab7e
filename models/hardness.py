"""How hard a cloze query is for a shortcut: the passage's entity clusters, its most
frequent entity, and the ReCoRD metric of a prediction (paper section 5.3).

A row carries the passage's entity mentions (text, label) but not the coreference
clusters, so clusters are rebuilt the same way for our rows and for ReCoRD's files:
distinct entity texts, joined when the words of one are all words of the other
("Obama" and "Barack Obama"). The most frequent entity is the cluster with the most
mentions (ties: the earliest first mention); its prediction is its most mentioned text.
The answer "is the most frequent entity" when that cluster holds an answer text.
"""
import statistics

from models.features import answer_texts, candidates, words
from transforms.core.components import index_groups
from transforms.core.record_metric import exact_match_score, f1_score, max_over_golds

MOST_FREQUENT, OTHER = "most_frequent", "other"     # the answer-frequency strata


def alias_clusters(cands: list) -> list:
    """Candidates (models.features.candidates) grouped into clusters, each a list in
    passage order, the clusters ordered by first mention."""
    ws = [frozenset(words(c.text)) for c in cands]
    groups = index_groups(len(cands), lambda i, j: bool(ws[i] and ws[j] and (
        ws[i] <= ws[j] or ws[j] <= ws[i])))
    return sorted(([cands[i] for i in g] for g in groups), key=lambda g: g[0].mentions[0])


def mentions(cluster: list) -> int:
    return sum(len(c.mentions) for c in cluster)


def most_frequent_cluster(cands: list) -> list:
    clusters = alias_clusters(cands)
    return max(clusters, key=lambda g: (mentions(g), -g[0].mentions[0][0]))


def most_frequent_entity(row: dict) -> str:
    """The most-frequent-entity baseline's prediction: the most mentioned text of the most
    mentioned cluster (ties: the earliest)."""
    cluster = most_frequent_cluster(candidates(row))
    return max(cluster, key=lambda c: (len(c.mentions), -c.mentions[0][0])).text


def answer_is_most_frequent(row: dict) -> bool:
    """Whether the answer is the passage's most frequent entity (the shortcut measured)."""
    return bool({c.text for c in most_frequent_cluster(candidates(row))} & answer_texts(row))


def stratum(row: dict) -> str:
    """The answer-frequency stratum the filter's drop sampler balances."""
    return MOST_FREQUENT if answer_is_most_frequent(row) else OTHER


def record_scores(prediction, row: dict) -> tuple:
    """(EM, F1) of the official ReCoRD metric, 0..1; no prediction scores 0."""
    golds = sorted(answer_texts(row))
    if prediction is None or not golds:
        return 0.0, 0.0
    return (max_over_golds(exact_match_score, prediction, golds),
            max_over_golds(f1_score, prediction, golds))


def passage_counts(row: dict) -> tuple:
    """(entity mentions, entity clusters) of the row's passage."""
    cands = candidates(row)
    return sum(len(c.mentions) for c in cands), len(alias_clusters(cands))


def record_reference(record_json: dict) -> dict:
    """The same figures measured on an official ReCoRD JSON file (entity `end` inclusive;
    SuperGLUE lines fit too as {"data": lines}): passages, queries with answers, mean
    mentions and clusters per passage, and the share of answers that are the most
    frequent entity."""
    per_passage, hits, queries = [], 0, 0
    for entry in record_json["data"]:
        text = entry["passage"]["text"]
        ents = [{"start": e["start"], "end": e["end"] + 1, "text": text[e["start"]:e["end"] + 1],
                 "label": ""} for e in entry["passage"]["entities"]]
        base = {"passage": text, "entities": ents}
        per_passage.append(passage_counts(base))
        for qa in entry["qas"]:
            if not qa.get("answers"):
                continue                          # a test file without answers
            queries += 1
            hits += answer_is_most_frequent(dict(base, answers=qa.get("answers", [])))
    return {"passages": len(per_passage), "queries": queries,
            "entities_per_passage": round(float(statistics.mean(m for m, _ in per_passage)), 1)
            if per_passage else None,
            "clusters_per_passage": round(float(statistics.mean(c for _, c in per_passage)), 1)
            if per_passage else None,
            "most_frequent_share": round(hits / queries, 3) if queries else None}
