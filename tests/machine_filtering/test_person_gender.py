"""A real person's gender for the gendered cues of `only_compatible_entity`
(`person_gender.py`, issue 32), on CNN text of ../shared/corpus/cnndm_test250.jsonl
(the Nepal earthquake rescues, quoted and shortened)."""
import pytest

from tests.fixtures.item_rows import row
from transforms.curation.gender import FEMALE, MALE
from transforms.machine_filtering import fine_types
from transforms.machine_filtering.person_gender import (
    name_gender,
    name_table,
    person_genders,
    pronoun_evidence,
)
from transforms.machine_filtering.release_rules import ReleaseConfig, check_row

pytestmark = pytest.mark.fast

RESCUE = ("Tanka Maya Sitoula, a 40-year-old mother of four, was at home in Kathmandu when "
          "the earthquake shook the city, bringing the five-story building down around her "
          "ground-floor apartment. Jon Keisi was buried for more than 60 hours under the "
          "wreckage of a seven-story building in Kathmandu that came tumbling down around "
          "him during the quake. Rescuers flown in from Turkey carved a tunnel to reach "
          "Keisi.\n@highlight\nA French rescue team finds Rishi Khanal more than three days "
          "after the quake")
RESCUE_ENTS = [("Tanka Maya Sitoula", "PERSON"), ("Sitoula", "PERSON"), ("Kathmandu", "GPE"),
               ("Jon Keisi", "PERSON"), ("Keisi", "PERSON"), ("Turkey", "GPE"),
               ("French", "NORP"), ("Rishi Khanal", "PERSON")]
# the slot's sex only from a possessive after it: no cue of FINE_CUES reads it
QUERY = ("It took 36 hours before an Indian team reached @placeholder and freed her from "
         "the rubble of her home.")


def test_given_names_beyond_the_lists_come_from_the_name_statistics():
    assert name_gender("Andy Rickell") == MALE           # not in the project's lists
    assert name_gender("Katie Thorpe") == FEMALE         # in them
    assert name_gender("Hamid Nawaz") == MALE
    assert name_gender("Jordan Henderson") is None       # borne by both sexes (89% men)
    assert name_gender("Andy") is None                   # one word: maybe a surname
    assert name_gender("Zzqx Smith") is None             # a name nobody bears
    # titles and role words go first (the statistics give "judge" and "dr" a sex too)
    assert name_gender("Judge Sarah Smith") == FEMALE
    assert name_gender("Dr Andy Smith") == MALE
    assert name_gender("Dr Smith") is None and name_gender("Captain Smith") is None
    table = name_table()
    assert len(table) > 20000 and set(table.values()) == {MALE, FEMALE}


def test_pronouns_after_the_only_person_of_a_sentence():
    passage = RESCUE
    persons = {"sitoula": [{"start": 0, "end": 18}],
               "keisi": [{"start": passage.index("Jon Keisi"), "end": passage.index("Jon Keisi") + 9}]}
    assert pronoun_evidence(passage, persons) == {"sitoula": FEMALE, "keisi": MALE}
    # one sentence naming both: its pronouns are nobody's
    both = "Jon Keisi said Tanka Maya Sitoula lost her home."
    two = {"keisi": [{"start": 0, "end": 9}], "sitoula": [{"start": 15, "end": 33}]}
    assert pronoun_evidence(both, two) == {}
    # pronouns of both sexes after one name: unknown
    mixed = "Tanka Maya Sitoula said his rescuers reached her at dawn."
    assert pronoun_evidence(mixed, {"sitoula": [{"start": 0, "end": 18}]}) == {}
    # the pronouns after the name, not inside it ("Li He")
    assert pronoun_evidence("Li He said she had left.", {"li": [{"start": 0, "end": 5}]}) \
        == {"li": FEMALE}
    # a title before a mention comes first ("Mr" against her pronouns)
    titled = "Mr Tanka Maya Sitoula lost her home."
    assert person_genders(titled, {"s": [{"start": 3, "end": 21}]}) == {"s": MALE}


def test_the_only_woman_of_the_passage_for_a_query_that_makes_the_slot_a_woman():
    one = row(RESCUE, QUERY, "Tanka Maya Sitoula", RESCUE_ENTS, aliases=("Sitoula",))
    why = check_row(one)
    assert why is not None and why.reason == "only_compatible_entity"
    assert "query_gender" in why.detail and "woman" in why.detail
    assert check_row(one, ReleaseConfig(only_compatible_entity=False)) is None
    # another woman in the passage: both fit, the query is kept
    other = RESCUE.replace("after the quake", "after the quake, and Sunita Tamang was "
                           "pulled out alive from her house")
    two = row(other, QUERY, "Tanka Maya Sitoula", RESCUE_ENTS + [("Sunita Tamang", "PERSON")],
              aliases=("Sitoula",))
    assert fine_types.only_fine_entity(two) is None
    genders = fine_types.entity_fine_types(two)
    assert "woman" in genders["sunita tamang"] and "man" in genders["rishi khanal"]
    # a man's slot answered by one of two men: kept
    his = row(RESCUE, QUERY.replace("her", "him", 1).replace("her home", "his home"),
              "Jon Keisi", RESCUE_ENTS, aliases=("Keisi",))
    assert fine_types.only_fine_entity(his) is None
    # the slot as another noun's "of": the pronoun is that noun's
    friend = row(RESCUE, "A friend of @placeholder said her family had been found.",
                 "Tanka Maya Sitoula", RESCUE_ENTS, aliases=("Sitoula",))
    assert fine_types.only_fine_entity(friend) is None


def test_a_query_naming_another_woman_leaves_its_pronouns_unread():
    # "her" may be Sunita Tamang's, whom the query names; Jon Keisi, a man, cannot own it
    text = RESCUE.replace("after the quake", "after the quake, and Sunita Tamang was "
                          "pulled out alive")
    ents = RESCUE_ENTS + [("Sunita Tamang", "PERSON")]
    query = "Sunita Tamang said @placeholder was freed from the rubble of her home."
    one = row(text, query, "Tanka Maya Sitoula", ents, aliases=("Sitoula",))
    assert fine_types.only_fine_entity(one) is None
    man = row(RESCUE, query.replace("Sunita Tamang", "Jon Keisi"), "Tanka Maya Sitoula",
              RESCUE_ENTS, aliases=("Sitoula",))
    assert "woman" in fine_types.only_fine_entity(man)


def test_pronouns_inside_a_quotation_are_not_the_slot():
    query = ('On the fundraising page, @placeholder writes, "She is in desperate need of '
             'extensive medical procedures to fix her jaw.')
    one = row(RESCUE, query, "Tanka Maya Sitoula", RESCUE_ENTS, aliases=("Sitoula",))
    assert fine_types.only_fine_entity(one) is None
    unquoted = row(RESCUE, query.replace('"', ""), "Tanka Maya Sitoula", RESCUE_ENTS,
                   aliases=("Sitoula",))
    assert fine_types.only_fine_entity(unquoted) is not None     # a woman_pronoun cue


def test_an_attribution_pronoun_is_the_speaker_not_the_slot():
    query = ("Rescuers pulled @placeholder out after 36 hours in the rubble of the city, "
             "she said.")
    one = row(RESCUE, query, "Tanka Maya Sitoula", RESCUE_ENTS, aliases=("Sitoula",))
    assert fine_types.only_fine_entity(one) is None
    own = row(RESCUE, query.replace(", she said.", " with her family."), "Tanka Maya Sitoula",
              RESCUE_ENTS, aliases=("Sitoula",))
    assert "query_gender" in fine_types.only_fine_entity(own)
