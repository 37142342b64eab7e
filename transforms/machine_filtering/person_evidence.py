"""Is a PERSON-tagged name a person? For the type votes of `only_compatible_entity`
(issue 32, `entity_types.mention_votes`).

spaCy's small model tags many one-word names PERSON that are not people: brands and
hotels ("Starwood", "Jaz", "Vib"), places ("Shoreditch", "Mallorca", "Blackburn"), clubs
("Saracens", "Wolves"), films and characters ("Maleficent", "Thor"). Counted as person
rivals they kept items a reader found trivial: "Cornell's @placeholder says" where the one
real person of the passage was the answer, the hotel brands tagged PERSON.

An entity is an unproven person when every mention is tagged PERSON, is one word, has no
given name of the lists ("Fiona" is a person), no title before it ("Mr", "President",
`TITLE_BEFORE`), no person cue in its sentence (the mention cues of `entity_types`: "X,
37,"), no speech verb right after it ("Kapranos said"), and no personal pronoun after it
in its sentence. Such an entity votes
for every label but PERSON: it is no rival for a person slot, and still a rival for any
other (an organisation, a place or a work). Measured on the candidates of fresh13 (held-out
CNN) and the real corpus: 91 of 795 PERSON-only entities are unproven; of 60 read, 39 are
no people (the names above, "Twitter", "Etihad", "Roscosmos"), 21 are: surnames alone
("Obama", "Pele", "Ramsey") and given names the lists lack ("Andy", "Sam"). Taking such a
person for no person can only reject a query, never release a wrong one. A web platform of
`PLATFORMS` ("Twitter", "Instagram") tagged PERSON is unproven whatever follows it: a
fresh22 reader found "Twitter", with a pronoun after it, the only rival of a passage's one
real person.

A name of any length tagged PERSON is a place's when the passage writes a place noun right
after it ("in the city's Sulphur Springs neighborhood", a held-out CNN story whose only
person beside the dog the query names was the vet: both readers called it trivial).
"""
import re

from transforms.curation.gender import is_given_name

PERSON_LABEL = "PERSON"
# what such a name may be instead (a people is never tagged PERSON by one word)
NOT_PERSON = frozenset({"ORG", "GPE", "LOC", "FAC", "PRODUCT", "WORK_OF_ART", "EVENT"})
TITLE_BEFORE = re.compile(
    r"\b(?:mr|mrs|ms|miss|dr|sir|dame|lord|lady|president|senator|sen|rep|gov|governor|"
    r"coach|manager|boss|captain|prof|professor|judge|minister|secretary|chancellor|king|"
    r"queen|prince|princess|pope|rev|father|sister|brother|uncle|aunt|officer|detective|"
    r"sgt|sergeant|general|gen|col|colonel|lt|major|chief|mayor|striker|midfielder|"
    r"defender|goalkeeper|singer|actor|actress|star)\.?\s+$", re.IGNORECASE)
# a speech verb right after the name ("Kapranos said so")
_SPEECH_AFTER = re.compile(r"^['’]?s?,? (?:said|says|told|tells|added|adds|wrote|writes|"
                           r"insisted|admitted|explained|recalled|argued|claimed)\b")
# web platforms and services the news names every day, never a person whatever follows
# ("slammed on Twitter after her rant": the pronoun is the user's)
PLATFORMS = frozenset({
    "twitter", "facebook", "instagram", "youtube", "snapchat", "tiktok", "reddit",
    "whatsapp", "linkedin", "tumblr", "pinterest", "vine", "periscope", "skype", "google",
    "netflix", "spotify", "uber", "airbnb", "wikipedia", "myspace", "weibo", "telegram",
    "imgur", "twitch", "tinder", "grindr", "craigslist", "ebay", "amazon", "paypal"})
_PRONOUN_AFTER = re.compile(r"^[^.!?]{0,100}\b(?:he|his|him|himself|she|her|herself)\b",
                            re.IGNORECASE)


def unproven_person(passage: str, mentions: list, cue_votes: list, person: frozenset) -> bool:
    """Every mention a one-word PERSON tag with no evidence of a person (module
    docstring); `cue_votes`: each mention's cue labels (None: no cue)."""
    if not mentions:
        return False
    for m, cue in zip(mentions, cue_votes):
        text = (m.get("text") or "").strip()
        if m.get("label") != PERSON_LABEL or len(text.split()) != 1:
            return False
        if text.strip(".'’").lower() in PLATFORMS:
            continue                     # "took to Twitter, where she ...": still no person
        if is_given_name(text.strip(".'’").lower()) or (cue is not None and cue & person):
            return False
        if TITLE_BEFORE.search(passage[max(0, m["start"] - 20):m["start"]]):
            return False
        after = passage[m["end"]:m["end"] + 120]
        if _PRONOUN_AFTER.search(after) or _SPEECH_AFTER.search(after):
            return False
    return True


# a place noun right after a name makes it a place's ("the city's Sulphur Springs
# neighborhood", "Shoreditch area"): no person's name is followed so
_PLACE_NOUN_AFTER = re.compile(
    r"^\s+(?:neighbou?rhoods?|district|suburb|borough|township|county|parish|area|region|"
    r"province|village|town|city|street|road|avenue|boulevard|square|park|station|"
    r"airport|beach|harbou?r|bay|river|lake|valley|hills?|island|peninsula)\b")


def placed_name(passage: str, mentions: list) -> bool:
    """Every mention tagged PERSON, any length, and one followed by a place noun
    (`_PLACE_NOUN_AFTER`): a place NER took for a person."""
    return bool(mentions) and all(m.get("label") == PERSON_LABEL for m in mentions) and any(
        _PLACE_NOUN_AFTER.match(passage[m["end"]:m["end"] + 20]) for m in mentions)


def person_votes(passage: str, cued: list, votes: list, person: frozenset) -> list:
    """The mentions' votes, with PERSON traded for every other label where the entity is
    an unproven person or a place's name (`placed_name`); `cued`: [(mention, its cue
    labels or None)]."""
    mentions = [m for m, _ in cued]
    if not unproven_person(passage, mentions, [c for _, c in cued], person) \
            and not placed_name(passage, mentions):
        return votes
    return [v - person | NOT_PERSON if v & person else v for v in votes]
