"""One name and one definition per baseline, shared by `evaluate --baseline NAME`, the
hardness report (stats.json `hardness`) and the dataset card, so that a name means the same
prediction rule wherever it is printed.

`evaluate` offers the baselines that need no training (`in_evaluate`); the hardness report
scores `most_frequent` and the trained / model baselines. The same name on the card and in
`evaluate` gives the same predictions on the same file (tests/finalize/test_evaluate.py checks it on
a release's dev split).
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Baseline:
    label: str              # what the card's tables print
    definition: str         # what it predicts, in one sentence
    in_evaluate: bool       # `evaluate --baseline NAME` offers it
    in_report: bool         # the hardness report (stats.json, the card) scores it


CATALOG = {
    "random": Baseline(
        "random entity",
        "a distinct entity text of the passage drawn uniformly, seeded per (seed, query id): "
        "the paper's Random Guess", True, False),
    "first_entity": Baseline(
        "first entity", "the passage's first entity mention", True, False),
    "most_frequent": Baseline(
        "most frequent entity",
        "the passage's most mentioned entity, an entity being its alias texts counted "
        "together (texts joined when the words of one are all words of the other; ties: "
        "the earliest first mention); it predicts that entity's most mentioned text "
        "(models.hardness.most_frequent_entity); no training", True, True),
    "query_only": Baseline(
        "query only",
        "a linear ranker over the query and the passage's entity list (type beside the "
        "placeholder's words, word overlap), never the passage; trained on released train",
        False, True),
    "passage_only": Baseline(
        "passage only",
        "a linear ranker over mention counts, alias cluster size, highlights, first position "
        "and type, never the query; trained on released train", False, True),
    "reader": Baseline(
        "held-out reader",
        "frozen all-MiniLM-L6-v2: each candidate fills the placeholder and the filled query "
        "closest (cosine) to a passage sentence wins; never trained, never an adversary (the "
        "release rule restates_passage, when on, reads the same encoder)",
        False, True),
}
EVALUATE = tuple(name for name, b in CATALOG.items() if b.in_evaluate)
REPORT = tuple(name for name, b in CATALOG.items() if b.in_report)


def definitions(names) -> dict:
    """{name: definition} for stats.json."""
    return {n: CATALOG[n].definition for n in names if n in CATALOG}


def label(name: str) -> str:
    return CATALOG[name].label if name in CATALOG else name
