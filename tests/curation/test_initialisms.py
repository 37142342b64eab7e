"""Issue 32, item 2: initialisms joined to their full name, bracketed short forms the
model left untagged, a name plus a model code kept apart. Sentences are real BBC News text of ../shared/corpus (bbc_news: politics,
business, tech, entertainment), copied into the test as short phrases with names
kept; pure rules, no Beam, no model."""
import pytest

from transforms.curation.aliases import bracketed_aliases
from transforms.curation.annotation import Mention
from transforms.curation.coref import RuleBasedResolver
from transforms.curation.initialisms import (
    adds_model_code,
    is_initialism,
    is_model_code,
    spells_initials,
)

pytestmark = pytest.mark.fast


def clusters(*mentions, same=()):
    return RuleBasedResolver().clusters(list(mentions), list(same))


def one(keys, *idx):
    return len({keys[i] for i in idx}) == 1


# --- initialisms ------------------------------------------------------------------------

def test_what_is_written_as_an_initialism():
    for text in ("DfES", "UVa", "N.D.P.", "FAA's", "ONS", "UVA"):
        assert is_initialism(text), text
    for text in ("Navy", "A", "Ofsted", "SONYERICSSON", "dfes"):
        assert not is_initialism(text), text


def test_initials_with_function_words_and_an_abbreviated_last_word():
    # "The Department for Education and Skills would not comment" / "ministers in the DfES"
    assert spells_initials("dfes", "department for education and skills")
    assert spells_initials("des", "department for education and skills")
    assert spells_initials("dod", "department of defense")
    assert spells_initials("uva", "university of virginia")     # Va., the state
    assert spells_initials("ons", "office for national statistics")
    # every content word gives a letter, in order; one word is no name to spell
    assert not spells_initials("dfs", "department for education and skills")
    assert not spells_initials("esd", "department for education and skills")
    assert not spells_initials("uvx", "university of virginia")
    assert not spells_initials("vi", "virginia")
    assert not spells_initials("uvirg", "university of virginia")   # two letters at most
    assert not spells_initials("uvi", "university of virginia")     # first and last letters
    # "triple-A games" (AAA) beside "Apple Arcade": no contraction of "Arcade" reads "Aa"
    assert not spells_initials("aaa", "apple arcade")
    # "EMI Music's sales ... " beside "EMI": the initialism written as a word of the name
    assert not spells_initials("emi", "emi music")


def test_an_initialism_joins_the_one_name_it_spells():
    keys = clusters(("Department for Education and Skills", "ORG"), ("DfES", "ORG"),
                    ("DfES", "ORG"), ("Ofsted", "ORG"))
    assert one(keys, 0, 1, 2) and keys[3] != keys[0]
    keys = clusters(("The University of Virginia", "ORG"), ("UVA", "ORG"), ("Virginia", "GPE"))
    assert one(keys, 0, 1) and keys[2] != keys[0]
    # the exact initials still join whatever the labels ("the US Federal Communications
    # Commission (FCC)")
    keys = clusters(("Federal Communications Commission", "ORG"), ("FCC", "GPE"))
    assert one(keys, 0, 1)


def test_two_names_with_the_same_initials_leave_the_initialism_alone():
    keys = clusters(("Department of Energy", "ORG"), ("Department of Education", "ORG"),
                    ("DoE", "ORG"))
    assert keys[2] not in (keys[0], keys[1]) and keys[0] != keys[1]


def test_a_person_is_no_initialism_s_name():
    # the looser reading never reads a person's name ("UVA" is no "Ulrich Vanderbilt")
    keys = clusters(("Ulrich Vanderbilt", "PERSON"), ("UVA", "ORG"))
    assert keys[0] != keys[1]


# --- short forms in brackets --------------------------------------------------------------

def mentions_in(text, *names):
    out = []
    for name, label in names:
        start = text.index(name)
        out.append(Mention(start, start + len(name), name, label))
    return out


def test_a_bracketed_short_form_the_model_left_untagged_defines_it():
    text = ("People and business connected to broadband jumped by 38% in a year, said the "
            "US Federal Communications Commission (FCC).")
    pairs = bracketed_aliases(text, mentions_in(text, ("US", "GPE"),
                                                ("Federal Communications Commission", "ORG")))
    assert pairs == [(("Federal Communications Commission", "ORG"), ("FCC", "ORG"))]
    text = "Official data comes from the Office for National Statistics (Whitehall)."
    assert bracketed_aliases(text, mentions_in(
        text, ("Office for National Statistics", "ORG"))) == []


def test_a_defined_short_form_keeps_its_definition_beside_a_rival_name():
    same = [(("Department of Energy", "ORG"), ("DoE", "ORG"))]
    keys = clusters(("Department of Energy", "ORG"), ("Department of Education", "ORG"),
                    ("DoE", "ORG"), same=same)
    assert one(keys, 0, 2) and keys[1] != keys[0]


# --- a name plus a model code ---------------------------------------------------------------

def test_model_codes():
    for word in ("mh-60r", "v3", "e200", "p900", "f-35", "737", "qv-10"):
        assert is_model_code(word), word
    for word in ("04", "96", "2004", "1998", "navy", "razr", "orange"):
        assert not is_model_code(word), word
    assert adds_model_code("motorola", "motorola razr v3")
    assert not adds_model_code("razr v3", "motorola razr v3")
    assert not adds_model_code("schalke", "schalke 04")
    assert not adds_model_code("world cup", "2014 world cup")      # a year: an edition


def test_a_name_plus_a_model_code_is_another_entity():
    # "The Motorola Razr V3 phone was typical of the attention to design ..."
    keys = clusters(("Motorola", "ORG"), ("Motorola Razr V3", "ORG"), ("Motorola", "ORG"))
    assert one(keys, 0, 2) and keys[1] != keys[0]
    # "... SonyEricsson P900 and the Orange E200, offering web access ..."
    keys = clusters(("Orange", "ORG"), ("Orange E200", "PRODUCT"))
    assert keys[0] != keys[1]
    keys = clusters(("Navy", "ORG"), ("Navy MH-60R", "ORG"))
    assert keys[0] != keys[1]
    # what stays: a club's year, the product named again with its code
    assert one(clusters(("Schalke 04", "ORG"), ("Schalke", "ORG")), 0, 1)
    assert one(clusters(("Motorola Razr V3", "PRODUCT"), ("Razr V3", "PRODUCT")), 0, 1)


def test_an_initialism_joins_the_country_it_spells():
    # BBC News NI: "prescribed more in Northern Ireland than anywhere else in the UK" /
    # highlight "abused by teenagers in NI"
    keys = clusters(("Northern Ireland", "GPE"), ("UK", "GPE"), ("NI", "GPE"))
    assert one(keys, 0, 2) and not one(keys, 1, 2)
    # a one-word country spells nothing; two countries with the same initials: neither
    keys = clusters(("Spain", "GPE"), ("SP", "ORG"))
    assert not one(keys, 0, 1)
    keys = clusters(("South Africa", "GPE"), ("Saudi Arabia", "GPE"), ("SA", "GPE"))
    assert not one(keys, 0, 2) and not one(keys, 1, 2)


def test_an_initialism_the_model_never_tagged_becomes_a_mention_of_its_name():
    from transforms.curation.consistency import consistent_mentions
    from transforms.curation.initialisms import untagged_initialism_labels
    # Daily Mail (fresh29): "QPR" untagged three times beside "Queens Park Rangers"
    text = ("Queens Park Rangers face Derby. QPR chairman Tony Fernandes spoke. Should QPR "
            "return, the CEO said, the FA will act.")
    s = text.index("Queens")
    got = consistent_mentions([text], [[(s, s + 19, "ORG"), (text.index("Tony"),
                                                              text.index(" spoke"), "PERSON")]])
    assert [text[a:b] for a, b, lab in got[0] if lab == "ORG"] == [
        "Queens Park Rangers", "QPR", "QPR"]
    labels = {"Queens Park Rangers": "ORG", "Tony Fernandes": "PERSON"}
    assert untagged_initialism_labels(labels, [text]) == {"QPR": "ORG"}
    # a person's name, a name the initialism is no word of, two names: no mention
    assert untagged_initialism_labels({"Tony Fernandes": "PERSON"}, ["TFS and TF"]) == {}
    assert untagged_initialism_labels({"Queens Park Rangers": "ORG",
                                       "Queens Park Racers": "ORG"}, ["QPR"]) == {}
    # strict initials only: no contraction of the last word ("SFO" is no San Francisco)
    assert untagged_initialism_labels({"San Francisco": "GPE", "New Zealand": "GPE",
                                       "Manchester United": "ORG"}, ["SFO NZD MUD"]) == {}
    # one name written two ways is one name
    assert untagged_initialism_labels({"Queens Park Rangers": "ORG",
                                       "Queens Park Rangers FC": "ORG"}, ["QPR"]) == {"QPR": "ORG"}
    assert untagged_initialism_labels({"Queens Park Rangers": "ORG", "QPR": "ORG"},
                                      ["QPR"]) == {}
