"""The automated item-quality flags (issue 32), as pure functions over released rows, the
same code for a release and for real ReCoRD files. Each flag is a lower bound on a kind
of defect a careful reader finds:

- `only_entity_of_label`: the answer is the only passage entity (alias cluster) of its
  label (ReCoRD labels come from spaCy over its passages);
- `answer_in_query`: an answer alias is written elsewhere in the query (aliases.py);
- `copied_context`: two or more context words next to the placeholder (one at least
  not a function word) are copied next to an answer mention in the passage;
- `incomplete_answers`: a passage mention left out of the answer set whose name words
  are a subset or superset of an answer's ("Smith" / "John Smith"); a place against a
  non-place ("Manchester" / "Manchester United") is not counted, unless the longer name
  is a club or company of the place-tagged answer's name ("Borussia Dortmund" beside
  "Dortmund") or a person's full name the one-word answer is part of, whatever labels
  NER gave them ("Muhammadu Buhari" tagged GPE beside "Buhari"; `left_out.py`);
- `sibling`: the query's sentence gave another query of the same set (`siblings`);
- `caption_like`: the query reads as a photo caption ("pictured", "(left)", a short
  caption label before a colon) or as a line of a list, not a sentence: a label line
  ("@placeholder: Possession of heroin, visiting a common nuisance, held in lieu of
  $72,500 bond.") or a list intro ending in a colon (curation/listings.py);
- `promotion_line`: a passage line is a promotion ("CLICK HERE", "Read more", "Vote now").

The row flags are `FLAG_RULES`, a table in the transforms/core/rules.py convention: a row
a rule rejects raises that flag, with the rule's detail (`row_flags`).
"""
import collections
import re
from typing import Iterable, Optional

from transforms.core.rules import Rule, rejections
from transforms.curation.coref import normalise_name
from transforms.curation.listings import is_label_line, is_list_intro
from transforms.curation.promotions import find_promotions
from transforms.quality import publishers
from transforms.quality.aliases import (
    PLACEHOLDER,
    PLACES,
    alias_in_query,
    answer_spans,
    cluster_labels,
    plain,
)
from transforms.quality.left_out import left_out_club, left_out_full_name

FUNCTION_WORDS = frozenset(
    "a an the of to in on at by for with from and or but as is was are were be been has "
    "have had that this it its his her their he she they we i you said says told not".split())
_WORD = re.compile(r"\w+(?:'\w+)*|[^\w\s]")
_CAPTION = re.compile(
    r"\bpictured\b|\((?:far |top |bottom )?(?:left|right|centre|center|above|below|inset)\)"
    r"|, (?:left|right|centre|center|above|below|inset),|\bseen (?:here|above|below)\b"
    r"|\b(?:in|on) (?:this|the) (?:photo|picture|image|undated photo)\b", re.IGNORECASE)
_CAPTION_LABEL = re.compile(r"^(?:[\w'-]+ ){0,3}[\w'-]+: (?=[A-Z@'\"])")
_SPEECH = frozenset({"said", "says", "told", "tells", "added", "wrote", "writes", "tweeted",
                     "explained", "asked", "replied", "according", "reads", "read"})
# a promotion opens a line or a sentence ("CLICK HERE for all the latest news"); inside a
# sentence or a quotation it is news ('a "vote now, pay later" Budget')
_PROMOTION = re.compile(
    r"(?:^|(?<=[.!?] ))(?:click here|read more|read also|also read|read:|vote now|vote:"
    r"|follow us|follow @|check it out|scroll down|sign up|subscribe (?:now|here|to)"
    r"|download (?:the|our) app|share this|like us on|watch (?:the )?video|see more"
    r"|more on this|listen again|listen now|listen live|listen to the full)\b",
    re.IGNORECASE | re.MULTILINE)


def only_entity_of_label(row: dict) -> Optional[str]:
    """The answer's label when no other passage entity has it, else None. The article's
    own publisher ("CNN" of "(CNN)" in a CNN story) is no rival: it is never a released
    answer (`publishers.publisher_keys`)."""
    labels = cluster_labels(row)
    label = labels.get("@answer")
    if label is None or not any(v == label for k, v in labels.items() if k != "@answer"):
        return label
    own = publishers.publisher_keys(row)
    if any(v == label for k, v in labels.items() if k != "@answer" and k not in own):
        return None
    return label


def distractors(row: dict) -> int:
    """Passage entities (clusters) other than the answer with the answer's label."""
    labels = cluster_labels(row)
    label = labels.get("@answer")
    return sum(1 for k, v in labels.items() if k != "@answer" and v == label)


def answer_in_query(row: dict) -> Optional[str]:
    hit = alias_in_query(row)
    return None if hit is None else f"{hit[1]} {hit[0]!r}"


def _words(text: str) -> list:
    return [w.lower() for w in _WORD.findall(plain(text))]


def _strip_possessive(words: list) -> list:
    return words[2:] if words[:2] == ["'", "s"] or words[:1] == ["'s"] else words


def _sides(before: str, after: str, n: int = 2) -> tuple:
    left = _words(before)[-n:]
    right = _strip_possessive(_words(after))[:n]
    return tuple(left), tuple(right)


def _informative(words: tuple, n: int) -> bool:
    return (len(words) == n and all(w[0].isalnum() for w in words)
            and any(w not in FUNCTION_WORDS for w in words))


def copied_context(row: dict, n: int = 2) -> Optional[str]:
    """The n words next to the placeholder that stand next to an answer mention too."""
    query = row.get("query") or ""
    i = query.find(PLACEHOLDER)
    if i < 0:
        return None
    q_left, q_right = _sides(query[:i], query[i + len(PLACEHOLDER):], n)
    passage = row.get("passage") or ""
    for start, end in sorted(answer_spans(row)):
        p_left, p_right = _sides(passage[max(0, start - 200):start], passage[end:end + 200], n)
        if _informative(q_left, n) and q_left == p_left:
            return " ".join(q_left) + " @"
        if _informative(q_right, n) and q_right == p_right:
            return "@ " + " ".join(q_right)
    return None


_DESIGNATION_PLURAL = re.compile(r"(?<=\d)s$")     # "F-15s", "747s": the model's plural


#: labels whose hyphenated words may be names joined ("Souza-Baranowski", "Hewlett-Packard");
#: a people's or a place's are compounds of others ("African-American", "Guinea-Bissau")
_JOINED_NAME_LABELS = frozenset({"ORG", "FAC", "PERSON"})


def _name_words(text: str, label, parts: bool = False) -> frozenset:
    """A name's words; with `parts`, a hyphenated word's parts too where the label joins
    names (`_JOINED_NAME_LABELS`): "Souza" is then a word of "Souza-Baranowski Correctional
    Center", the prison an answer cut at its hyphen leaves out (round 17)."""
    words = [_DESIGNATION_PLURAL.sub("", w) for w in normalise_name(text, label).split()
             if w not in FUNCTION_WORDS and w != "-"]
    if parts and label in _JOINED_NAME_LABELS:
        words += [p for w in words if "-" in w for p in w.split("-") if p]
    return frozenset(w for w in words if w not in FUNCTION_WORDS)


def incomplete_answers(row: dict) -> Optional[str]:
    """The first passage mention left out of the answers whose name words are a subset or
    superset of an answer mention's (not a place against a non-place, nor a NORP inside
    another kind's formal name of four words or more: "Labour" is the Labour Party's), or
    that is a full
    name or a club across labels (`left_out.left_out_full_name`, `left_out_club`)."""
    spans = answer_spans(row)
    entities = row.get("entities") or ()
    answers = [e for e in entities if (e["start"], e["end"]) in spans]
    answer_words = {(_name_words(e["text"], e.get("label")), e.get("label") in PLACES,
                     e.get("label") == "NORP") for e in answers}
    for e in entities:
        if (e["start"], e["end"]) in spans:
            continue
        words, place = _name_words(e["text"], e.get("label")), e.get("label") in PLACES
        joined = _name_words(e["text"], e.get("label"), parts=True)
        demonym = e.get("label") == "NORP"
        for a, a_place, a_demonym in answer_words:
            if demonym and not a_demonym and words < a and len(a) >= 4:
                continue        # "West African" in "Economic Community of West African States"
            if words and a and place == a_place and (words <= a or words >= a or joined > a
                                                     and len(a) == 1 and a <= joined - words):
                return e["text"]
    return left_out_full_name(row) or left_out_club(row)


def left_out_detail(row: dict) -> Optional[str]:
    """`incomplete_answers` as a release rule's detail."""
    mention = incomplete_answers(row)
    return mention and (f"passage mention {mention!r} shares its name words with an answer "
                        f"and is not in the answer set")


def lone_label_detail(row: dict) -> Optional[str]:
    """`only_entity_of_label` as a release rule's detail."""
    label = only_entity_of_label(row)
    return label and f"the answer is the only {label} entity of the passage"


def caption_like(row: dict) -> Optional[str]:
    query = plain(row.get("query") or "")
    m = _CAPTION.search(query)
    if m:
        return m.group(0)
    m = _CAPTION_LABEL.match(query)
    if m and not set(m.group(0).lower().rstrip(": ").split()) & _SPEECH:
        return m.group(0).strip()
    if is_label_line(query):
        return "label line " + query.split(": ")[0] + ":"
    if is_list_intro(query):
        return "list intro"
    return None


def promotion_line(row: dict) -> Optional[str]:
    """A passage line that opens a promotion: this module's own pattern, or one of the
    forms cleaning removes (`promotions.find_promotions`: contact lines, newsletter
    lines), so the measure sees what the pipeline claims to remove."""
    for line in (row.get("passage") or "").split("\n"):
        if _PROMOTION.search(line) or find_promotions(line):
            return line.strip()[:120]
    return None


def flag_rule(name: str, raised) -> Rule:
    """The rule of a flag: `raised(row)` -> its detail, or None (or "") when not raised."""
    def check(row, ctx, c):
        detail = raised(row)
        return True if not detail else (False, detail)
    return Rule(name, name, check)


_FLAG_FNS = (only_entity_of_label, answer_in_query, copied_context, incomplete_answers,
             caption_like, promotion_line)
FLAG_RULES = tuple(flag_rule(fn.__name__, fn) for fn in _FLAG_FNS)
ROW_FLAGS = tuple(r.name for r in FLAG_RULES)
FLAGS = ROW_FLAGS + ("sibling",)
ROW_FLAG_FNS = dict(zip(ROW_FLAGS, _FLAG_FNS))


def row_flags(row: dict) -> dict:
    """{flag: detail} of every row flag the row raises (siblings need the whole set)."""
    return {why.rule: why.detail for why in rejections(FLAG_RULES, row)}


# -- siblings: queries made from one sentence

def _template(query: str) -> Optional[tuple]:
    q = plain(query)
    i = q.find(PLACEHOLDER)
    return None if i < 0 else (q[:i], q[i + len(PLACEHOLDER):])


def same_sentence(a: str, b: str, min_shared: int = 20) -> bool:
    """Whether two queries are one sentence with the placeholder at two mentions X, Y:
    a = L @ M Y R and b = L X M @ R, the words around both mentions (L, M, R) shared,
    at least `min_shared` characters of them (ReCoRD files carry no sentence index, so
    the release and ReCoRD are compared by text)."""
    ta, tb = _template(a), _template(b)
    if ta is None or tb is None or a == b:
        return False
    for (la, ra), (lb, rb) in ((ta, tb), (tb, ta)):
        if not (len(la) < len(lb) and lb.startswith(la) and len(ra) > len(rb)
                and ra.endswith(rb)):
            continue
        x_m, m_y = lb[len(la):], ra[:len(ra) - len(rb)]       # X + M and M + Y
        for k in range(min(len(x_m), len(m_y)) - 1, -1, -1):
            if m_y[:k] == x_m[len(x_m) - k:]:
                if len(la) + k + len(rb) >= min_shared:
                    return True
                break
    return False


def siblings(rows: Iterable[dict]) -> set:
    """Ids of the rows whose sentence gave another row of the same passage."""
    by_passage = collections.defaultdict(list)
    for r in rows:
        by_passage[r.get("passage_id") or r.get("passage")].append(r)
    out = set()
    for group in by_passage.values():
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                if same_sentence(a["query"], b["query"]):
                    out.update((a["id"], b["id"]))
    return out


# -- counting: per passage (a Beam step groups by passage), summed over a release

def flag_counts(rows: Iterable[dict]) -> collections.Counter:
    """{'queries': n, flag: rows raising it} over the rows of one or more passages."""
    rows = list(rows)
    counts = collections.Counter(queries=len(rows))
    sib = siblings(rows)
    promoted = set()
    for r in rows:
        raised = set(row_flags(r))
        if r["id"] in sib:
            raised.add("sibling")
        if "promotion_line" in raised:
            promoted.add(r.get("passage_id") or r.get("passage"))
        counts.update(raised)
    counts["promotion_passages"] = len(promoted)
    counts["passages"] = len({r.get("passage_id") or r.get("passage") for r in rows})
    return counts


def summarise(counts: dict) -> dict:
    """{'queries', 'passages', flag: {'n', 'share'}} from summed `flag_counts`."""
    n = counts.get("queries", 0)
    out = {"queries": n, "passages": counts.get("passages", 0),
           "promotion_passages": counts.get("promotion_passages", 0)}
    for flag in FLAGS:
        k = counts.get(flag, 0)
        out[flag] = {"n": k, "share": round(k / n, 4) if n else None}
    return out


def measure(rows: Iterable[dict]) -> dict:
    """The flags' shares over a whole set of rows (grouped by passage)."""
    by_passage = collections.defaultdict(list)
    for r in rows:
        by_passage[r.get("passage_id") or r.get("passage")].append(r)
    total = collections.Counter()
    for group in by_passage.values():
        total.update(flag_counts(group))
    return summarise(total)
