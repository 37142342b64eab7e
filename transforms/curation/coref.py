"""Coreference of entity mentions (paper section 3.1).

No neural coreference model installs offline, so the default resolver is a deterministic
mention-clustering one. It sits behind `CoreferenceResolver`, so a neural resolver can
replace it: anything that maps a list of mentions to one cluster key per mention.

Rules of `RuleBasedResolver`:
- normalised exact match (case, titles such as "Mr" or "Sen.", possessive "'s", a leading
  "the", punctuation);
- a person's surname or given name links to the full name ("Morgan" -> "Tracy Morgan"),
  unless it is tagged as a nationality or group ("Kenyan" never links to a person);
- an acronym links to the name it abbreviates ("NBA" -> "National Basketball Association");
- an alias that fits two different entities links to neither.
"""
import re
import unicodedata
from typing import Protocol, Sequence

TITLES = {
    "mr", "mrs", "ms", "miss", "mx", "dr", "prof", "professor", "sir", "dame", "lord", "lady",
    "rev", "reverend", "father", "sen", "senator", "rep", "representative", "gov", "governor",
    "president", "vice", "pres", "prime", "minister", "pm", "king", "queen", "prince", "princess",
    "gen", "general", "col", "lt", "sgt", "capt", "captain", "maj", "adm", "cmdr", "officer",
    "det", "detective", "judge", "justice", "chancellor", "mayor", "secretary", "chief",
    "coach", "manager", "pope", "saint", "st", "jr", "sr",
}
PERSON_LABELS = {"PERSON"}
# a nationality is never a person's name part, even inside a bad span ("Kenyan Daniel Rono");
# other labels are kept: small NER models often tag surnames as GPE or ORG
GROUP_LABELS = {"NORP"}
_STOP_IN_ACRONYM = {"of", "and", "the", "for", "in", "on", "at", "de", "du", "la", "le", "&"}
_POSSESSIVE = re.compile(r"(?:'s|’s|'|’)$", re.IGNORECASE)
_INNER_POSSESSIVE = re.compile(r"(?:'|’)s\b", re.IGNORECASE)
_NON_WORD = re.compile(r"[^\w\s-]")


class CoreferenceResolver(Protocol):
    def clusters(self, mentions: Sequence[tuple]) -> list:
        """`mentions` are (text, label) pairs; returns one hashable cluster key per mention."""


def _ascii_fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def normalise_name(text: str) -> str:
    """'Sen. Jeff Flake's' -> 'jeff flake'; 'the NBA' -> 'nba'."""
    text = _ascii_fold(text).strip()
    text = _INNER_POSSESSIVE.sub("", _POSSESSIVE.sub("", text))
    text = _NON_WORD.sub(" ", text.replace("’", "'")).lower()
    words = text.replace("-", " - ").split()
    while words and (words[0] in TITLES or words[0] == "the"):
        words = words[1:]
    while words and words[-1] in {"jr", "sr"}:
        words = words[:-1]
    return " ".join(words).replace(" - ", "-")


def initials(name: str) -> str:
    """'national basketball association' -> 'nba' (function words skipped)."""
    words = [w for w in re.split(r"[\s-]+", name) if w and w not in _STOP_IN_ACRONYM]
    return "".join(w[0] for w in words) if len(words) >= 2 else ""


def is_acronym_of(short: str, long: str) -> bool:
    return " " not in short and len(short) >= 2 and initials(long) == short


def is_name_part(alias: str, full: str) -> bool:
    """'morgan' is the given name or surname of 'tracy morgan'."""
    parts = full.split()
    return " " not in alias and len(parts) >= 2 and alias in (parts[0], parts[-1])


class RuleBasedResolver:
    """Deterministic clustering: the same mentions always give the same clusters."""

    def clusters(self, mentions: Sequence[tuple]) -> list:
        names = [normalise_name(text) for text, _ in mentions]
        person, group = {}, {}
        for name, (_, label) in zip(names, mentions):
            person[name] = person.get(name, False) or label in PERSON_LABELS
            group[name] = group.get(name, True) and label in GROUP_LABELS
        distinct = sorted(n for n in set(names) if n)
        multi = [n for n in distinct if " " in n]
        canonical = {}
        for name in distinct:
            targets = set()
            for full in multi:
                if full == name:
                    continue
                if is_acronym_of(name, full) or (
                        person.get(full) and not group.get(name) and is_name_part(name, full)):
                    targets.add(full)
            # exactly one antecedent: link; none or several (ambiguous): stand alone
            canonical[name] = targets.pop() if len(targets) == 1 else name
        return [canonical.get(n, n) if n else f"#empty{i}" for i, n in enumerate(names)]
