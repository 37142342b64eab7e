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
- `coordinated_partner`: the placeholder is paired with an entity the query names
  ("Alan and @placeholder") that the passage pairs with the answer alone ("Alan Shearer
  and Duncan Ferguson"): the same copy, one named neighbour instead of one word.
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


# ---------------------------------------------------------------- coordinated partners
_COORD = r"(?:and|or|&)"
_NAME_RUN = r"(?:[A-Z][\w'’.-]*)(?:\s+(?:(?:de|da|del|van|von|der|al|bin|of|the)\s+)?[A-Z][\w'’.-]*)*"
_AFTER = re.compile(r"^\s*,?\s*" + _COORD + r"\s+(?:the\s+)?(" + _NAME_RUN + ")")
_BEFORE = re.compile(r"(" + _NAME_RUN + r")\s*(?:,\s*|,?\s*" + _COORD + r"\s+)(?:the\s+)?$")
_BETWEEN = re.compile(r"^\s*(?:,\s*)?(?:" + _COORD + r"\s+)?(?:the\s+)?$|^\s*,\s*$")


def _names_entity(name: str, mention: str) -> bool:
    """`name` (as the query writes it) names the passage mention: the same words, or its
    last or first words ("Furtado" / "Safiro Furtado")."""
    a, b = plain(name).lower().split(), plain(mention).lower().split()
    return bool(a) and (a == b or b[-len(a):] == a or b[:len(a)] == a)


def coordinated_partner(row: dict) -> Optional[str]:
    """The placeholder is coordinated with an entity the query names ("the families of
    @placeholder and Furtado") and the passage coordinates that entity with the answer
    and with no other entity ("Daniel de Abreu and Safiro Furtado"): the pair is copied,
    not read. `copied_neighbour` at the level of a named neighbour, whose words beside
    the answer may differ ("Safiro Furtado" for "Furtado")."""
    query = row.get("query") or ""
    i = query.find(PLACEHOLDER)
    if i < 0:
        return None
    names = []
    m = _AFTER.match(query[i + len(PLACEHOLDER):])
    if m:
        names.append(m.group(1))
    m = _BEFORE.search(query[:i])
    if m:
        names.append(m.group(1))
    if not names:
        return None
    passage, ms = row.get("passage") or "", sorted(clusters(row), key=lambda x: x[1]["start"])
    for name in names:
        partner_keys = {k for k, m in ms if k != "@answer" and _names_entity(name, m["text"])}
        if not partner_keys:
            continue
        coordinated = set()
        for (k1, m1), (k2, m2) in zip(ms, ms[1:]):
            if m2["start"] - m1["end"] > 12 or not _BETWEEN.match(passage[m1["end"]:m2["start"]]):
                continue
            if k1 in partner_keys and k2 not in partner_keys:
                coordinated.add(k2)
            elif k2 in partner_keys and k1 not in partner_keys:
                coordinated.add(k1)
        if coordinated == {"@answer"}:
            return (f"the query pairs the placeholder with {name!r}, and the passage pairs "
                    f"{name!r} with the answer alone")
    return None
