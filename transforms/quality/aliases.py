"""What a released row says about its answer, for the release rules and the item flags:
the answer's written forms (its aliases), the passage's distinct entities (alias
clusters) and their labels, and the type a query's own words give the answer. Pure
functions over one row (`id`, `passage`, `entities`, `query`, `answers`); no Beam.

- aliases: every mention text of the answer set, each without a leading title ("Mr",
  "President"), and where the answer is a person (label PERSON) its surname and given name
  ("Ronnie O'Sullivan" -> "O'Sullivan", "Ronnie");
- clusters: the project's own coreference (`curation.coref.RuleBasedResolver`) over the
  passage's mentions, the answer's mentions one cluster; a cluster's label is its
  mentions' commonest label.
"""
import collections
import functools
import re
from typing import Optional

from transforms.core.constants import PERSON, PLACEHOLDER
from transforms.curation.coref import RuleBasedResolver
from transforms.curation.names import (
    CLUB_WORDS,
    GENERIC_ORG_WORDS,
    ORG_SUFFIXES,
    ROYAL_TITLES,
    TITLE_ABBREVIATIONS,
    TITLE_NOUNS,
)

PLACES = frozenset({"GPE", "LOC", "FAC"})
_TITLES = TITLE_ABBREVIATIONS | TITLE_NOUNS | ROYAL_TITLES
_NAME_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})
# words of a club's name, never of a person's ("Manchester United" tagged PERSON)
_CLUB_WORDS = CLUB_WORDS
_POSSESSIVE = re.compile(r"['’]s?$")


def plain(text: str) -> str:
    """Curly apostrophes straight, spaces single."""
    return " ".join(text.replace("’", "'").replace("‘", "'").split())


def answer_spans(row: dict) -> set:
    return {(a["start"], a["end"]) for a in row.get("answers") or ()}


def answer_mentions(row: dict) -> list:
    """The passage's entity mentions that are answers (same span)."""
    spans = answer_spans(row)
    return [e for e in row.get("entities") or () if (e["start"], e["end"]) in spans]


def commonest(labels) -> Optional[str]:
    counts = collections.Counter(x for x in labels if x)
    return min(counts, key=lambda x: (-counts[x], x)) if counts else None


def answer_label(row: dict) -> Optional[str]:
    """The commonest label of the answer's mentions (None: no labelled mention)."""
    return commonest(e.get("label") for e in answer_mentions(row))


def strip_title(text: str) -> str:
    """'President Barack Obama' -> 'Barack Obama', 'Mr. Smith' -> 'Smith' (one word kept)."""
    words = plain(text).split()
    while len(words) > 1 and words[0].lower().rstrip(".") in _TITLES:
        words = words[1:]
    return " ".join(words)


def name_parts(name: str) -> dict:
    """{form: text} of a person's name of two or more words: its surname and given name
    (each a capitalised word of two or more letters, never a title; a name with an
    organisation's or club's word gives none: 'Manchester United' tagged PERSON)."""
    words = [_POSSESSIVE.sub("", w) if i == len(name.split()) - 1 else w
             for i, w in enumerate(name.split())]
    while len(words) > 2 and words[-1].lower().rstrip(".,") in _NAME_SUFFIXES:
        words = words[:-1]
    if len(words) < 2 or any(w.lower() in GENERIC_ORG_WORDS | ORG_SUFFIXES | _CLUB_WORDS
                             for w in words):
        return {}
    out = {}
    for form, word in (("surname", words[-1]), ("given name", words[0])):
        word = word.rstrip(",.")
        if len(word.replace(".", "")) >= 2 and word[:1].isupper() \
                and word.lower().rstrip(".") not in _TITLES:
            out[form] = word
    return out


def answer_aliases(row: dict) -> dict:
    """{alias: form} of the answer: 'mention' (an answer text), 'title-stripped', for
    a person 'surname' and 'given name', and 'lexicon' (`lexicon_names`); a text that is a
    mention is named so."""
    person = answer_label(row) == PERSON
    texts = sorted({plain(a["text"]) for a in row.get("answers") or ()}, key=len, reverse=True)
    bare = [_POSSESSIVE.sub("", t) if t.endswith(("'s", "'")) else t for t in texts]
    out = {t: "mention" for t in texts + bare if t}
    for text in bare:
        stripped = strip_title(text)
        if stripped:
            out.setdefault(stripped, "title-stripped")
        if person:
            for form, alias in name_parts(stripped).items():
                out.setdefault(alias, form)
    for text in bare:                    # "Daesh" for ISIS, "GOP" for the Republicans
        for name in lexicon_names(text):
            out.setdefault(name, "lexicon")
    return out


def lexicon_names(text: str) -> list:
    """The other names the alias lexicons (`curation.aliases.party_names`: party
    nicknames, organisations' name groups; a club's own nicknames) give a text, as written in title case and in
    capitals ("daesh" -> "Daesh", "DAESH")."""
    from transforms.curation.aliases import PARTY_NICKNAMES, club_nicknames, party_names
    key = text.lower().removeprefix("the ").strip()
    names = party_names(key) + tuple(n for n, full in PARTY_NICKNAMES.items() if key in full)
    names += club_nicknames(key)
    return [form for n in names for form in (n.title(), n.upper())]


@functools.lru_cache(maxsize=4096)     # every rule asks for the answer's aliases
def _word_pattern(alias: str):
    return re.compile(r"(?<![\w@])" + re.escape(alias) + r"(?![\w])")


_CAPITALISED_RUN = re.compile(r"[A-Z][\w.]*(?:['’]s)?(?: [A-Z][\w.]*(?:['’]s)?){0,2}")


def country_in_query(row: dict) -> Optional[str]:
    """A name of the answer's country written in the query in another form ("America's
    farm sector, @placeholder law enforcement" answered by "U.S."; "Britain" for
    "British"): the answer written in the query. A whole capitalised run of up to three
    words, a possessive and a leading "The" off, read by `countries.country_of` ("UK" of
    "UK Sport" is part of another name)."""
    from transforms.curation.countries import country_of
    codes = {country_of(a["text"]) for a in row.get("answers") or ()} - {None}
    if not codes:
        return None
    query = plain(row.get("query") or "").replace(PLACEHOLDER, " \x00 ")
    for m in _CAPITALISED_RUN.finditer(query):
        words = _POSSESSIVE.sub("", m.group(0)).rstrip(",").split()
        if words and words[0] == "The":
            words = words[1:]
        text = " ".join(words)       # the whole name: "UK" of "UK Sport" is no country
        if text and country_of(text) in codes:
            return text
    return None


def alias_in_query(row: dict) -> Optional[tuple]:
    """(alias, form) of the first answer alias written in the query outside the
    placeholder (whole words, case kept), longest alias first, or the answer's country
    in another form (`country_in_query`); None when there is none."""
    query = plain(row.get("query") or "").replace(PLACEHOLDER, " \x00 ")
    for alias, form in sorted(answer_aliases(row).items(), key=lambda kv: (-len(kv[0]), kv[0])):
        if _word_pattern(alias).search(query):
            return alias, form
    country = country_in_query(row)
    return (country, "country form") if country else None


@functools.lru_cache(maxsize=256)
def coreference_keys(mentions: tuple) -> tuple:
    """The cluster key of each (text, label) mention: one passage's queries, and the many
    rules that read each of them, share one resolution."""
    return tuple(RuleBasedResolver().clusters(list(mentions)))


def clusters(row: dict) -> list:
    """[(cluster key, mention)] for every passage mention: the project's coreference,
    with every answer mention in one cluster (the answer set is one entity)."""
    mentions = list(row.get("entities") or ())
    keys = coreference_keys(tuple((m["text"], m.get("label")) for m in mentions))
    spans = answer_spans(row)
    answer_keys = {k for k, m in zip(keys, mentions) if (m["start"], m["end"]) in spans}
    return [("@answer" if k in answer_keys else k, m) for k, m in zip(keys, mentions)]


def cluster_labels(row: dict) -> dict:
    """{cluster key: its commonest label}; the answer's cluster is '@answer'."""
    by_key = collections.defaultdict(list)
    for key, m in clusters(row):
        by_key[key].append(m.get("label"))
    return {k: commonest(v) for k, v in by_key.items()}
