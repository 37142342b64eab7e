"""A role noun glued to the front of a person's name (issue 32, item 2): "Creator Phillip
Hyman", "Terrorist Seifeddine Rezgui", "Founder Jane Doe" where a sentence or a highlight
opens, the role capitalised only because it opens it. The model tags role and name as one
PERSON span; the answer is the name. Titles (`names.TITLE_NOUNS`: "Coach", "President")
are stripped by `entities.strip_title` already; these are the roles that are no title.
Pure function, no Beam."""
from typing import Callable, List, Tuple

# what a person is or does, written before the name where a sentence opens
ROLE_NOUNS = frozenset({
    "terrorist", "prisoner", "inmate", "comedian", "gunman", "killer", "murderer",
    "teenager", "schoolgirl", "schoolboy", "student", "toddler", "soldier", "victim",
    "suspect", "survivor", "mother", "mum", "dad", "grandmother", "grandfather", "wife",
    "husband", "widow", "veteran", "driver", "teacher", "pensioner", "businessman",
    "businesswoman", "millionaire", "billionaire", "tycoon", "chef", "author", "writer",
    "journalist", "photographer", "blogger", "celebrity", "creator", "founder",
    "co-founder", "cofounder", "director", "producer", "owner", "entrepreneur",
    "activist", "campaigner", "filmmaker", "novelist", "poet", "artist", "economist",
    "analyst", "scientist", "researcher", "astronaut", "rider", "cyclist", "boxer",
    "golfer", "swimmer", "sprinter", "climber", "fighter", "referee", "umpire",
})
MIN_WORDS = 3      # the role and a name of two words: "Founder Smith" may be a surname


def strip_role_noun(text: str, start: int, end: int, label: str, at_sentence_start: bool,
                    words_of: Callable[[str, int, int], List[Tuple[int, int]]]) -> int:
    """The start of a person's name without the role noun that opens its sentence
    ("Creator Phillip Hyman" -> "Phillip Hyman"): a PERSON span of `MIN_WORDS` words or
    more at a sentence's start whose first word is in `ROLE_NOUNS`, the next capitalised."""
    words = words_of(text, start, end)
    if not at_sentence_start or label != "PERSON" or len(words) < MIN_WORDS:
        return start
    first, second = (text[s:e] for s, e in words[:2])
    if first.lower() in ROLE_NOUNS and first[:1].isupper() and second[:1].isupper():
        return words[1][0]
    return start
