"""What the words beside the placeholder give away, read against the words the passage
writes beside each of its entities (issue 32, the release rules in
`machine_filtering/release_rules.py`). Pure functions over one row; no Beam, no model.

- `article_agreement`: "a" or "an" right before the placeholder is written for the
  answer's name and for no other passage entity of its kind ("He is an @placeholder
  player": Arsenal, not Real Madrid or Cadena Cope);
- `shared_role_word`: a role or title word beside the placeholder ("a fantastic manager
  like @placeholder") stands beside one passage entity only, the answer ("manager Jose
  Mourinho"): the query is matched, not read;
- `copied_neighbour`: the nearest content word beside the placeholder, with the function
  words between, is the one beside an answer mention in the passage, the same word or
  its stem ("perform at the @placeholder" / "performance at the Super Bowl"; "@placeholder
  and Atticus" / "TCI and Atticus"), and beside no other entity's mention. An honorific
  ("Mr", "Ms") is no content word here: it fits every person of its sex, a type cue for
  `cues.py`. This is also the type cue a passage itself gives: a word it writes beside
  entities of one kind only, when the answer is the only entity of that kind, is a word
  it writes beside the answer alone.
"""
import re
from typing import Optional

from transforms.curation.names import TITLE_ABBREVIATIONS
from transforms.quality.aliases import PLACEHOLDER, cluster_labels, clusters, plain
from transforms.quality.cues import PERSON_WORDS

_TOKEN = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")
_STOP = frozenset(".!?;:\"“”()[]@")          # no neighbourhood reaches across these
WINDOW = 3                                 # words on each side read as the neighbourhood
MIN_STEM = 5                               # "perform" / "performance": a shared stem
FUNCTION_WORDS = frozenset(
    "a an the of to in on at by for with from and or but as is was are were be been has "
    "have had that this it its his her their he she they we i you not into onto about "
    "like than over after before against under said says say told tells added".split()
) | TITLE_ABBREVIATIONS | {"miss", "sir"}   # "Mr @placeholder": a type cue (cues.py), no copy
ROLE_WORDS = frozenset(PERSON_WORDS.split("|")) | frozenset({
    "chief", "executive", "owner", "founder", "director", "head", "leader", "champion",
    "player", "star", "author", "writer", "producer", "analyst", "lawyer",
    "doctor", "chancellor", "premier", "pm", "mp", "mep", "candidate", "rival"})
# kinds: the labels a reader takes for one kind of entity
KINDS = {"GPE": "place", "LOC": "place", "FAC": "place"}


def kind(label) -> Optional[str]:
    return KINDS.get(label, label)


# ---------------------------------------------------------------- a / an
_VOWEL_LETTERS = frozenset("AEFHILMNORSX")        # letter names that open with a vowel sound
_SILENT_H = ("hour", "honest", "honour", "honor", "heir")
_YOO = re.compile(r"^(?:u(?:ni|s[aeu]|ga|kr|ru|ta|ro|te|ku|bi)|eu|ewe|one\b|once\b)", re.I)


def article_for(name: str) -> Optional[str]:
    """'a' or 'an' as written before `name`, None where a reader may write either (a
    number, an acronym read as a word, a name opening with 'U')."""
    word = (_TOKEN.findall(plain(name)) or [""])[0].strip("'")
    if not word or not word[0].isalpha():
        return None
    core = word.replace(".", "")
    if core.isupper() and len(core) >= 2:
        if len(core) <= 3 or not re.search("[AEIOU]", core[1:]):
            return "an" if core[0] in _VOWEL_LETTERS else "a"
        return None                      # "NATO", "UEFA": read as a word, either way
    low = word.lower()
    if _YOO.match(low):
        return "a"
    if low[0] == "u":
        return None                      # "Uber" or "Usher": either sound
    if low[0] in "aeio":
        return "an"
    if low.startswith(_SILENT_H):
        return "an"
    return "a"


_ARTICLE = re.compile(r"\b(a|an)\s+" + re.escape(PLACEHOLDER), re.IGNORECASE)


def article_agreement(row: dict) -> Optional[str]:
    """The article and the answer, when "a"/"an" before the placeholder is written for
    the answer's name and for no other passage entity of the answer's kind (one at least
    of that kind is there to be ruled out)."""
    m = _ARTICLE.search(plain(row.get("query") or ""))
    if m is None:
        return None
    article = m.group(1).lower()
    labels = cluster_labels(row)
    answer_kind = kind(labels.get("@answer"))
    fits, rivals = {}, set()
    for key, mention in clusters(row):
        if kind(labels.get(key)) != answer_kind:
            continue
        if key != "@answer":
            rivals.add(key)
        said = article_for(re.sub(r"^(?:the|The) ", "", mention["text"]))
        if said in (None, article):
            fits.setdefault(key, mention["text"])
    if "@answer" not in fits or not rivals or set(fits) != {"@answer"}:
        return None
    return (f"'{article} {fits['@answer']}': no other {answer_kind} of the passage "
            f"({len(rivals)}) is written after '{article}'")


# ---------------------------------------------------------------- neighbourhoods
def _side_words(tokens: list, n: int = WINDOW) -> list:
    out = []
    for t in tokens:
        if t in _STOP or (t == "," and out):
            break
        if t != ",":
            out.append(t.lower())
        if len(out) == n:
            break
    return out


def neighbourhood(text: str, start: int, end: int) -> tuple:
    """(words before, words after) a span: up to WINDOW words each side, nearest first,
    never across a sentence mark or quote, a comma only right next to the span (an
    apposition: "@placeholder, the Chelsea manager")."""
    before = _side_words(list(reversed(_TOKEN.findall(plain(text[max(0, start - 200):start])))))
    after = _side_words(_TOKEN.findall(plain(text[end:end + 200])))
    return before, after


def _placeholder_sides(row: dict) -> Optional[tuple]:
    query = row.get("query") or ""
    i = query.find(PLACEHOLDER)
    return None if i < 0 else neighbourhood(query, i, i + len(PLACEHOLDER))


def _mention_sides(row: dict):
    passage = row.get("passage") or ""
    for key, m in clusters(row):
        yield key, m, neighbourhood(passage, m["start"], m["end"])


def shared_role_word(row: dict) -> Optional[str]:
    """The role word beside the placeholder that the passage writes beside the answer
    and beside no other entity."""
    sides = _placeholder_sides(row)
    if sides is None:
        return None
    roles = {w for w in sides[0] + sides[1] if w in ROLE_WORDS}
    if not roles:
        return None
    holders = {}
    for key, m, (before, after) in _mention_sides(row):
        for w in roles & set(before + after):
            holders.setdefault(w, set()).add(key)
    for w in sorted(roles):
        if holders.get(w) == {"@answer"}:
            return f"{w!r} is written beside the answer alone in the passage"
    return None


def _stem_match(a: str, b: str) -> bool:
    return a == b or (min(len(a), len(b)) >= MIN_STEM and a[:MIN_STEM] == b[:MIN_STEM]
                      and (a.startswith(b) or b.startswith(a)))


def _reach(words: list) -> Optional[tuple]:
    """The function words up to the nearest content word, and that word."""
    for i, w in enumerate(words):
        if w not in FUNCTION_WORDS:
            return tuple(words[:i]), w
    return None


def copied_neighbour(row: dict) -> Optional[str]:
    """The side of the placeholder whose nearest content word (and the function words
    before it) the passage writes beside an answer mention and beside no other entity."""
    sides = _placeholder_sides(row)
    if sides is None:
        return None
    for s, name in ((0, "before"), (1, "after")):
        want = _reach(sides[s])
        if want is None or not want[1][:1].isalpha():
            continue
        holders = set()
        for key, m, around in _mention_sides(row):
            got = _reach(around[s])
            if got and got[0] == want[0] and _stem_match(got[1], want[1]):
                holders.add(key)
        if holders == {"@answer"}:
            words = " ".join(want[0] + (want[1],) if s else (want[1],) + want[0][::-1])
            return f"{words!r} {name} the placeholder is written beside the answer alone"
    return None
