"""Grammatical gender of person mentions, for coreference (paper section 3.1).

A "Mrs Phillips" must never be answered by "Ronald Phillips", her husband; a "Mr Kelly"
never by "Mary Kelly". Gender is known only from what the article writes:
- a title or a kinship or role noun right before the mention (`gender_cue`): "Mrs",
  "Ms", "Miss", "Lady", "Queen"; "Mr", "Sir", "Lord", "King"; "his wife June Phillips",
  "her husband Ronald", "mother Chloe King" (an apposition comma may stand between);
- a spouse named through the mention's possessive (`spouse_cue`): "Sterling's wife" is
  a man's wife, "Smith's husband" a woman's husband;
- a given name that is used for one sex only (`given_name_gender`): a short list of
  common English-language given names, written for this rule; a name not in it is
  unknown.
Nothing else (no pronoun, no guess): what the text does not say stays unknown, and an
unknown gender never blocks a link. Pure functions; no Beam.
"""
import re
from typing import Iterable, Optional

MALE, FEMALE = "m", "f"

MALE_TITLES = frozenset({
    "mr", "messrs", "sir", "lord", "king", "prince", "duke", "earl", "baron", "emperor",
    "tsar", "czar", "sultan", "sheikh", "marquess", "viscount", "count",
})
FEMALE_TITLES = frozenset({
    "mrs", "ms", "miss", "lady", "dame", "queen", "princess", "duchess", "countess",
    "baroness", "empress", "tsarina", "madam", "madame", "mme", "mlle", "marchioness",
    "viscountess",
})
MALE_NOUNS = frozenset({
    "husband", "father", "son", "brother", "boyfriend", "grandfather", "grandson",
    "uncle", "nephew", "fiance", "fiancé", "dad", "daddy", "stepfather", "stepson",
    "widower", "groom", "bridegroom", "businessman", "spokesman", "chairman",
    "congressman", "councilman", "sportsman", "actor", "waiter", "boy", "man",
})
FEMALE_NOUNS = frozenset({
    "wife", "mother", "daughter", "sister", "girlfriend", "grandmother", "granddaughter",
    "aunt", "niece", "fiancee", "fiancée", "mum", "mom", "mummy", "mommy", "stepmother",
    "stepdaughter", "widow", "bride", "businesswoman", "spokeswoman", "chairwoman",
    "congresswoman", "councilwoman", "sportswoman", "actress", "waitress", "girl", "woman",
    "heiress", "hostess", "schoolgirl", "mother-of-two", "mother-of-three",
})
# Common given names used for one sex only (unisex names such as "Jordan", "Alex",
# "Chris", "Sam", "Jamie", "Leslie", "Kelly", "Robin" are left out on purpose).
MALE_NAMES = frozenset("""
aaron adam adrian ahmed alan albert alexander alfred ali andrew angus anthony antonio
arnold arthur barack barry ben benjamin bernard bill billy bob bobby boris brad bradley
brandon brendan brian bruce bryan calvin carl carlos charles charlie christian
christopher clarence clive colin craig dale daniel danny darren dave david dean dennis
derek diego dominic don donald doug douglas duncan dylan eddie edward eric ernest eugene
frank franklin fred frederick gary gareth gavin geoffrey george gerald gordon graham
greg gregory harold harry harvey henry howard hugh hugo ian ivan jack jacob jake james
jason jeff jeffrey jeremy jerry jim jimmy joe joel john johnny jonathan jose joseph
joshua juan justin keith ken kenneth kevin kurt larry lawrence lee leonard lewis liam
luis luke malcolm marcus mario mark martin matt matthew michael mike mitchell mohammed
muhammad nathan neil nicholas nick nigel noah oliver oscar owen patrick paul pedro peter
philip phillip ralph randy ray raymond richard rick robert rodney roger ron ronald roy
russell ryan samuel scott sean sebastian simon stanley stephen steve steven stuart ted
terry thomas tim timothy todd tom tommy tony trevor victor vincent walter wayne william
andre anton bruno caleb conor connor dmitry edgar elijah emil ethan felix gerard giovanni
hector igor isaac jorge julian karl lionel lloyd louis manuel marco miguel mohamed
nelson norman omar pablo rafael ricardo roberto rodrigo rupert sergei sergio vladimir
wesley zachary
""".split())
FEMALE_NAMES = frozenset("""
abigail alice alison amanda amber amy andrea angela angelina ann anna anne annie april
barbara beth betty beverly brenda bridget brittany carol caroline carolyn catherine
charlotte cheryl chloe christina christine claire clare cynthia daisy dana deborah debra
denise diana diane donna doris dorothy eleanor elizabeth ella ellen emily emma erin
eva evelyn fiona florence frances gemma gillian gloria grace hannah hayley heather helen
hillary holly irene isabel isabella jacqueline jane janet janice jean jennifer jenny
jessica jill joan joanne josephine joyce judith judy julia julie june karen kate
katherine kathleen kathryn katie katy kim kimberly kirsty laura lauren linda lisa lois
louise lucy lydia lynn madeleine maggie margaret maria marie marilyn martha mary megan
melanie melissa michelle monica nancy natalie nicola nicole olivia pamela patricia
paula pauline penny rachel rebecca rose ruby ruth sally samantha sandra sarah sharon
sheila shirley sophie stephanie sue susan suzanne tammy teresa theresa tina tracy
valerie vanessa victoria virginia wendy yvonne zoe
beatrice camilla carmen danielle esther gabrielle gina harriet heidi jasmine kayla
kristen leah lena mia michele molly naomi natasha nora olga rachael rita rochelle rosa
sabrina serena shelley shelly sheryl sonia stacey sylvia tamara tanya tiffany ursula
vera whitney yolanda
""".split())

_BEFORE = re.compile(r"([A-Za-z][\w'’.-]*)\.?,?\s+$")
_SKIP = frozenset({"his", "her", "their", "the", "a", "an", "my", "our", "your", "whose",
                   "former", "late", "new", "estranged", "young", "older", "elder",
                   "younger", "then", "ex", "first", "second"})


def word_gender(word: str) -> Optional[str]:
    """The gender a title or kinship noun gives the name after it, if any."""
    w = word.lower().rstrip(".").replace("’", "'")
    if w in MALE_TITLES or w in MALE_NOUNS:
        return MALE
    if w in FEMALE_TITLES or w in FEMALE_NOUNS:
        return FEMALE
    return None


def _word_before_end(head: str):
    """`_BEFORE.search(head)`, tried only from the last word before the trailing spaces:
    a match holds no space before them, so it cannot start earlier."""
    j = len(head.rstrip())
    while j > 0 and not head[j - 1].isspace():
        j -= 1
    return _BEFORE.search(head, j)


def gender_cue(text: str, start: int, max_words: int = 3) -> Optional[str]:
    """The gender the words right before a mention at `start` give it: "Mrs Phillips",
    "his wife, June Phillips", "her late husband Ronald" (up to `max_words` back, past
    possessives and adjectives such as "his", "late", "former")."""
    head = text[max(0, start - 80):start]
    for _ in range(max_words):
        m = _word_before_end(head)
        if not m:
            return None
        g = word_gender(m.group(1))
        if g:
            return g
        if m.group(1).lower() not in _SKIP:
            return None
        head = head[:m.start()]
    return None


# "Sterling's wife", "Smith's late husband": the owner is the spouse of the other sex
_SPOUSE_AFTER = re.compile(r"['’]s? (?:late |former |estranged |ex-|new )?"
                           r"(wife|widow|husband|widower)\b")
_SPOUSE_OF = {"wife": MALE, "widow": MALE, "husband": FEMALE, "widower": FEMALE}


def spouse_cue(text: str, end: int) -> Optional[str]:
    """The gender a spouse noun after the mention's possessive gives its owner:
    "after Sterling's wife sued her" -> "m", "Mrs Smith's husband" -> "f". Only spouse
    nouns: "Smith's daughter", "Smith's mother" say nothing of Smith."""
    m = _SPOUSE_AFTER.match(text, end)
    return _SPOUSE_OF[m.group(1)] if m else None


def mention_cue(text: str, start: int, end: int) -> Optional[str]:
    """A mention's gender cue: the words before it (`gender_cue`), else a spouse noun
    after its possessive (`spouse_cue`)."""
    return gender_cue(text, start) or spouse_cue(text, end)


def given_name_gender(name: str) -> Optional[str]:
    """The gender of a full name's given name when the list knows it ("ronald
    phillips" -> "m"); None for one word or an unknown given name."""
    words = name.split()
    if len(words) < 2:
        return None
    first = words[0].strip(".'").lower()
    if first in MALE_NAMES:
        return MALE
    if first in FEMALE_NAMES:
        return FEMALE
    return None


def is_given_name(word: str) -> bool:
    """A given name of the lists ("steve", "victoria"), for one sex or the other."""
    w = word.strip(".'").lower()
    return w in MALE_NAMES or w in FEMALE_NAMES


def agreed(cues: Iterable[Optional[str]]) -> Optional[str]:
    """One gender when every known cue agrees, else None (none known, or a conflict)."""
    known = {c for c in cues if c}
    return known.pop() if len(known) == 1 else None


def compatible(a: Optional[str], b: Optional[str]) -> bool:
    """Two genders can be one person: equal, or either unknown."""
    return a is None or b is None or a == b
