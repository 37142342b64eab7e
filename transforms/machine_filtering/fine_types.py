"""Fine types of passage entities, for the release rule `only_compatible_entity` (issue 32):
NER's labels are too coarse to see that a query asks for the only newspaper, award, event,
court or real person of a passage ("according to The @placeholder" / The Independent, the
passage's other ORG a club). Read, like `entity_types`, from general English, no gazetteer:

- an entity's fine types (`entity_fine_types`): any of its mentions' names ending in a head
  noun of `HEAD_NOUNS` ("... Awards", "... Court", "The Guardian", "Daily Mail"), or written
  beside a type word in the passage (`CONTEXT_HEADS`: "the Sun newspaper", "the band
  Coldplay"); a person (`REAL_PERSON`) when at least half its mentions carry a title
  ("Mr Fox") or are PERSON-voted names that are not part of a longer capitalised name
  ("Idol" of "Pop Idol" is no rival);
- a query's fine cue (`FINE_CUES`, the first that matches): "according to the
  @placeholder", "@placeholder reported" -> news media; "winners of the @placeholder",
  "won the @placeholder" -> an award or event; "@placeholder judge" -> a court; "this year's
  @placeholder" -> an event; "a pundit on @placeholder", "the @placeholder host" -> a
  broadcaster; "a quarter of the @placeholder left", "relegated from the @placeholder" ->
  a competition; "Ms @placeholder" -> a woman, "Mr @placeholder" -> a man (the answer shown
  one by a given name or a gendered title, each rival a real person not shown to be of the
  other gender), else a real person; the slot as a subject with a pronoun of it
  ("@placeholder could be jailed if he breaches", "Following his arrest, @placeholder") ->
  a man or a woman the same way, unless the query names another real person it may be.

`only_fine_entity` rejects when the cue's fine types fit the answer and no other passage
entity the query does not name itself.
"""
import collections
import re
from typing import NamedTuple, Optional

from transforms.curation.gender import FEMALE, MALE
from transforms.machine_filtering.coordination import query_gender
from transforms.machine_filtering.entity_types import (
    fits,
    mention_votes,
    named_in_query,
)
from transforms.machine_filtering.person_gender import (
    TITLE_IN,
    name_gender,
    person_genders,
    title_genders,
)
from transforms.machine_filtering.place_types import place_named
from transforms.quality.aliases import PLACEHOLDER, clusters, plain
from transforms.quality.cues import PERSON
from transforms.quality.neighbours import ROLE_WORDS

NEWS = "news_media"
AWARD = "award"
EVENT = "event"
COURT = "court"
BAND = "band"
REAL_PERSON = "real_person"
WOMAN, MAN = "woman", "man"      # a real person's gender, where the passage shows it
_OPPOSITE = {WOMAN: MAN, MAN: WOMAN}
_SEX = {FEMALE: WOMAN, MALE: MAN}


class Head(NamedTuple):
    fine: str
    pattern: re.Pattern
    reason: str


def _head(fine: str, pattern: str, reason: str) -> Head:
    return Head(fine, re.compile(pattern, re.IGNORECASE), reason)


# an entity name's last words (its head noun), or its first for "Daily X"
HEAD_NOUNS = (
    _head(NEWS, r"^(?:the )?(?:daily|sunday|evening|financial) [\w' ]+$|\b(?:times|guardian|"
                r"independent|telegraph|mirror|herald|journal|gazette|tribune|chronicle|"
                r"observer|post|express|mail|sun|standard|newspaper|magazine)$",
          "a newspaper's or magazine's name word"),
    _head(NEWS, r"\b(?:news|radio(?: \d+)?|tv|television|bbc|itv|cnn|reuters|"
                r"press association|associated press|afp)$|^(?:bbc|itv|sky|cnn)\b",
          "a broadcaster's or news agency's name word"),
    _head(AWARD, r"\b(?:awards?|prizes?|oscars?|baftas?|grammys?|emmys?|brits?|medals?|"
                 r"trophy|globes?)$", "an award's head noun"),
    _head(EVENT, r"\b(?:show|festival|cup|championships?|games|olympics|open|expo|fair|"
                 r"summit|conference|marathon|tournament|grand prix|awards|league|trophy|"
                 r"week|convention|congress)$", "an event's or competition's head noun"),
    _head(COURT, r"\b(?:court|tribunal)(?: of [\w' ]+)?$", "a court's head noun"),
)
_TYPE_WORDS = {NEWS: "newspaper|paper|tabloid|broadsheet|magazine|broadcaster|channel",
               BAND: "band|group|rock band|pop group",
               EVENT: "festival|tournament|championship|exhibition|trade show|fair|event",
               AWARD: "award|prize", COURT: "court"}
_AFTER_WORDS = {BAND: "songs?|albums?|hits|tribute band|reunion|frontman|guitarist|drummer"}
# the type word written right before ("the band Coldplay") or after ("the Sun newspaper",
# "Beatles songs")
CONTEXT_HEADS = tuple(
    (fine, re.compile(rf"\b(?:{words})(?:,)? (?:the )?$", re.IGNORECASE),
     re.compile(rf"^(?:['’]s)? (?:{words}|{_AFTER_WORDS.get(fine, words)})\b", re.IGNORECASE))
    for fine, words in _TYPE_WORDS.items())


class FineCue(NamedTuple):
    name: str
    pattern: re.Pattern
    fine: frozenset


_P = re.escape(PLACEHOLDER)


def _cue(name: str, pattern: str, *fine: str) -> FineCue:
    return FineCue(name, re.compile(pattern, re.IGNORECASE), frozenset(fine))


# a preposition before the slot makes it an object, whose pronoun is often another's ("A
# friend of @placeholder said he")
_NOT_SUBJECT = "".join(rf"(?<!\b{w} )" for w in (
    "of", "for", "to", "with", "by", "from", "at", "on", "in", "against", "about", "and"))


def _pronoun_cue(after: str, fronted: str) -> str:
    """The slot, no possessive, then one of `after` in its clause; or a fronted phrase
    with `fronted` ("Following his arrest,") and the slot right after its comma."""
    return (rf"{_NOT_SUBJECT}{_P}(?!['’])\b[^.;:!?\"“”]{{0,80}}?\b(?:{after})\b"
            rf"|^[^,.;:!?\"“”]{{0,60}}\b(?:{fronted})\b[^,.;:!?\"“”]{{0,40}}, {_P}(?!['’])\b")


FINE_CUES = (
    _cue("woman_titled", rf"\b(?:mrs|ms|miss)\.? {_P}\b", REAL_PERSON, WOMAN),
    _cue("man_titled", rf"\bmr\.? {_P}\b", REAL_PERSON, MAN),
    _cue("titled_person", rf"\b(?:mr|mrs|ms|miss|dr)\.? {_P}\b", REAL_PERSON),
    # the slot as a subject and a pronoun of it ("@placeholder could be jailed if he
    # breaches", "Following his arrest, @placeholder continued"): the person's gender
    _cue("man_pronoun", _pronoun_cue("he|his|himself", "his"), REAL_PERSON, MAN),
    _cue("woman_pronoun", _pronoun_cue("she|herself|her own", "her"), REAL_PERSON, WOMAN),
    _cue("news_source", rf"\b(?:according to|told|tells|telling|speaking to|writing in|"
                        rf"interview with|reported by|quoted by) the {_P}\b(?!['’])|"
                        rf"{_P}(?:['’]s)? (?:newspaper|paper|tabloid|reported|reports|"
                        rf"columnist|editor|reporter|journalist|front page)\b", NEWS),
    # a broadcaster's programme and people ("a pundit on @placeholder", "the @placeholder
    # host"); not "the @placeholder host city/nation"
    _cue("broadcast_role", rf"\b(?:pundit|presenter|host|commentator|analyst|anchor|guest|"
                           rf"appearing|appeared|appears|interviewed|aired|broadcast|shown|"
                           rf"televised|screened) on {_P}\b|{_P}(?:['’]s)? (?:host|presenter|"
                           rf"anchor|pundit|commentator|programme|program|documentary|"
                           rf"interview|broadcast|viewers|airwaves)\b(?! (?:city|cities|nation|"
                           rf"country|club|town|team|side|venue))", NEWS),
    _cue("award_won", rf"\b(?:winners? of|won|wins|win|winning|nominated for|nominations? "
                      rf"for|shortlisted for|scooped|picked up) (?:the |a |an |this year's "
                      rf"|last year's )?{_P}\b|{_P} (?:nominations?|nominees?|winners?|"
                      rf"ceremony|statuette)\b", AWARD, EVENT),
    _cue("court_role", rf"{_P} (?:judges?|ruled|ruling|heard|hears|jury)\b|"
                       rf"{_P}\b[^.;!?]{{0,60}}\bto hear (?:the )?(?:case|allegations?|"
                       rf"appeals?|evidence|claims?)\b|\b(?:appeal(?:ed|s)? "
                       rf"to|appear(?:ed|s|ing)? (?:at|before|in)|judge at|hearing at) "
                       rf"the {_P}\b", COURT),
    _cue("event_time", rf"\b(?:this|last|next) year['’]s {_P}\b|{_P} (?:organisers|"
                       rf"organizers|exhibitors|delegates|attendees|festival-goers)\b|"
                       rf"{_P},? (?:which|that) (?:runs|ran|takes place|took place|opens|"
                       rf"opened|starts|started|begins|began|ends|ended) (?:from|on|in|"
                       rf"until|at|this|next|last)\b|"
                       rf"\b(?:unveiled|showcased|on show|on display|launched|held) at "
                       rf"the {_P}\b", EVENT, AWARD),
    # a part or a place in a league's season ("a quarter of the @placeholder left", "the
    # bottom of the @placeholder", "relegated from the @placeholder", "the @placeholder
    # title"): a competition
    _cue("season_part", rf"\b(?:top|bottom|foot|rest|quarter|half|third|end|middle|"
                        rf"remainder) of the {_P}\b|\b(?:promoted|promotion|relegated|"
                        rf"relegation) (?:to|from|in|out of) the {_P}\b|\bthe {_P} (?:table|"
                        rf"title|season|standings|fixtures?|leaders|trophy|crown)\b", EVENT),
    _cue("band_member", rf"{_P}(?:['’]s)? (?:frontman|guitarist|drummer|bassist|"
                        rf"lead singer|singer|reunion|tour)\b|\bformer {_P}(?: "
                        rf"(?:frontman|guitarist|drummer|bassist|star|singer)\b|,| [a-z]+ed\b)",
         BAND),
)
PRONOUN_CUES = frozenset({"man_pronoun", "woman_pronoun", "query_gender"})
# the slot's sex from the whole query when no cue above gives it (`coordination.query_gender`:
# a title or role noun right before the slot, else the pronouns after it, all of one sex:
# "for @placeholder to not have ... adds to her quality of life"); read as a pronoun cue
# (a quotation's pronouns are the speaker's subjects: '@placeholder writes, "She is in need"')
_SLOT_ON = re.compile(rf"{_P}[^.;!?]{{0,60}}")
_QUOTED = re.compile(r'"[^"]*(?:"|$)|“[^”]*(?:”|$)')
# nor the head noun's, where the slot is its "of" ("a friend of @placeholder said he")
_OWNED = re.compile(rf"\bof {_P}")
# nor is an attribution's ("... a picture of @placeholder, he said")
_ATTRIBUTION = re.compile(r",? (?:he|she) (?:said|says|added|adds|told|tells|explained|"
                          r"wrote|writes|noted|recalled|insisted|claimed|stated)\b",
                          re.IGNORECASE)
_TITLED = re.compile(r"\b(?:mr|mrs|ms|miss|dr)\.?\s*$", re.IGNORECASE)


def query_fine_cue(query: str) -> Optional[FineCue]:
    text = plain(query)
    return next((c for c in FINE_CUES if c.pattern.search(text)), None)


def mention_fine(passage: str, m: dict) -> set:
    """The fine types a mention's name (`HEAD_NOUNS`) or neighbours (`CONTEXT_HEADS`) give."""
    name = plain(m.get("text") or "").strip(".,'’ ")
    out = {h.fine for h in HEAD_NOUNS if h.pattern.search(name)}
    before, after = passage[max(0, m["start"] - 40):m["start"]], passage[m["end"]:][:30]
    out |= {fine for fine, b, a in CONTEXT_HEADS if b.search(before) or a.search(after)}
    return out


_BRACKET_NOTES = frozenset("reuters xinhua left right centre center pictured above file".split())


def _embedded(passage: str, m: dict) -> bool:
    """The mention is part of a longer capitalised name ("Idol" of "Pop Idol"): the word
    right before it (not a possessive, not a sentence's first; a bracketed word after a
    capitalised one too) or right after it is capitalised."""
    window = passage[max(0, m["start"] - 60):m["start"]]
    prev = re.search(r"(\S+)\s+$", window)
    after = re.match(r"\s[A-Z][a-z]", passage[m["end"]:m["end"] + 3])
    word, lead = (prev.group(1), window[:prev.start(1)].rstrip()) if prev else ("", "")
    if re.fullmatch(r"\([A-Z][a-z]+\)", word) and re.search(r"\b[A-Z][a-z]\w*$", lead) \
            and word[1:-1].lower() not in _BRACKET_NOTES:   # "Washington (Reuters) Rex"
        word = word[1:]            # "Circuses (Scotland) Bill": a name goes on past it
    ends = len(word) > 3 and word[-1] in ".!?" and not word.isupper()   # "Sunday." ends one
    cap_prev = bool(word[:1].isupper() and lead and lead[-1] not in ".!?\"“:" and not ends
                    and not re.search(r"['’]s?$|[,;:]$", word)
                    and word.lower().rstrip(".") not in ROLE_WORDS | {"mp", "mep", "pm"})
    return cap_prev or bool(after)


def _real_person(passage: str, mentions: list, votes: list) -> bool:
    marks = [bool(_TITLED.search(passage[max(0, m["start"] - 5):m["start"]])
                  or TITLE_IN.match(m.get("text") or ""))
             or (bool(v & PERSON) and (not _embedded(passage, m)     # "Deputy Paul Rein"
                                       or name_gender(m.get("text") or "") is not None))
             for m, v in zip(mentions, votes)]
    return bool(marks) and 2 * sum(marks) >= len(marks)


def entity_fine_types(row: dict) -> dict:
    """{cluster key: set of fine types} ('@answer': the answer's)."""
    passage = row.get("passage") or ""
    votes = mention_votes(row)
    mentions = collections.defaultdict(list)
    for key, m in clusters(row):
        mentions[key].append(m)
    out, persons = {}, {}
    for key, ms in mentions.items():
        fine = set().union(*(mention_fine(passage, m) for m in ms))
        if fits(votes.get(key, []), PERSON) and _real_person(passage, ms, votes[key]) \
                and not place_named(ms):
            fine.add(REAL_PERSON)
            persons[key] = ms
        out[key] = fine
    known = person_genders(passage, persons) if persons else {}
    for key, ms in persons.items():     # a title in the name first, then `person_gender`
        shown = {_SEX[g] for g in title_genders(passage, ms)}
        out[key] |= shown or ({_SEX[known[key]]} if known.get(key) else set())
    return out


def _unless_slot(quote: re.Match) -> str:
    """A quotation is left out of the pronouns read, unless the slot is in it ("for
    @placeholder to not have ... adds to her quality of life")."""
    return quote.group(0) if PLACEHOLDER in quote.group(0) else '"'


def _said(cue: FineCue) -> set:
    """The gender a title cue itself gives the answer ("Ms @placeholder": the article
    calls the answer a woman, whatever its name shows)."""
    return cue.fine & {WOMAN, MAN} if cue.name in ("woman_titled", "man_titled") else set()


def _fits_cue(fine: set, cue: FineCue) -> bool:
    """An entity the cue's fine types fit; a gendered cue ("Ms @placeholder") fits a real
    person not shown to be of the other gender (a person of unknown gender fits)."""
    gender = next(iter(cue.fine & {WOMAN, MAN}), None)
    if gender is None:
        return bool(fine & cue.fine)
    return REAL_PERSON in fine and _OPPOSITE[gender] not in fine


def only_fine_entity(row: dict) -> Optional[str]:
    """The rejection's detail when a fine cue of the query (`FINE_CUES`, in order) fits
    the answer and no other passage entity the query does not name; else None. A gendered
    pronoun cue needs the answer shown to be of its gender ("Helen Hamilton" for "she");
    a title cue ("Ms @placeholder") says it itself (`_said`). A quotation is read only
    where it holds the slot (`_unless_slot`)."""
    text = plain(row.get("query") or "")
    own = _QUOTED.sub(_unless_slot, _ATTRIBUTION.sub("", text))   # pronouns maybe the slot's
    cues = [c for c in FINE_CUES if c.pattern.search(own if c.name in PRONOUN_CUES else text)]
    if not any(c.fine & {WOMAN, MAN} for c in cues) and not _OWNED.search(own) and (
            sex := query_gender(own)):
        cues.append(FineCue("query_gender", _SLOT_ON, frozenset({REAL_PERSON, _SEX[sex]})))
    if not cues:
        return None
    fine = entity_fine_types(row)
    answer, named = fine.get("@answer", set()), named_in_query(row)
    for cue in cues:
        if not _fits_cue(answer, cue) or not cue.fine & {WOMAN, MAN} <= answer | _said(cue):
            continue
        if any(k != "@answer" and k not in named and _fits_cue(v, cue) for k, v in fine.items()):
            continue
        if cue.name in PRONOUN_CUES and any(
                k != "@answer" and _fits_cue(v, cue) for k, v in fine.items() if k in named):
            continue      # the pronoun may be the other person's the query names
        words = cue.pattern.search(own if cue.name in PRONOUN_CUES else text).group(0)
        return (f"fine cue {cue.name} {words!r} -> {'/'.join(sorted(cue.fine))}; the answer "
                f"is the only such entity of {len(fine)} in the passage (fine types by name "
                f"and context)")
    return None


# An organisation a company slot ("@placeholder shares", "the firm @placeholder") cannot
# name: a public body, a club, a party, a court, a school, a charity; or one the passage
# shows to be a newspaper, a court, an event or a band (`entity_fine_types`)
NOT_COMPANY = re.compile(
    r"\b(?:council|police|department|ministry|agency|commission|committee|authority|"
    r"tribunal|court|university|college|school|academy|hospital|nhs|church|party|union|"
    r"association|federation|league|club|fc|afc|army|force|forces|navy|government|"
    r"parliament|congress|senate|assembly|cabinet|institute|foundation|charity|society|"
    r"organi[sz]ation|nations|bureau|service|office|board|trust|museum|guard|brigade|"
    r"regiment|fund|united|city|rovers|athletic|wanderers|albion|rangers|hotspur|"
    r"coalition|movement|brotherhood|front|army|state|republic|federal)\b", re.IGNORECASE)
# a company's own words: a legal suffix, or a company word written beside the name ("the
# retailer Tesco", "Tesco, the supermarket chain")
COMPANY_NAME = re.compile(r"\b(?:inc|ltd|llc|plc|corp|corporation|co|company|holdings|"
                          r"limited|gmbh|ag|sa|nv|estates?|airlines?|airways|motors|"
                          r"industries|enterprises|technologies)\.?$", re.IGNORECASE)
COMPANY_WORDS = ("firm|company|retailer|supermarket|chain|carmaker|manufacturer|maker|"
                  "airline|bank|lender|insurer|brand|start-up|startup|developer|builder|"
                  "operator|giant|conglomerate|publisher|owner")
COMPANY_BEFORE = re.compile(rf"\b(?:{COMPANY_WORDS})(?:,)? $", re.IGNORECASE)
COMPANY_AFTER = re.compile(rf"^(?:,? (?:the|a|an) (?:[\w-]+ ){{0,2}}(?:{COMPANY_WORDS})\b|"
                           rf"(?:['’]s)? (?:shares|shareholders|chief executive|ceo|stores)\b)",
                           re.IGNORECASE)
_NOT_COMPANY_FINE = frozenset({NEWS, COURT, EVENT, AWARD, BAND, REAL_PERSON})


def may_be_company(row: dict) -> dict:
    """{cluster key: bool}: could the entity be a company? Yes when a mention carries a
    company's own words (`COMPANY_NAME`, `COMPANY_BEFORE`/`COMPANY_AFTER`), whatever its
    label ("Evans Estates" tagged PERSON); else when it is ORG-voted and neither its name
    (`NOT_COMPANY`) nor its fine types show it to be something else."""
    passage, votes, fine = row.get("passage") or "", mention_votes(row), entity_fine_types(row)
    mentions = collections.defaultdict(list)
    for key, m in clusters(row):
        mentions[key].append(m)
    out = {}
    for key, ms in mentions.items():
        names = [plain(m.get("text") or "").strip(".,'’ ") for m in ms]
        own = any(COMPANY_NAME.search(n) for n in names) or any(
            COMPANY_BEFORE.search(passage[max(0, m["start"] - 30):m["start"]])
            or COMPANY_AFTER.search(passage[m["end"]:m["end"] + 40]) for m in ms)
        other = any(NOT_COMPANY.search(n) for n in names) or fine.get(key, set()) & \
            _NOT_COMPANY_FINE
        out[key] = own or (fits(votes.get(key, []), frozenset({"ORG"})) and not other)
    return out
