"""The release rule `only_real_person` (issue 32): the answer is the passage's only real
person the query does not name, whatever else NER tagged PERSON. A person slot ("says
@placeholder", "@placeholder uses words such as ...") then has one filler, yet
`only_entity_of_label` stays silent because NER tags a place, a brand or a dog PERSON
("Boragaon", "Blu", "Cabela"): the finer label of that rule, as `only_country` is for
countries.

The answer is tagged PERSON (a band named like a man, "Franz Ferdinand" tagged ORG, is
left to the other rules). A real person is `fine_types.REAL_PERSON`: an alias cluster at
least half of whose mentions carry a title or are PERSON-voted names that stand free of a
longer capitalised name (or are full names opening with a known given name). On the
items of the eleven held-out readings of fresh11 to fresh20 (440 items, two labels each),
it rejects 8 items the rules released before: 10 labels trivial, 2 good, 2 ambiguous (a
place answer tagged PERSON), 2 artefact. A one-word rival that names a large city, a
country or a US state ("Glasgow" tagged PERSON) is no real person (`place_types.place_named`,
round 17).
"""
from typing import Optional

from transforms.machine_filtering.entity_types import named_in_query
from transforms.machine_filtering.fine_types import REAL_PERSON, entity_fine_types
from transforms.quality.aliases import answer_label


def only_real_person(row: dict) -> Optional[str]:
    """Why the answer (tagged PERSON, and a real person) is the only real person the query
    leaves open, or None."""
    if answer_label(row) != "PERSON":
        return None
    fine = entity_fine_types(row)
    if REAL_PERSON not in fine.get("@answer", set()):
        return None
    named = named_in_query(row)
    if any(REAL_PERSON in kinds for key, kinds in fine.items()
           if key != "@answer" and key not in named):
        return None
    others = sum(1 for key in fine if key != "@answer" and key not in named)
    return (f"the answer is the passage's only real person the query does not name "
            f"({others} other entities it does not name: none a titled or free-standing "
            f"person's name)")
