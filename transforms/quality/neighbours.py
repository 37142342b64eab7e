"""What the words beside the placeholder give away, read against the words the passage
writes beside each of its entities (issue 32, the release rules in
`machine_filtering/release_rules.py`). Pure functions over one row; no Beam, no model.

- `article_agreement`: "a" or "an" right before the placeholder is written for the
  answer's name and for no other passage entity of its kind ("He is an @placeholder
  player": Arsenal, not Real Madrid or Cadena Cope);
- `definite_agreement`: "the @placeholder" heading its phrase ("the @placeholder and
  Iran") where the passage writes "the" before the answer alone ("the U.S.");
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
from transforms.quality.publishers import publisher_keys

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


# ---------------------------------------------------------------- the
# what may follow a name that heads its noun phrase ("the U.S. and Iran", "the FBI said"):
# an end mark or a function word, never a noun it modifies ("the Obama administration")
_HEAD_FOLLOWERS = frozenset(
    "and or but nor had has have is was were are will would could should can may might "
    "must did does do said says told to of in on at for with from by as that which who "
    "whose after before since until over under against about into than".split())
_THE_SLOT = re.compile(r"\b[Tt]he\s+" + re.escape(PLACEHOLDER) + r"(?P<after>.{0,30})", re.S)
_THE_BEFORE = re.compile(r"\b[Tt]he\s+$")


def heads_its_phrase(after: str) -> bool:
    """What follows a name ends its noun phrase: an end mark, a quote or a function word
    (`_HEAD_FOLLOWERS`); not "'s" or a noun ("the U.S. economy")."""
    after = after.lstrip()
    if not after or after[0] in ".,;:!?)]\"”’—–-":
        return not after.startswith(("'s", "’s"))
    word = re.match(r"[A-Za-z]+", after)
    return bool(word) and word.group(0) in _HEAD_FOLLOWERS


# lexicon: place and body names English writes after "the" (as `plain` writes them, lower
# case): "the U.S.", "the UK", "the Netherlands", "the EU"; others by the passage's words
THE_NAMES = frozenset({
    "u.s.", "us", "u.s.a.", "usa", "united states", "uk", "u.k.", "united kingdom",
    "netherlands", "philippines", "bahamas", "czech republic", "gambia", "maldives",
    "vatican", "congo", "democratic republic of congo", "central african republic",
    "dominican republic", "united arab emirates", "uae", "eu", "european union", "un",
    "u.n.", "united nations", "west", "middle east", "gulf", "arctic", "antarctic",
    "pentagon", "kremlin", "white house", "hague"})
# labels whose names may take "the" whatever the passage writes ("the IAEA", "the Eiffel
# Tower"): rivals for the slot; so may a people's name ("the Chinese", "the Iranians"),
# not its adjective ("Iranian"); a person, a city or a region never takes it
_MAY_TAKE_THE = frozenset({"ORG", "FAC", "EVENT", "LAW", "WORK_OF_ART", "PRODUCT"})
_PEOPLE = re.compile(r"(?:s|ese|ch|sh)$")


def may_take_the(mention: dict) -> bool:
    label, text = mention.get("label"), mention.get("text") or ""
    return label in _MAY_TAKE_THE or (label == "NORP" and bool(_PEOPLE.search(text)))


def takes_the(mention: dict, passage: str) -> bool:
    """The passage writes "the" before this mention heading its phrase ("the U.S. and its
    allies"), or its name is one English writes so (`THE_NAMES`)."""
    start, end = mention.get("start", 0), mention.get("end", 0)
    text = mention.get("text") or ""
    if plain(re.sub(r"^(?:the|The) ", "", text)).lower() in THE_NAMES:
        return True
    return bool(text.lower().startswith("the ") or _THE_BEFORE.search(
        passage[max(0, start - 4):start])) and heads_its_phrase(passage[end:end + 30])


def definite_agreement(row: dict, named=frozenset()) -> Optional[str]:
    """The answer, when the query writes "the @placeholder" heading its phrase ("the
    several hundred the @placeholder had wanted", "the @placeholder and Iran"), the answer
    takes "the" (`takes_the`) and no other passage entity may: none written after "the",
    none of a label whose names may take it (`may_take_the`), only people and places; the
    article's own publisher is no rival (`only_entity_of_label`'s reading).
    So the form gives the answer ("the U.S." among Kerry, Zarif, Lausanne and Iran, which
    the query names). `named`: keys of the entities the query names itself (no rival)."""
    m = _THE_SLOT.search(plain(row.get("query") or ""))
    if m is None or not heads_its_phrase(m.group("after")):
        return None
    passage = row.get("passage") or ""
    fits, others = set(), set()
    for key, mention in clusters(row):
        if key != "@answer":
            others.add(key)
        if takes_the(mention, passage) or (key != "@answer" and may_take_the(mention)):
            fits.add(key)
    rivals = others - set(named) - publisher_keys(row)
    if "@answer" not in fits or not rivals or fits & rivals:
        return None
    return (f"'the @placeholder': the answer alone of the passage's entities takes 'the' "
            f"({len(rivals)} others: people and places that never do)")


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


# a title's abbreviation is the title ("Sen. Lieberman" / "Senator @placeholder"), and a
# congresswoman holds the congressman's seat
ROLE_FORMS = {"sen": "senator", "gov": "governor", "det": "detective", "sgt": "sergeant",
              "insp": "inspector", "rev": "reverend", "prof": "professor", "pres": "president",
              "capt": "captain", "congresswoman": "congressman"}
_ABBREVIATED = re.compile(rf"\b({'|'.join(k for k in ROLE_FORMS if k != 'congresswoman')})"
                          r"\.\s*$", re.IGNORECASE)


def _role(word: str) -> str:
    w = word.rstrip(".")
    return ROLE_FORMS.get(w, w)


def shared_role_word(row: dict) -> Optional[str]:
    """The role word beside the placeholder that the passage writes beside the answer
    and beside no other entity (a title's abbreviation counts as the title)."""
    sides = _placeholder_sides(row)
    if sides is None:
        return None
    query = row.get("query") or ""
    roles = {_role(w) for w in sides[0] + sides[1] if w in ROLE_WORDS}
    if t := _ABBREVIATED.search(query[:max(0, query.find(PLACEHOLDER))]):
        roles.add(_role(t.group(1).lower()))      # "Sen. @placeholder"
    if not roles:
        return None
    holders, passage = {}, row.get("passage") or ""
    for key, m, (before, after) in _mention_sides(row):
        words = {_role(x) for x in before + after}
        if t := _ABBREVIATED.search(passage[max(0, m["start"] - 8):m["start"]]):
            words.add(_role(t.group(1).lower()))   # "Sen. Lieberman": the dot ends no window
        for w in roles & words:
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
