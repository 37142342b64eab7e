"""Release rule `only_country` (issue 32): the answer the passage's only country the query
does not name. Text reshaped from held-out CNN stories (names kept); pure rules, no Beam."""
import pytest

from tests.fixtures.item_rows import row
from transforms.machine_filtering.query_names import only_country
from transforms.machine_filtering.release_rules import ReleaseConfig, check_row

pytestmark = pytest.mark.fast

CUBA = ("Alan Gross was freed by Cuba on Wednesday. The U.S. contractor had been held in "
        "Havana for five years, his lawyer Scott Gilbert said.")
CUBA_ENTS = [("Alan Gross", "PERSON"), ("Cuba", "GPE"), ("U.S.", "GPE"), ("Havana", "GPE"),
             ("Scott Gilbert", "PERSON")]
QUERY = "The swap coincided with a change in @placeholder policy toward Cuba."
ONLY = ReleaseConfig(only_entity_of_label=False, only_compatible_entity=False,
                     capital_rival=False, place_rival=False)


def test_the_only_country_the_query_does_not_name_is_rejected():
    r = row(CUBA, QUERY, "U.S.", CUBA_ENTS)
    assert "only country" in only_country(r)
    why = check_row(r, ONLY)
    assert why is not None and why.reason == "only_country"
    assert check_row(r, ReleaseConfig(**{**ONLY.__dict__, "only_country": False})) is None


def test_another_country_or_an_answer_that_is_none_keeps_the_query():
    two = row(CUBA + " Mexico welcomed the deal.", QUERY, "U.S.",
              CUBA_ENTS + [("Mexico", "GPE")])
    assert only_country(two) is None
    # the country the query names is no rival, but one it does not name is
    assert only_country(row(CUBA, "A change in @placeholder policy was announced.", "U.S.",
                            CUBA_ENTS)) is None
    # a city, a person: no verdict
    assert only_country(row(CUBA, "He had been held in @placeholder for five years.",
                            "Havana", CUBA_ENTS)) is None
    assert only_country(row(CUBA, "@placeholder said so.", "Scott Gilbert", CUBA_ENTS)) is None
