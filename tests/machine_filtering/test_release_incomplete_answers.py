"""The release rules `incomplete_answers` and (opt-in) `only_entity_of_label`: a passage mention that names the answer too (its
name words a subset or superset of an answer mention's) but is not in the answer set
keeps the item out of the release. Rows built from real BBC text
(../shared/corpus/bbc_news/politics/150.txt, quoted)."""
import pytest

from tests.fixtures.item_rows import row
from transforms.machine_filtering.release_rules import ReleaseConfig, check_row

pytestmark = pytest.mark.fast

TEXT = ("Mrs Hassan, 59, who led Care International operations in Iraq, was abducted in "
        "Baghdad on 19 October. She also urged Care International, the aid agency she works "
        "for, to close its office in Baghdad. Care has since closed down all its operations "
        "in Iraq.\n@highlight\nGeorge Galloway appeals for aid worker's release")
ENTS = [("Hassan", "PERSON"), ("Care International", "ORG"), ("Care", "ORG"),
        ("Iraq", "GPE"), ("Baghdad", "GPE"), ("George Galloway", "PERSON")]
QUERY = "A spokesman said @placeholder staff had left the country."
ONLY = ReleaseConfig(answer_in_query=False, list_line=False, copied_context=False,
                     only_compatible_entity=False, article_agreement=False,
                     shared_role_word=False, restates_words=False, neighbour_word=False,
                     capital_rival=False, only_entity_of_label=False)


def test_a_left_out_mention_of_the_answer_keeps_the_item_out():
    rejected = check_row(row(TEXT, QUERY, "Care International", ENTS), ONLY)
    assert rejected is not None and rejected.reason == "incomplete_answers"
    assert "'Care'" in rejected.detail


def test_the_whole_answer_set_or_the_rule_off_lets_it_pass():
    assert check_row(row(TEXT, QUERY, "Care International", ENTS, aliases=("Care",)),
                     ONLY) is None
    off = ReleaseConfig(**{**ONLY.__dict__, "incomplete_answers": False})
    assert check_row(row(TEXT, QUERY, "Care International", ENTS), off) is None


def test_a_place_is_not_a_left_out_mention_of_a_person():
    text = TEXT.replace("Baghdad on", "Hassan Province on")
    ents = ENTS + [("Hassan Province", "GPE")]
    assert check_row(row(text, QUERY, "Hassan", ents), ONLY) is None


def test_the_lone_entity_of_its_label_is_rejected_only_when_asked():
    r = row(TEXT, QUERY, "Care International", ENTS, aliases=("Care",))
    assert check_row(r, ONLY) is None                     # off by default
    on = ReleaseConfig(**{**ONLY.__dict__, "only_entity_of_label": True})
    rejected = check_row(r, on)
    assert rejected.reason == "only_entity_of_label" and "only ORG entity" in rejected.detail
    assert ReleaseConfig().only_entity_of_label is True


# bbc_news/business (the UPS order for Airbus planes), quoted and shortened
PLANES = ("UPS said it was cutting a previous order for smaller Airbus A300s from 90 planes to "
          "53. So far, Airbus has delivered 40 A300s to UPS. The A300 will stay in its fleet "
          "until 2020, UPS said.")
PLANES_ENTS = [("UPS", "ORG"), ("Airbus", "ORG"), ("A300s", "PRODUCT"), ("A300", "PRODUCT")]


def test_a_model_designation_and_its_plural_are_one_name():
    query = "The @placeholder fleet will be retired when the A380 deliveries begin."
    one = row(PLANES, query, "A300s", PLANES_ENTS)
    why = check_row(one, ONLY)
    assert why is not None and why.reason == "incomplete_answers" and "'A300'" in why.detail
    both = row(PLANES, query, "A300s", PLANES_ENTS, aliases=("A300",))
    assert check_row(both, ONLY) is None


# ../shared/corpus/bbc_news/business/250.txt (quoted; "Hewlett" as NER's cut of the name)
LENOVO = ("But Western firms such as Dell and Hewlett-Packard are also mounting a more solid "
          "fight for market share in China. Hewlett said its sales grew.")
LENOVO_ENTS = [("Dell", "ORG"), ("Hewlett-Packard", "ORG"), ("China", "GPE"),
               ("Hewlett", "ORG")]


def test_an_answer_cut_at_a_hyphen_leaves_the_whole_name_out():
    query = "@placeholder is mounting a fight for market share in China."
    why = check_row(row(LENOVO, query, "Hewlett", LENOVO_ENTS), ONLY)
    assert why is not None and why.reason == "incomplete_answers"
    assert "'Hewlett-Packard'" in why.detail
    both = row(LENOVO, query, "Hewlett", LENOVO_ENTS, aliases=("Hewlett-Packard",))
    assert check_row(both, ONLY) is None
    # a people's or a place's hyphenated compound is another entity, not the answer's name
    text = ("Many African-American voters backed him. American voters overall were split "
            "over Guinea-Bissau and Guinea.")
    ents = [("African-American", "NORP"), ("American", "NORP"), ("Guinea-Bissau", "GPE"),
            ("Guinea", "GPE")]
    from transforms.quality.flags import incomplete_answers
    assert incomplete_answers(row(text, "@placeholder voters were split.", "American", ents)) \
        is None
    assert incomplete_answers(row(text, "Aid went to @placeholder.", "Guinea", ents)) is None
