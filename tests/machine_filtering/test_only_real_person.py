"""Release rule `only_real_person` (issue 32): the answer the passage's only real person,
whatever else NER tagged PERSON; CNN text of ../shared/corpus/cnndm_test250.jsonl (the
Nepal earthquake rescues, quoted and shortened)."""
import pytest

from tests.fixtures.item_rows import row
from transforms.machine_filtering.real_person import only_real_person
from transforms.machine_filtering.release_rules import ReleaseConfig, check_row

pytestmark = pytest.mark.fast

KEISI = ("Jon Keisi was buried for more than 60 hours under the wreckage of a seven-story "
         "building in Kathmandu that came tumbling down around him during the quake. "
         "Rescuers flown in from Turkey carved a tunnel deep into the debris to reach Keisi."
         "\n@highlight\nA man is pulled alive from the rubble in Kathmandu")
# NER's slip: the city tagged PERSON, so the passage has two PERSON entities
KEISI_ENTS = [("Jon Keisi", "PERSON"), ("Keisi", "PERSON"), ("Kathmandu", "PERSON"),
              ("Turkey", "GPE")]
QUERY = "@placeholder spent the night talking to the rescuers through a gap in the concrete."


def test_the_only_real_person_beside_a_place_tagged_person_is_rejected():
    r = row(KEISI, QUERY, "Jon Keisi", KEISI_ENTS, aliases=("Keisi",))
    assert "only real person" in only_real_person(r)
    why = check_row(r)
    assert why is not None and why.reason == "only_real_person"
    assert check_row(r, ReleaseConfig(only_real_person=False)) is None


def test_another_real_person_is_a_rival_unless_the_query_names_him():
    text = KEISI.replace("to reach Keisi.", "to reach Keisi, said their leader, Mr Mehmet "
                         "Yilmaz.")
    ents = KEISI_ENTS + [("Mehmet Yilmaz", "PERSON")]
    r = row(text, QUERY, "Jon Keisi", ents, aliases=("Keisi",))
    assert only_real_person(r) is None and check_row(r) is None
    named = row(text, "Mehmet Yilmaz said @placeholder was lucky to be alive.", "Jon Keisi",
                ents, aliases=("Keisi",))
    assert "only real person" in only_real_person(named)


def test_an_answer_that_is_no_real_person_is_left_to_the_other_rules():
    r = row(KEISI, "Rescuers from @placeholder carved a tunnel.", "Turkey", KEISI_ENTS)
    assert only_real_person(r) is None


def test_a_large_city_tagged_person_is_no_rival():
    # a held-out BBC story: "Glasgow" tagged PERSON, read a real person (a pronoun after
    # "the Glasgow housing estate from which he operated"); here Kathmandu the same way
    from transforms.machine_filtering.entity_types import fits, mention_votes
    from transforms.machine_filtering.fine_types import REAL_PERSON, entity_fine_types
    from transforms.machine_filtering.place_types import place_named
    from transforms.quality.cues import PERSON
    text = KEISI.replace("building in Kathmandu that", "building that").replace(
        "rubble in Kathmandu", "rubble").replace(
        "Rescuers flown", "Keisi was pulled out near the Kathmandu housing estate where he "
        "lived. Rescuers flown")
    r = row(text, QUERY, "Jon Keisi", KEISI_ENTS, aliases=("Keisi",))
    # voted a person by its context, yet the shared fine types (the gendered cues read them
    # too) call no large city a real person
    assert fits(mention_votes(r)["kathmandu"], PERSON)
    assert REAL_PERSON not in entity_fine_types(r)["kathmandu"]
    assert "only real person" in only_real_person(r)
    assert place_named([{"text": "Glasgow"}]) and place_named([{"text": "Kathmandu"}])
    # a name borne as a given name too ("Hamilton", a city of 570,000 in Ontario), or a
    # two-word name, stays a person
    assert not place_named([{"text": "Hamilton"}])
    assert not place_named([{"text": "Martin Hamilton"}, {"text": "Hamilton"}])


def test_a_bill_s_last_word_after_a_bracket_is_no_rival():
    # fresh26 (BBC): "Bill" of "... Travelling Circuses (Scotland) Bill" tagged PERSON was
    # read as a real person beside the circus owner
    text = ("Martin Burton runs a circus in Edinburgh. The Wild Animals in Travelling Circuses "
            "(Scotland) Bill was passed by Holyrood on Tuesday. Mr Burton said he was sad."
            "\n@highlight\nA ban on wild animals in circuses is passed")
    ents = [("Martin Burton", "PERSON"), ("Burton", "PERSON"), ("Bill", "PERSON"),
            ("Holyrood", "PERSON"), ("Edinburgh", "GPE")]
    r = row(text, "Mr @placeholder has toured with his circus for 30 years.", "Martin Burton",
            ents, aliases=("Burton",))
    assert "only real person" in only_real_person(r)
    credit = text.replace("Circuses (Scotland) Bill", "circuses. London (Reuters) Bill Jones")
    ents = ents[:2] + [("Bill Jones", "PERSON")] + ents[3:]
    assert only_real_person(row(credit, r["query"], "Martin Burton", ents,
                                aliases=("Burton",))) is None
