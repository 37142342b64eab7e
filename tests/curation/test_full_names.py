"""A person's full name whatever label NER gave it (issue 32, item 2; full_names.py,
person_labels.py): a full name tagged ORG/GPE/NORP beside its surname or given name
tagged PERSON is the person's, so coreference joins them and the answer set holds both.
Sentences are real news of ../shared/corpus (BBC politics on Robert Jackson's defection,
BBC business on Ford and Gerald Ford, the BBC sentence on Muhammadu Buhari of
tests/quality/test_left_out.py, cnndm_test250's Frank and Louis Jordan), labelled as the
small model labels such text and reshaped to each pattern, with its negatives: two people
sharing a surname, a firm named after a person, a place named after one, a glued span,
titles of the other sex. Pure functions, no model."""
import pytest

from tests.fixtures.item_rows import row
from transforms.curation.consistency import consistent_mentions
from transforms.curation.coref import RuleBasedResolver
from transforms.curation.full_names import (
    after_the_only,
    is_name_word,
    person_full_names,
)
from transforms.curation.person_labels import settle_person_labels
from transforms.quality.left_out import left_out_full_name

pytestmark = pytest.mark.fast

BUHARI = ("Nigerian President Muhammadu Buhari has repeatedly called for the embargo to be "
          "lifted. On Wednesday Buhari said he also wanted it to end, Abuja said.")
JACKSON = ("The Tory leader has also shrugged off the defection of one of his MPs, Robert "
           "Jackson, a former minister, to Labour. \"Let's be realistic - the election is "
           "not going to be decided on the basis of what Mr Jackson did\", he told BBC 1's "
           "Breakfast with Frost programme.")


def mentions_of(text, names):
    """(start, end, label) of the first occurrence of each (name, label), in order."""
    out, pos = [], 0
    for name, label in names:
        start = text.index(name, pos)
        out.append((start, start + len(name), label))
        pos = start + len(name)
    return out


def clusters_after_consistency(text, names):
    """Each mention's text, label and cluster key after the article's label rules
    (consistency.py, with person_labels.py) and coreference, as the pipeline runs them."""
    triples = consistent_mentions([text], [mentions_of(text, names)])[0]
    mentions = [(text[s:e], label) for s, e, label in triples]
    keys = RuleBasedResolver().clusters(mentions)
    return [(t, lab, k) for (t, lab), k in zip(mentions, keys)]


def test_a_full_name_tagged_org_joins_the_surname_tagged_person():
    got = clusters_after_consistency(BUHARI, [("Nigerian", "NORP"),
                                              ("Muhammadu Buhari", "ORG"),
                                              ("Buhari", "PERSON"), ("Abuja", "GPE")])
    by_text = {t: (lab, k) for t, lab, k in got}
    assert by_text["Muhammadu Buhari"] == ("PERSON", "muhammadu buhari")
    assert by_text["Buhari"] == ("PERSON", "muhammadu buhari")
    assert by_text["Abuja"][1] != "muhammadu buhari"
    # "Robert Jackson" tagged GPE, "Mr Jackson" PERSON: one man
    got = clusters_after_consistency(JACKSON, [("Tory", "NORP"), ("Robert Jackson", "GPE"),
                                               ("Labour", "ORG"), ("Mr Jackson", "PERSON"),
                                               ("BBC", "ORG")])
    keys = {t: k for t, _, k in got}
    assert keys["Robert Jackson"] == keys["Mr Jackson"] == "robert jackson"


def test_a_given_name_tagged_person_joins_the_full_name():
    labels = {"Malala Yousafzai": "GPE", "Malala": "PERSON", "Swat Valley": "LOC"}
    assert person_full_names(labels) == {"Malala Yousafzai"}
    assert settle_person_labels(labels)["Malala Yousafzai"] == "PERSON"
    keys = RuleBasedResolver().clusters([("Malala Yousafzai", "PERSON"),
                                         ("Malala", "PERSON")])
    assert keys[0] == keys[1]


def test_two_people_sharing_a_surname_leave_it_alone():
    # cnndm_test250 43b82870: the father Frank Jordan and the son Louis Jordan
    labels = {"Frank Jordan": "PERSON", "Louis Jordan": "ORG", "Jordan": "PERSON"}
    assert person_full_names(labels) == set()
    assert settle_person_labels(labels)["Louis Jordan"] == "ORG"
    # two full names of other labels: neither
    labels = {"Frank Jordan": "GPE", "Louis Jordan": "ORG", "Jordan": "PERSON"}
    assert person_full_names(labels) == set()


def test_a_firm_or_a_place_named_after_a_person_stays_apart():
    # BBC business: "GM and Ford blamed high fuel prices ..." beside "Gerald Ford"
    assert person_full_names({"Ford Motor": "ORG", "Ford": "PERSON"}) == set()
    assert person_full_names({"Ford Motor Company": "ORG", "Ford": "PERSON"}) == set()
    assert person_full_names({"Ford Focus": "PRODUCT", "Ford": "PERSON"}) == set()
    assert person_full_names({"Henry Ford": "ORG", "Ford": "ORG"}) == set()  # the firm
    assert person_full_names({"Gerald Ford": "ORG", "Ford": "PERSON"}) == {"Gerald Ford"}
    assert person_full_names({"Fort Jackson": "GPE", "Jackson": "PERSON"}) == set()
    assert person_full_names({"Lake Jackson": "LOC", "Jackson": "PERSON"}) == set()
    assert person_full_names({"Jackson County": "GPE", "Jackson": "PERSON"}) == set()
    assert person_full_names({"Jackson Memorial Hospital": "ORG",
                              "Jackson": "PERSON"}) == set()
    text = JACKSON.replace("to Labour", "to a post at Fort Jackson")
    got = clusters_after_consistency(text, [("Tory", "NORP"), ("Fort Jackson", "GPE"),
                                            ("Mr Jackson", "PERSON"), ("BBC", "ORG")])
    labels = {t: (lab, k) for t, lab, k in got}
    assert labels["Fort Jackson"][0] == "GPE"
    assert labels["Fort Jackson"][1] != labels["Mr Jackson"][1]


def test_glued_spans_acronyms_and_things_keep_a_name_apart():
    # a club glued to its player beside the club alone, an acronym, a span glued to
    # another person's name, a country or demonym as the shared word (a country's name
    # tagged PERSON alone may be the country: left to the rules on PERSON full names)
    assert person_full_names({"Burnley Townsend": "ORG", "Townsend": "PERSON",
                              "Burnley": "ORG"}) == set()
    assert person_full_names({"BBC Smith": "ORG", "Smith": "PERSON"}) == set()
    assert person_full_names({"Falklands War Clarkson": "EVENT", "Clarkson": "PERSON",
                              "Jeremy Clarkson": "PERSON"}) == set()
    assert person_full_names({"Kenyan Rono": "NORP", "Rono": "PERSON"}) == set()
    assert person_full_names({"Louis Jordan": "ORG", "Jordan": "PERSON"}) == set()
    assert person_full_names({"Kevin Israel": "ORG", "Israel": "PERSON"}) == set()
    # a span with a lower-case word is no rival name ("Garrett hit Rudolph", fresh8)
    assert person_full_names({"Mason Rudolph": "ORG", "Garrett hit Rudolph": "ORG",
                              "Rudolph": "PERSON"}) == {"Mason Rudolph"}
    # a facility, a thing written with "the" (fresh8's lunar story: "our Blue Moon
    # lander", "Getting to the Moon"; a fresh7 TV review: "the Golden Globes")
    assert person_full_names({"Westgate Mall": "FAC", "Westgate": "PERSON"}) == set()
    moon = ["We're using our Blue Moon lander, which is a big one.",
            "Getting to the Moon, while not easy, has been done. The Moon is close."]
    assert after_the_only("Moon", moon)
    assert person_full_names({"Blue Moon": "ORG", "Moon": "PERSON"}, moon) == set()
    assert person_full_names({"Blue Moon": "ORG", "Moon": "PERSON"},
                             moon + ["Moon said the lander was ready."]) == {"Blue Moon"}
    assert not after_the_only("Buhari", [BUHARI])
    assert not is_name_word("Fort") and not is_name_word("Rovers")
    assert is_name_word("Muhammadu") and is_name_word("Kahlo")


def test_titles_of_the_other_sex_keep_the_joined_name_apart():
    # "Mrs Phillips" is no "Ronald Phillips" tagged ORG: he is a person, not her
    labels = settle_person_labels({"Ronald Phillips": "ORG", "Mrs Phillips": "PERSON"})
    assert labels["Ronald Phillips"] == "PERSON"
    keys = RuleBasedResolver().clusters([("Ronald Phillips", "PERSON"),
                                         ("Phillips", "PERSON", "f")])
    assert keys[0] != keys[1]
    keys = RuleBasedResolver().clusters([("Ronald Phillips", "PERSON"),
                                         ("Phillips", "PERSON", "m")])
    assert keys[0] == keys[1]


def test_the_joined_answer_set_is_no_longer_incomplete():
    # the release rule's row: "Buhari" answered with and without the full name
    ents = [("Nigerian", "NORP"), ("Muhammadu Buhari", "ORG"), ("Buhari", "PERSON"),
            ("Abuja", "GPE")]
    before = row(BUHARI, "@placeholder said he wanted it to end.", "Buhari", ents)
    assert left_out_full_name(before) == "Muhammadu Buhari"
    labels = settle_person_labels(dict(ents))
    after = row(BUHARI, "@placeholder said he wanted it to end.", "Buhari",
                [(t, labels[t]) for t, _ in ents], aliases=("Muhammadu Buhari",))
    assert left_out_full_name(after) is None
