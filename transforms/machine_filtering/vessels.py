"""Names NER tagged PERSON that the passage calls a vessel or a programme ("the ship Queen
Mary", "the Thames barge Cambria", "the Cambria barge", "the show Gogglebox"): no person,
for `entity_types.mention_votes` (release rule `only_compatible_entity`). Pure functions;
no Beam."""
import re

# a PERSON-tagged name the passage calls a vessel or a programme ("the ship Queen Mary",
# "the Thames barge Cambria", "the Cambria barge", "the show Gogglebox"): no person
_THING = ("ship|vessel|boat|barge|yacht|ferry|tanker|liner|submarine|warship|trawler|"
          "steamer|schooner|show|programme|program|series|sitcom|soap|documentary")
# (after a determiner or a modifier, capitalised words between: "the Thames sailing barge";
# "the documents show Bates" is a verb)
_MOD = (r"(?:the|a|an|its|their|tv|hit|reality|chat|talk|quiz|comedy|cruise|sailing|cargo|"
        r"container|fishing|research|naval|navy|royal|[\w-]+['’]s)")
THING_BEFORE = re.compile(rf"\b(?i:{_MOD}) (?:(?:[A-Z][\w'’-]*|(?i:{_MOD})) ){{0,2}}"
                          rf"(?i:{_THING})(?: [A-Z][\w'’-]+)?,?(?: the)? $")
THING_AFTER = re.compile(rf"^ (?:{_THING})\b", re.IGNORECASE)
_THE = re.compile(r"\bthe $", re.IGNORECASE)


def called_a_thing(passage: str, mention: dict) -> bool:
    """Whether the passage calls this mention a vessel or a programme: the noun before it
    after a determiner or modifier ("the cruise ship X"), or after it with "the" before
    ("the X barge")."""
    start, end = mention["start"], mention["end"]
    return bool(THING_BEFORE.search(passage[max(0, start - 40):start])
                or THING_AFTER.match(passage[end:end + 20])
                and _THE.search(passage[max(0, start - 4):start]))
