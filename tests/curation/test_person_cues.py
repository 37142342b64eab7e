"""A person's full name and surname joined whatever label NER gave them (issue 32, item
2; person_cues.py): person cues read on real text of ../shared/corpus (cnndm_test250,
BBC sport), and the name rules on mentions labelled as the small model labelled the
fresh8 stories ("36-year-old Kevone Charleston" ORG, "Charleston is suspected" GPE),
names changed. Pure functions, no model."""
import pytest

from transforms.curation.coref import RuleBasedResolver
from transforms.curation.person_cues import (
    coreference_labels,
    given_name_and_person_surname,
    person_cue,
)

pytestmark = pytest.mark.fast


def cue(text, name, nth=0):
    start = -1
    for _ in range(nth + 1):
        start = text.index(name, start + 1)
    return person_cue(text, start, start + len(name))


def clusters(*mentions):
    return RuleBasedResolver().clusters(list(mentions))


def test_person_cues_on_real_sentences():
    # cnndm_test250 (the Barrientos story, the Stancil story), BBC sport 003
    text = ("One of the men 38-year-old Lianna Barrientos wed was deported back to "
            "Pakistan. Swindle: Barrientos is accused of accepting money in at least one "
            "of the marriages.")
    assert cue(text, "Lianna Barrientos") == "age"
    assert cue(text, "Barrientos", 1) == "human_verb_after"
    assert cue("In court today, prosecutors said Barrientos married men from Egypt",
               "Barrientos") == "human_verb_after"
    assert cue("Greene crossed the line just 0.02 seconds behind Gatlin, who won in "
               "9.87 seconds", "Gatlin") == "who_after"
    assert cue("Miss Robertson's parents said", "Robertson") == "title_or_role_before"
    assert cue("Etan Patz's parents have waited that long", "Etan Patz") == "kin_after_possessive"
    assert cue("NBA player Thabo Sefolosha says police caused", "Thabo Sefolosha") \
        == "title_or_role_before"
    assert cue("Kaling's brother Vijay Chokalingam unveiled a project", "Vijay Chokalingam") \
        == "title_or_role_before"
    # a place is written as a place: no cue
    text = ("Stancil is accused of killing an employee Monday at Wayne Community College "
            "in Goldsboro, North Carolina.")
    assert cue(text, "Goldsboro") is None and cue(text, "North Carolina") is None
    assert cue(text, "Stancil") == "human_verb_after"


def test_a_full_name_and_its_surname_tagged_as_places_or_organisations_join():
    # fresh8 (bb93c105): "36-year-old Kevone Charleston" ORG, "Charleston is suspected"
    # GPE; here the cnndm Barrientos story with the same labels
    c = clusters(("Lianna Barrientos", "ORG", None, "age"), ("Pakistan", "GPE", None, None),
                 ("Barrientos", "GPE", None, "human_verb_after"),
                 ("Barrientos", "GPE", None, None))
    assert c[0] == c[2] == c[3] != c[1]
    # the full name in a highlight tagged GPE, the surname PERSON in the body
    c = clusters(("Thabo Sefolosha", "GPE", None, "title_or_role_before"),
                 ("Sefolosha", "PERSON", None, None), ("Antic", "PERSON", None, None))
    assert c[0] == c[1] != c[2]
    # every mention GPE, the lone surname cued by ", who" in the rest of the article
    c = clusters(("Thabo Sefolosha", "GPE", None, "title_or_role_before"),
                 ("Sefolosha", "GPE", None, None), ("Sefolosha", "GPE", None, "who_after"))
    assert len(set(c)) == 1
    # without the fourth item (other callers), nothing changes
    c = clusters(("Lianna Barrientos", "ORG"), ("Barrientos", "GPE"))
    assert c[0] != c[1]


def test_the_city_that_is_only_a_city_stays_apart():
    # "in Goldsboro, North Carolina" beside a person named with the town's word
    c = clusters(("Kevone Goldsboro", "ORG", None, "age"), ("Goldsboro", "GPE", None, None),
                 ("North Carolina", "GPE", None, None))
    assert c[0] != c[1]
    # a known place takes no verb cue: "Washington said" is the US government
    c = clusters(("Mark Washington", "ORG", None, "age"),
                 ("Washington", "GPE", None, "human_verb_after"))
    assert c[0] != c[1]
    # but a title before it is a person: "Mr Washington"
    c = clusters(("Mark Washington", "ORG", None, "age"),
                 ("Washington", "GPE", "m", "title_or_role_before"))
    assert c[0] == c[1]


def test_an_organisation_that_speaks_is_no_person():
    # "Human Rights Watch said", "Goldman Sachs's lawyers": verbs and lawyers are no cue
    # for a full name
    labels, _ = coreference_labels([("Goldman Sachs", "ORG", None, "human_verb_after"),
                                    ("Goldman Sachs", "ORG", None, "relative_after_possessive"),
                                    ("Sachs", "PERSON", None, None)])
    assert labels[0][1] == "ORG" and labels[1][1] == "ORG"
    # a place opens no person's name: "Manchester United" with a title-like word before
    labels, _ = coreference_labels([("Manchester United", "ORG", None, "title_or_role_before")])
    assert labels[0][1] == "ORG"


def test_two_persons_with_that_surname_leave_it_ambiguous():
    # fresh7 (22a223ae): "Clive Ruggles" NORP and "Alice Ruggles" PERSON, "Prof Ruggles"
    assert given_name_and_person_surname("Clive Ruggles", {"Ruggles"})
    assert not given_name_and_person_surname("Burnley Townsend", {"Townsend"})
    c = clusters(("Clive Ruggles", "NORP", None, None),
                 ("Ruggles", "PERSON", None, "title_or_role_before"),
                 ("Alice Ruggles", "PERSON", None, None))
    assert c[1].startswith("ambiguous:")
    c = clusters(("Clive Ruggles", "NORP", None, None),
                 ("Ruggles", "PERSON", None, "title_or_role_before"))
    assert c[0] == c[1]
    # two cued full names tagged ORG end with the cued surname: neither
    c = clusters(("Kevone Charleston", "ORG", None, "age"),
                 ("Dana Charleston", "ORG", None, "kin_after_possessive"),
                 ("Charleston", "GPE", None, "human_verb_after"))
    assert c[2].startswith("ambiguous:")


def test_lists_and_organisation_words_are_no_person_cue():
    # the real corpus (CNN stories, the Vick suspension; the Flay divorce):
    # "NFL chief, Atlanta Falcons owner" is a list, "the 50-year-old Food Network
    # standout" an organisation's name after an age
    assert cue("NEW: NFL chief, Atlanta Falcons owner critical", "Atlanta Falcons") is None
    labels, _ = coreference_labels([("Food Network", "ORG", None, "age"),
                                    ("Stephanie March", "ORG", None, "title_or_role_before")])
    assert [lab for _, lab, _ in labels] == ["ORG", "PERSON"]
    assert cue("SVU star Stephanie March, the famous chef", "Stephanie March") \
        == "title_or_role_before"


def test_two_names_glued_are_no_third_person():
    # fresh7 (a caption run into the next sentence): "England and Manchester City
    # goalkeeper Joe Hart has lavished praise on fellow goalkeeper Gianluigi Buffon Hart
    # has labelled Buffon, who ..."; "Gianluigi Buffon Hart" made "Hart" ambiguous
    c = clusters(("Joe Hart", "PERSON", None, "title_or_role_before"),
                 ("Gianluigi Buffon", "PERSON", None, "title_or_role_before"),
                 ("Gianluigi Buffon Hart", "ORG", None, "title_or_role_before"),
                 ("Hart", "PERSON", None, "who_after"))
    assert c[3] == c[0]
