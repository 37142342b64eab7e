"""Issue 32, answers covering ReCoRD's gold: spellings of one non-person name coreference
joins (spelling.py), a clipped name the model missed (person_labels.clipped_name_labels),
a product's
capitals suffix and a dateline's source (spans.py). Pure functions, no Beam, no model;
the same on real spaCy output in tests/curation/test_spelling_forms_real.py."""
import pytest

from transforms.curation.coref import RuleBasedResolver
from transforms.curation.person_labels import clipped_name_labels, lone_capitalised
from transforms.curation.spans import (
    dateline_source_mentions,
    product_suffix_end,
    repair_spans,
    suffixed,
)
from transforms.curation.spelling import (
    is_clipped_form,
    is_doubled_letter_variant,
    is_facility_tail,
    is_syllable_acronym,
)

pytestmark = pytest.mark.fast


def clusters(*mentions):
    return RuleBasedResolver().clusters(list(mentions))


def same(keys, i, j):
    return keys[i] == keys[j]


@pytest.mark.parametrize("short,long,want", [
    ("juve", "juventus", True),          # its first letters
    ("barca", "barcelona", True),        # its first letters and its last
    ("inter", "internazionale", True),
    ("man", "manchester", False),        # three letters: too short to be evidence
    ("kent", "kentucky", True),          # the rule alone; coref asks an organisation
    ("chelsea", "chelseas", False),      # one letter left out: a plural, not a clipping
    ("barca", "barcelona fc", False),    # one word each
    ("colombia", "columbia", False),
])
def test_clipped_form(short, long, want):
    assert is_clipped_form(short, long) is want


@pytest.mark.parametrize("a,b,want", [
    ("hezbolllah", "hezbollah", True),
    ("phillipines", "philipines", True),
    ("colombia", "columbia", False),     # a different letter: two names
    ("luxemburg", "luxembourg", False),  # a letter left out: not this rule
    ("hezbollah", "hezbollah", False),
    ("lll", "ll", False),                # too short
])
def test_doubled_letter_variant(a, b, want):
    assert is_doubled_letter_variant(a, b) is want


@pytest.mark.parametrize("short,long,want", [
    ("norad", "north american aerospace defense command", True),     # NOR-A-D
    ("ukip", "uk independence party", True),
    ("interpol", "international criminal police organization", True),
    ("nato", "north atlantic treaty organization", True),             # initials too
    ("fifa", "football association premier league", False),
    ("usa", "united states army", False),                             # under four letters
    ("norad", "north american defense", True),
    ("radon", "north american aerospace defense command", False),     # not the first word
    ("noram", "north american", False),                               # two words only
])
def test_syllable_acronym(short, long, want):
    assert is_syllable_acronym(short, long) is want


def test_facility_tail_needs_two_words_and_no_place_label():
    assert is_facility_tail("grand slam", "FAC", "ORG")
    assert not is_facility_tail("slam", "FAC", "ORG")
    assert not is_facility_tail("south wales", "GPE", "GPE")
    assert not is_facility_tail("grand slam", "LOC", "ORG")


def test_coreference_joins_the_spellings_of_one_organisation():
    keys = clusters(("Juventus", "ORG"), ("Juve", "ORG"), ("Chelsea", "ORG"))
    assert same(keys, 0, 1) and not same(keys, 0, 2)
    keys = clusters(("Barcelona", "GPE"), ("Barca", "ORG"), ("Real Madrid", "ORG"))
    assert same(keys, 0, 1)
    keys = clusters(("Hezbollah", "ORG"), ("Hezbolllah", "ORG"), ("Israel", "GPE"))
    assert same(keys, 0, 1)
    keys = clusters(("Explorers Grand Slam", "ORG"), ("Grand Slam", "FAC"))
    assert same(keys, 0, 1)
    keys = clusters(("NORAD", "ORG"), ("North American Aerospace Defense Command", "ORG"),
                    ("Pentagon", "ORG"))
    assert same(keys, 0, 1) and not same(keys, 0, 2)


def test_coreference_keeps_the_look_alikes_apart():
    # a clipped form is an organisation's: "Kent" the place is no "Kentucky"
    assert not same(clusters(("Kent", "GPE"), ("Kentucky", "GPE")), 0, 1)
    # a clipped form two names fit joins neither
    keys = clusters(("Inter", "ORG"), ("Internazionale", "ORG"), ("Intercontinental", "ORG"))
    assert not same(keys, 0, 1) and not same(keys, 0, 2)
    # people: the person rules decide ("Chris" is no clipped "Christchurch")
    assert not same(clusters(("Chris", "PERSON"), ("Christchurch", "GPE")), 0, 1)
    assert not same(clusters(("Colombia", "GPE"), ("Columbia", "ORG")), 0, 1)
    # places and one-word tails stay apart as before
    assert not same(clusters(("New South Wales", "GPE"), ("South Wales", "GPE")), 0, 1)
    assert not same(clusters(("Central America", "LOC"), ("America", "GPE")), 0, 1)
    # a plain word in capitals written with a syllable of a name's first word is not it
    assert not same(clusters(("NORAD", "ORG"), ("American Aerospace Defense", "ORG")), 0, 1)


def test_a_clipped_name_is_a_mention_of_the_organisation():
    texts = ["the match between Juventus and Fiorentina",
             "son of Juve manager Luciano Moggi. Juve said."]
    assert clipped_name_labels({"Juventus": "ORG", "Fiorentina": "ORG"}, texts) == {
        "Juve": "ORG"}
    # tagged a person by the model: still the club, unless a word of a full name
    assert clipped_name_labels({"Barcelona": "GPE", "Barca": "PERSON"},
                               ["for Barca when he"]) == {"Barca": "ORG"}
    assert clipped_name_labels({"Barcelona": "GPE", "Ian Barca": "PERSON"},
                               ["for Barca when he"]) == {}
    # no country ("Port" is no "Portugal"), no given name's opening ("Phil" of "Philip"),
    # no title ("the Queen's Birthday" beside "Queensland")
    assert clipped_name_labels({"Portugal": "GPE", "Philadelphia": "GPE"},
                               ["Port officials said Phil was there"]) == {}
    assert clipped_name_labels({"Queensland": "GPE"}, ["the Queen's Birthday or"]) == {}
    # four letters left out at least: "Green" is no "Greening"
    assert clipped_name_labels({"Greening": "ORG"}, ["Green for Dowd"]) == {}


def test_lone_capitalised_words():
    assert lone_capitalised("told BBC Radio Five Live. for Barca when. S Murray; "
                            "Radio 5 Live said. Juve manager Luciano Moggi") == {"Barca", "Juve",
                                                                           "Radio"}


@pytest.mark.parametrize("text,span,label,want", [
    ("Google's Chrome OS takes aim", "Chrome", "ORG", "Chrome OS"),
    ("Users running Windows XP that have", "Windows", "PRODUCT", "Windows XP"),
    ("said Facebook CEO Mark Zuckerberg", "Facebook", "ORG", "Facebook"),   # a role
    ("Jane Smith OBE said", "Jane Smith", "PERSON", "Jane Smith"),   # a person's full name
    ("Beckham OBE said", "Beckham", "PERSON", "Beckham"),            # an honour
    ("Google UK said", "Google", "ORG", "Google"),                    # a country
    ("The BBC TV-licence fee", "BBC", "ORG", "BBC"),                  # inside a word
    ("Apple TVs sold", "Apple", "ORG", "Apple"),                      # no capitals word
    ("London NW said", "London", "GPE", "London"),                    # a place
])
def test_product_suffix(text, span, label, want):
    start = text.index(span)
    assert text[start:product_suffix_end(text, start, start + len(span), label)] == want


def test_product_suffix_relabels_a_person_and_respects_other_mentions():
    text = "pre-loaded with Chrome OS"
    s = text.index("Chrome")
    assert suffixed(text, (s, s + 6, "PERSON")) == (s, s + 9, "PRODUCT")
    assert suffixed(text, (s, s + 6, "PERSON"), starts={s + 7}) == (s, s + 6, "PERSON")


def test_dateline_source_is_an_organisation():
    text = "(WIRED) -- Google's netbook-friendly Chrome OS takes direct aim"
    assert dateline_source_mentions(text, []) == [(1, 6, "ORG")]
    assert dateline_source_mentions(text, [(1, 6, "ORG")]) == []
    assert dateline_source_mentions("(CNN) President Trump said", []) == []   # no "--"
    assert dateline_source_mentions("A (WIRED) -- story", []) == []           # not opening
    assert (1, 6, "ORG") in repair_spans(text, [])
