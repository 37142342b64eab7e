"""What every reader scores: the candidate entities of a cloze query, and the lexical
features of the cheap ranker.

Cloze setting (ReCoRD section 5): candidates are the distinct entity texts of the passage;
a prediction is correct when its text is one of the answer cluster's mention texts.
"""
import bisect
import math
import re
import zlib
from dataclasses import dataclass

from transforms.core.constants import HIGHLIGHT_SEP, PLACEHOLDER

_WORD = re.compile(r"\w+", re.UNICODE)
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+|\n+")
STOPWORDS = frozenset(
    "a an the and or but of to in on at for from by with as is are was were be been being "
    "has have had do does did it its it's he she they them his her their this that these "
    "those who whom which what when where why how not no s said says say will would can "
    "could should may might than then there here after before over into about up out".split())


class ScoringError(ValueError):
    """A query that cannot be scored; the message is the reason written to errors/."""


@dataclass(frozen=True)
class Candidate:
    text: str
    label: str                 # label of its first mention
    mentions: tuple            # (start, end) spans in the passage, end exclusive


def candidates(row: dict) -> list:
    """Distinct entity texts of the passage in order of first mention."""
    passage, by_text = row.get("passage"), {}
    if not passage:
        raise ScoringError("empty passage")
    for e in row.get("entities") or ():
        start, end, text = e["start"], e["end"], e["text"]
        if not (0 <= start < end <= len(passage)) or passage[start:end] != text:
            raise ScoringError(f"entity span ({start}, {end}) does not match {text!r}")
        label, spans = by_text.setdefault(text, (e.get("label") or "", []))
        spans.append((start, end))
    if not by_text:
        raise ScoringError("no candidate entities in passage")
    cands = [Candidate(t, lab, tuple(sorted(s))) for t, (lab, s) in by_text.items()]
    return sorted(cands, key=lambda c: c.mentions[0])


def answer_texts(row: dict) -> frozenset:
    return frozenset(a["text"] for a in row.get("answers") or ())


def correct_mask(row: dict, cands: list) -> list:
    gold = answer_texts(row)
    return [c.text in gold for c in cands]


def check_query(row: dict) -> str:
    query = row.get("query") or ""
    if query.count(PLACEHOLDER) != 1:
        raise ScoringError(f"query has {query.count(PLACEHOLDER)} placeholders, expected 1")
    return query


def words(text: str) -> list:
    return [w.lower() for w in _WORD.findall(text)]


def content(ws) -> list:
    return [w for w in ws if w not in STOPWORDS]


def sentence_spans(text: str) -> list:
    """(start, end) of rough sentences; highlights are sentences of their own."""
    spans, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        if m.start() > start:
            spans.append((start, m.start()))
        start = m.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans


def bucket(*parts: str, n: int) -> int:
    """Stable hashed feature id in [1, n); 0 is padding."""
    return 1 + zlib.crc32("\x1f".join(parts).encode("utf-8")) % (n - 1)


@dataclass(frozen=True)
class LexicalFeatureConfig:
    window: int = 6            # content words each side of the placeholder / a mention
    n_buckets: int = 4096      # hashed entity-type-fit features
    n_sparse: int = 3          # hashed ids per candidate: label, label x highlight,
                               # label x in-query; 6 adds label x placeholder words


DENSE_FEATURES = (
    "log_count", "count_share", "cluster_count", "in_highlights", "highlight_count",
    "first_position", "first_rank", "in_query", "words_in_query", "window_overlap_max",
    "window_overlap_sum", "sentence_overlap_max", "bigram_overlap_max", "left_word_match",
    "right_word_match", "n_tokens",
)


def _overlap(a: set, b: set) -> float:
    return len(a & b) / math.sqrt(len(a) * len(b)) if a and b else 0.0


def _bigrams(ws) -> set:
    return set(zip(ws, ws[1:]))


def _tokens(passage: str):
    """Lower-cased words of the passage with their start offsets."""
    toks = [(m.start(), m.end(), m.group().lower()) for m in _WORD.finditer(passage)]
    return toks, [t[0] for t in toks]


def lexical_features(row: dict, config: LexicalFeatureConfig = LexicalFeatureConfig()):
    """(candidates, dense [n][len(DENSE_FEATURES)], sparse [n][n_sparse]) for one query."""
    query, cands = check_query(row), candidates(row)
    passage = row["passage"]
    left_q, right_q = query.split(PLACEHOLDER)
    lw, rw = content(words(left_q)), content(words(right_q))
    q_window = set(lw[-config.window:] + rw[:config.window])
    q_all, q_bigrams = set(content(words(query))), _bigrams(words(query))
    left_word = (words(left_q)[-1:] or ["<s>"])[0]
    right_word = (words(right_q)[:1] or ["</s>"])[0]
    q_lower, q_words = query.lower(), set(words(query))
    hl_start = passage.find(HIGHLIGHT_SEP)
    hl_start = len(passage) if hl_start < 0 else hl_start
    sents = sentence_spans(passage)
    toks, starts = _tokens(passage)
    total = sum(len(c.mentions) for c in cands)
    dense, sparse = [], []
    for rank, c in enumerate(cands):
        low, c_words = c.text.lower(), words(c.text)
        cluster = sum(len(o.mentions) for o in cands
                      if low in o.text.lower() or o.text.lower() in low)
        win, sent, bi, lm, rm = [], [], [], 0.0, 0.0
        for s, e in c.mentions:
            i, j = bisect.bisect_left(starts, s), bisect.bisect_left(starts, e)
            before = [t[2] for t in toks[max(0, i - 3 * config.window):i]]
            after = [t[2] for t in toks[j:j + 3 * config.window]]
            win.append(_overlap(q_window, set(content(before)[-config.window:]
                                              + content(after)[:config.window])))
            ss, se = next(((a, b) for a, b in sents if a <= s < b), (s, e))
            sw = [t[2] for t in toks[bisect.bisect_left(starts, ss):i]] + \
                [t[2] for t in toks[j:bisect.bisect_left(starts, se)]]
            sent.append(_overlap(q_all, set(content(sw))))
            bi.append(len(q_bigrams & _bigrams(sw)) / (1 + len(q_bigrams)))
            lm = max(lm, float(bool(before) and before[-1] == left_word))
            rm = max(rm, float(bool(after) and after[0] == right_word))
        n_hl = sum(s >= hl_start for s, _ in c.mentions)
        dense.append([
            math.log1p(len(c.mentions)), len(c.mentions) / total, math.log1p(cluster),
            float(n_hl > 0), math.log1p(n_hl), c.mentions[0][0] / len(passage),
            1.0 / (1 + rank), float(low in q_lower),
            sum(w in q_words for w in c_words) / max(1, len(c_words)),
            max(win), sum(win) / len(win), max(sent), max(bi), lm, rm, math.log1p(len(c_words)),
        ])
        lab, n = c.label or "NONE", config.n_buckets
        sparse.append([bucket("label", lab, n=n), bucket("hl", lab, str(n_hl > 0), n=n),
                       bucket("inq", lab, str(low in q_lower), n=n),
                       bucket("left", left_word, lab, n=n),
                       bucket("right", right_word, lab, n=n),
                       bucket("left2", " ".join(words(left_q)[-2:]), lab, n=n)][:config.n_sparse])
    return cands, dense, sparse
