"""The release rule `coordinated_rival` (transforms/machine_filtering/coordination.py): the
passage names the answer only in a list with another entity of its label, so both fit.
Rows built from real text of ../shared/corpus (cnndm_test250 123763e6..., a Daily Mail
story; the last sentence from the F1 story's highlight of the real-corpus build, quoted)."""
import pytest

from tests.fixtures.item_rows import row
from transforms.machine_filtering.coordination import (
    coordinated_rival,
    entity_lists,
    query_gender,
)
from transforms.machine_filtering.release_rules import ReleaseConfig, check_row

pytestmark = pytest.mark.fast

TEXT = ("The 'special relationship' between Britain and the US was strong under Margaret "
        "Thatcher and Ronald Reagan. When Cameron visited the White House in January, he "
        "insisted the President had said the special relationship was 'stronger than it has "
        "ever been'. Winston Churchill first coined the phrase 'special relationship' in a "
        "speech in 1944 in Fulton, Missouri.\n@highlight\nMcLaren endured another difficult "
        "day with Jenson Button and Fernando Alonso only 17th and 18th on the grid")
ENTS = [("Britain", "GPE"), ("US", "GPE"), ("Margaret Thatcher", "PERSON"),
        ("Ronald Reagan", "PERSON"), ("Cameron", "PERSON"), ("White House", "ORG"),
        ("Winston Churchill", "PERSON"), ("Fulton", "GPE"), ("Missouri", "GPE"),
        ("McLaren", "ORG"), ("Jenson Button", "PERSON"), ("Fernando Alonso", "PERSON")]
OFF = {name: False for name in ReleaseConfig.__dataclass_fields__
       if isinstance(getattr(ReleaseConfig(), name), bool)}
ONLY = ReleaseConfig(**{**OFF, "coordinated_rival": True})


def test_lists_need_an_and_or_or_not_a_bare_comma():
    r = row(TEXT, "@placeholder said so.", "Britain", ENTS)
    lists = [[e["text"] for e in chain] for chain in entity_lists(r["passage"],
                                                                  r["entities"])]
    assert ["Margaret Thatcher", "Ronald Reagan"] in lists
    assert ["Jenson Button", "Fernando Alonso"] in lists
    assert ["Fulton", "Missouri"] not in lists      # a town and its state, not a list


def test_an_answer_named_only_beside_a_rival_is_rejected():
    r = row(TEXT, "A naturally disappointed @placeholder said: 'The car didn't feel bad.'",
            "Jenson Button", ENTS)
    assert "'fernando alonso'" in coordinated_rival(r)
    why = check_row(r, ONLY)
    assert why is not None and why.reason == "coordinated_rival"
    assert check_row(r, ReleaseConfig(**{**ONLY.__dict__, "coordinated_rival": False})) is None


#: appositive lists, two sentences of cnndm_test250 (a9df46183d..., b955f7a918..., quoted)
AGES = ("Copeland, 31, and his wife, Katrine Saltare, 28, were talking in the street just "
        "before 4am. His attempts to cover up his crime by transferring money using the "
        "identity of two of his colleagues, Julie Jeffrey, 50, and James Cato, 35, led to "
        "them being sacked.")
AGE_ENTS = [("Copeland", "PERSON"), ("Katrine Saltare", "PERSON"), ("Julie Jeffrey", "PERSON"),
            ("James Cato", "PERSON")]


def test_a_list_holds_its_ages_and_relations():
    r = row(AGES, "@placeholder said so.", "Copeland", AGE_ENTS)
    lists = [[e["text"] for e in chain] for chain in entity_lists(r["passage"],
                                                                  r["entities"])]
    assert ["Copeland", "Katrine Saltare"] in lists
    assert ["Julie Jeffrey", "James Cato"] in lists
    tie = row(AGES, "@placeholder was later cleared.", "James Cato", AGE_ENTS)
    assert "'julie jeffrey'" in coordinated_rival(tie)
    # the query names the rival by one name word, or its surname's title gives her gender
    assert coordinated_rival(row(AGES, "Julie said @placeholder was cleared.", "James Cato",
                                 AGE_ENTS)) is None
    titled = row(AGES + " Ms Saltare said nothing.", "Mr @placeholder said so.", "Copeland",
                 AGE_ENTS + [("Saltare", "PERSON")])
    assert coordinated_rival(titled) is None
    untold = row(AGES + " Ms Saltare said nothing.", "@placeholder said so.", "Copeland",
                 AGE_ENTS + [("Saltare", "PERSON")])
    assert "'katrine saltare'" in coordinated_rival(untold)    # the query gives no gender


@pytest.mark.parametrize("gap, joined", [
    (", 48, and his friend", True), (", 31, and his wife,", True), (" and her husband", True),
    (", 51,", False), (" and his friend said that", False), (", a friend of", False)])
def test_appositive_gaps(gap, joined):
    text = f"Richard McLuckie{gap} Stuart Walker spoke."
    ents = [("Richard McLuckie", "PERSON"), ("Stuart Walker", "PERSON")]
    r = row(text, "@placeholder said so.", "Richard McLuckie", ents)
    assert bool(entity_lists(r["passage"], r["entities"])) is joined


def test_no_rival_when_the_query_names_it_or_the_answer_stands_alone():
    named = row(TEXT, "Ties between @placeholder and the US were close.", "Britain", ENTS)
    assert coordinated_rival(named) is None           # the query names the US itself
    alone = row(TEXT, "@placeholder first used the phrase.", "Winston Churchill", ENTS)
    assert coordinated_rival(alone) is None
    town = row(TEXT, "He spoke in @placeholder in 1946.", "Fulton", ENTS)
    assert coordinated_rival(town) is None             # "Fulton, Missouri": no list


@pytest.mark.parametrize("query, gender", [
    ("Mrs @placeholder said it was strong.", "f"),
    ("Her husband, @placeholder, agreed.", "m"),
    ("@placeholder said she would stay.", "f"),
    ("He said @placeholder would stay.", None),          # his pronoun is before it
    ("@placeholder locked his daughter in while he slept, forcing her out.", None)])
def test_the_query_gender_comes_from_a_title_or_the_pronouns_after_it(query, gender):
    assert query_gender(query) == gender


def test_a_rival_of_the_other_gender_does_not_fit():
    woman = row(TEXT, "@placeholder said she was proud of the relationship.",
                "Margaret Thatcher", ENTS)
    assert coordinated_rival(woman) is None          # Ronald is a man's given name
    either = row(TEXT, "@placeholder was proud of the relationship.", "Margaret Thatcher",
                 ENTS)
    assert "'ronald reagan'" in coordinated_rival(either)
