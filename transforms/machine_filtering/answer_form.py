"""Does any answer fit the slot? For the release rule `answer_form` (issue 32).

ReCoRD's answer is a passage span, and a reader puts it where the placeholder is. When the
query's removed mention (the candidates' `mention` column: what the sentence said before
`@placeholder` replaced it) and every passage mention of the entity have different
grammatical forms, no accepted answer reads as the sentence did: "the head of the
@placeholder church" (Armenian) answered only by "Armenians"; "killed by the
@placeholder" (Soviets) answered only by "Soviet". The item is wrong as written.

An answer fits unless it is, as far as words show, the mention's other form:

- number: the same words but the last, which differs by a plural ending ("Soviet" /
  "Soviets", "Lost River" / "Lost Rivers", "Tory" / "Tories");
- a demonym of the same country in the other class (`countries.country_of`): a plural,
  a people ("Britons", "Americans"), against a singular, an adjective ("British",
  "American"); a country's name for a people ("Armenia" for "Armenians"); and a
  country's name for an adjective ("the @placeholder company", Austrian, answered only
  by "Austria": readers of held-out CNN text marked it wrong). An initialism before a
  noun reads as a modifier and fits ("the UK economy"; generation keeps such a query:
  `generation.cloze.form_in_answers`).

A plural mention right before a noun ("If @placeholder lymphoma", Burkitts) modifies it,
and there any form fits ("Burkitt lymphoma", "British expats"): the slot is attributive
when the next word of the query is a lower-case noun, or a lower-case adjective and then
a noun (spaCy tags, the release rules' lemmas; without them a plural mention is not
judged). Any other difference (a full name for a surname, an alias) fits: names are
interchangeable in a slot.

An answer set may also accept too much (`adjective_for_name`): the mention is a country's
name standing as a noun, with no "the" before it and no noun after it ("a welcome here in
@placeholder", Scotland; "remain in @placeholder", Iraq), and the answers hold an
adjective demonym of that country ("Scottish", "Iraqi") beside the name. ReCoRD's gold
holds a country and its demonyms together and generation keeps that (docs/rules.md), but
"in Scottish" does not read, and a reader of held-out text marked such an item wrong. A
people ("Americans" for "the @placeholder said") reads as the country does and stays. The
same the other way (`name_for_adjective`): an adjective mention whose answers accept the
country's name beside the adjective ("the @placeholder chancellor": British, Britain,
United Kingdom; "@placeholder women": Iraqi, Iraq). Both are on by default
(`ReleaseConfig.answer_form_adjectives`). Case and a possessive ending are ignored. No mention (a row
generated before the column, or from another source): no judgement.

Two slots no name fills (round 19, fresh30): a hashtag or handle written unlike every
answer ("#@placeholder", mention "MemoriesPizza", answered "Memories Pizza"), and a family named by a surname's plural
("the @placeholder were", mention "Tsarnaevs", answered by one brother's name).
"""
import re
from typing import Optional

from transforms.core.constants import PLACEHOLDER
from transforms.curation.countries import country_form, country_of
from transforms.curation.initialisms import is_initialism
from transforms.quality.aliases import answer_label


def form_key(text: str) -> str:
    """Case-folded, spaces single, a possessive ending off ("Armenians'" -> "armenians")."""
    words = " ".join((text or "").replace("’", "'").split()).casefold()
    if words.endswith("s'"):
        return words[:-1]
    return re.sub(r"'s$", "", words)


def _plural_of(plural: str, singular: str) -> bool:
    """`plural` is `singular`'s last word with a plural ending: +s, +es, y -> ies."""
    p, s = plural.split(" "), singular.split(" ")
    if len(p) != len(s) or p[:-1] != s[:-1] or not s[-1]:
        return False
    a, b = p[-1], s[-1]
    return a in (b + "s", b + "es") or (b.endswith("y") and a == b[:-1] + "ies")


def number_variant(mention: str, answer: str) -> bool:
    """One is the other with a plural ending on its last word."""
    m, a = form_key(mention), form_key(answer)
    return _plural_of(m, a) or _plural_of(a, m)


def _people(key: str) -> bool:
    last = key.split(" ")[-1] if key else ""
    return last.endswith("s") and not last.endswith("ss")


def demonym_mismatch(mention: str, answer: str) -> bool:
    """Both stand for one country and the answer is not of the mention's class: a people
    (plural demonym) against an adjective, or against the country's name."""
    code = country_of(mention)
    if not code or country_form(mention) != "demonym" or country_of(answer) != code:
        return False
    m, a = form_key(mention), form_key(answer)
    if country_form(answer) == "name":
        return _people(m) or not is_initialism(answer)
    return _people(m) != _people(a)


def attributive(query: str, tokens) -> Optional[bool]:
    """The placeholder modifies the noun after it ("@placeholder lymphoma", "@placeholder
    new album"); None: no tokens to tell."""
    if tokens is None:
        return None
    end = query.find(PLACEHOLDER) + len(PLACEHOLDER)
    after = [t for t in tokens if t.start >= end][:2]
    if not after or after[0].start > end + 1 or not query[after[0].start:][:1].islower():
        return False
    return after[0].pos == "NOUN" or (after[0].pos == "ADJ" and len(after) > 1
                                      and after[1].pos == "NOUN")


def fits(mention: str, answer: str, before_noun: Optional[bool] = False) -> bool:
    """The answer reads in the slot the mention left (see the module docstring);
    `before_noun`: the slot is attributive (None: unknown)."""
    if form_key(mention) == form_key(answer):
        return True
    if _people(form_key(mention)) and before_noun is not False:
        return True
    return not (number_variant(mention, answer) or demonym_mismatch(mention, answer))


def _noun_slot(query: str, before_noun: Optional[bool]) -> bool:
    """No "the" before the placeholder and no noun after it (spaCy tags; without them, no
    lower-case word right after it)."""
    i = query.find(PLACEHOLDER)
    if i < 0 or re.search(r"\bthe\s+$", query[:i], re.IGNORECASE):
        return False
    if before_noun is not None:
        return not before_noun
    return not re.match(r"\s+[a-z]", query[i + len(PLACEHOLDER):])


def adjective_for_name(mention: str, answers, query: str,
                       before_noun: Optional[bool] = None) -> Optional[str]:
    """The adjective demonyms an answer set accepts for a country's name in a noun slot
    ("Scottish" for "a welcome here in @placeholder", Scotland), else None."""
    code = country_of(mention or "")
    if not code or country_form(mention) != "name" or not _noun_slot(query, before_noun):
        return None
    adjectives = sorted({a for a in answers if country_of(a) == code
                         and country_form(a) == "demonym" and not _people(form_key(a))})
    if not adjectives or not any(country_form(a) == "name" for a in answers):
        return None
    return (f"the query's mention {mention!r} is the country's name as a noun, and the "
            f"answers also accept the adjective {', '.join(repr(a) for a in adjectives)}")


def name_for_adjective(mention: str, answers) -> Optional[str]:
    """The country's names an answer set accepts beside its adjective for an adjective
    mention ("Britain", "United Kingdom" for "the @placeholder chancellor", British),
    else None. An initialism reads as a modifier ("the UK economy") and is no excess."""
    code = country_of(mention or "")
    if not code or country_form(mention) != "demonym" or _people(form_key(mention)):
        return None
    names = sorted({a for a in answers if country_of(a) == code
                    and country_form(a) == "name" and not is_initialism(a)})
    if not names or not any(fits(mention, a) for a in answers):
        return None
    return (f"the query's mention {mention!r} is the country's adjective, and the answers "
            f"also accept the name {', '.join(repr(a) for a in names)}")


_BEFORE_SLOT = re.compile(r"((?:[A-Z][\w'’.-]*\s+){1,3})@placeholder\b")
_AFTER_SLOT = re.compile(r"@placeholder((?:\s+[A-Z][\w'’.-]*){1,3})")


def repeats_neighbour(query: str, answers) -> Optional[str]:
    """The capitalised words the query writes right beside the placeholder when every
    answer repeats them ("the Manchester @placeholder channel" answered by "Manchester
    United" alone: NER took "United" for the mention): the slot holds part of a name."""
    if not answers:
        return None
    before, after = _BEFORE_SLOT.search(query), _AFTER_SLOT.search(query)
    for m, test in ((before, str.startswith), (after, str.endswith)):
        words = m.group(1).strip() if m else ""
        while words:
            if all(test(a, words) and a != words for a in answers):
                return words
            words = " ".join(words.split()[1:]) if test is str.startswith else \
                " ".join(words.split()[:-1])
    return None


_TAGGED_SLOT = re.compile(r"[#@]" + re.escape(PLACEHOLDER))


def family_for_person(mention: str, answers, person: bool) -> bool:
    """The mention is one word, a surname's plural, that a person's answer ends with
    ("Tsarnaevs" / "Dzhokhar Tsarnaev"), and no answer is that plural."""
    key = form_key(mention)
    names = [form_key(a).split() for a in answers]
    return (person and " " not in key and key.endswith("s") and all(n[-1] != key for n in names)
            and any(len(n) > 1 and _plural_of(key, n[-1]) for n in names))


def answer_form(row: dict, tokens=None, adjectives: bool = False) -> Optional[str]:
    """None when some answer fits the slot (or the row has no `mention`), else why not.
    `tokens`: the query's spaCy tokens (`lexical.Lemmas.queries`); `adjectives`: also
    reject an answer set that accepts a country's adjective for its name in a noun slot,
    or its name for its adjective (`adjective_for_name`, `name_for_adjective`;
    `ReleaseConfig.answer_form_adjectives`)."""
    mention = row.get("mention")
    answers = [a["text"] for a in row.get("answers") or ()]
    before_noun = attributive(row.get("query") or "", tokens)
    if not mention or not answers:
        return None
    if _TAGGED_SLOT.search(row.get("query") or "") and \
            form_key(mention) not in {form_key(a) for a in answers}:
        return f"the slot is a hashtag or handle ({mention!r}); no answer is written so"
    if family_for_person(mention, answers, answer_label(row) == "PERSON"):
        return (f"the query's mention {mention!r} names a family; the answers name one "
                f"person: {', '.join(repr(a) for a in sorted(set(answers))[:4])}")
    repeated = repeats_neighbour(row.get("query") or "", answers)
    if repeated:
        return (f"the query writes {repeated!r} beside the placeholder and every answer "
                f"repeats it: {', '.join(repr(a) for a in sorted(set(answers))[:4])}")
    if any(fits(mention, a, before_noun) for a in answers):
        return adjectives and (adjective_for_name(mention, answers, row.get("query") or "",
                                                  before_noun)
                               or name_for_adjective(mention, answers)) or None
    forms = sorted(set(answers))
    return (f"the query's mention {mention!r} has no answer of its form: "
            f"{', '.join(repr(a) for a in forms[:4])}")
