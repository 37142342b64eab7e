"""Issue 32, item 2: a company and the name the text says it had or takes are one entity
(`aliases.renamed_aliases`). Sentences of ../shared/corpus (BBC business: MCI / Worldcom,
Sports Entertainment Enterprises / CFX; a Daily Mail "Chevy Chase, formerly known as")
reshaped for each pattern, mentions as spaCy tagged them there. Pure functions."""
import pytest

from transforms.curation.aliases import renamed_aliases, renamed_labels_agree
from transforms.curation.coref import RuleBasedResolver

pytestmark = pytest.mark.fast


class M:
    def __init__(self, text, word, label, at=0):
        self.start = text.index(word, at)
        self.end = self.start + len(word)
        self.text, self.label = word, label


def pairs(text, *tagged):
    return renamed_aliases(text, [M(text, w, lab) for w, lab in tagged])


def test_formerly_known_as_after_and_before_the_name():
    text = "Verizon is set to pay a grossly inadequate sum for MCI, which was formerly known as Worldcom."
    assert pairs(text, ("Verizon", "ORG"), ("MCI", "ORG"), ("Worldcom", "ORG")) == [
        (("MCI", "ORG"), ("Worldcom", "ORG"))]
    text = "Formerly known as Worldcom, MCI is a long-distance and corporate phone firm."
    assert pairs(text, ("Worldcom", "ORG"), ("MCI", "ORG")) == [
        (("MCI", "ORG"), ("Worldcom", "ORG"))]


def test_renamed_and_the_companys_new_name():
    text = ("Robert Sillerman's Sports Entertainment Enterprises, which is to be renamed CFX, "
            "bought an 85% share in the estate of Elvis Presley.")
    assert pairs(text, ("Robert Sillerman", "PERSON"), ("Sports Entertainment Enterprises", "ORG"),
                 ("CFX", "ORG"), ("Elvis Presley", "PERSON")) == [
        (("Sports Entertainment Enterprises", "ORG"), ("CFX", "ORG"))]
    text = "UAL Inc said on Tuesday it would drop the company's new name, Allegis, after a revolt."
    found = pairs(text, ("UAL Inc", "ORG"), ("Allegis", "PERSON"))
    assert found == [(("UAL Inc", "ORG"), ("Allegis", "PERSON"))]
    keys = RuleBasedResolver().clusters([("UAL Inc", "ORG"), ("Allegis", "PERSON"),
                                         ("UAL", "ORG")], found)
    assert len(set(keys)) == 1


def test_an_act_of_renaming_or_a_place_is_no_alias():
    text = "Obama renamed Mount McKinley Denali on Sunday."
    assert pairs(text, ("Obama", "PERSON"), ("Mount McKinley", "LOC"), ("Denali", "LOC")) == []
    text = ("boys at the On The Mat Sports International in Chevy Chase, formerly known as "
            "DC Martial Arts, police said.")
    assert pairs(text, ("Chevy Chase", "GPE"), ("DC Martial Arts", "ORG")) == []
    # the new name's company is the nearest organisation, with none between
    text = "Hilton said UAL Inc would drop the company's new name, Allegis."
    assert pairs(text, ("Hilton", "ORG"), ("UAL Inc", "ORG"), ("Allegis", "ORG")) == [
        (("UAL Inc", "ORG"), ("Allegis", "ORG"))]
    assert renamed_labels_agree("ORG", "FAC") and not renamed_labels_agree("GPE", "ORG")


def test_also_known_as_aka_and_dubbed_name_one_entity():
    # held-out CNN: the answer set left "AQAP" out; a reader marked it wrong
    text = ("A U.S. drone strike killed a leader of al Qaeda in the Arabian Peninsula, also "
            "known as AQAP, in Yemen.")
    assert pairs(text, ("U.S.", "GPE"), ("al Qaeda in the Arabian Peninsula", "ORG"),
                 ("AQAP", "ORG"), ("Yemen", "GPE")) == [
        (("al Qaeda in the Arabian Peninsula", "ORG"), ("AQAP", "ORG"))]
    text = "Mohammed Emwazi, dubbed 'Jihadi John' by the media, grew up in London."
    assert pairs(text, ("Mohammed Emwazi", "PERSON"), ("Jihadi John", "PERSON"),
                 ("London", "GPE")) == [(("Mohammed Emwazi", "PERSON"), ("Jihadi John", "PERSON"))]
    text = "Sean Combs (aka Diddy) was not charged."
    assert pairs(text, ("Sean Combs", "PERSON"), ("Diddy", "PERSON")) == [
        (("Sean Combs", "PERSON"), ("Diddy", "PERSON"))]


def test_known_as_someone_elses_role_or_with_no_comma_is_no_alias():
    text = "Nick Clegg, known as Cameron's deputy, spoke first."
    assert pairs(text, ("Nick Clegg", "PERSON"), ("Cameron", "PERSON")) == []
    text = "Fighters of a group known as Khorasan were killed."
    assert pairs(text, ("Khorasan", "ORG")) == []
    text = "Prince Harry, also known as a keen soldier, met Barack Obama."
    assert pairs(text, ("Prince Harry", "PERSON"), ("Barack Obama", "PERSON")) == []


def test_a_persons_nickname_whatever_its_label():
    # fresh19 (Daily Mail): the answer set was "Le" alone, tagged ORG
    text = "he was also involved with Leona \u2013 who is nicknamed Le. The 60-year-old denied it."
    found = renamed_aliases(text, [M(text, "Leona", "PERSON"),
                                   M(text, "Le", "ORG", at=text.index("nicknamed"))])
    assert found == [(("Leona", "PERSON"), ("Le", "ORG"))]
    # renamed: labels must still agree (a place is never renamed to a firm)
    text = "in Chevy Chase, formerly known as DC Martial Arts, police said."
    assert pairs(text, ("Chevy Chase", "GPE"), ("DC Martial Arts", "ORG")) == []


def test_a_club_nickname_names_the_one_club_of_the_article_it_may_stand_for():
    from transforms.curation.aliases import club_nicknames, same_entity_pairs
    from transforms.quality.aliases import lexicon_names
    # fresh19 (Daily Mail): "superb for the Foxes" left out of Leicester's answer set
    keys = RuleBasedResolver().clusters([("Leicester", "ORG"), ("Foxes", "ORG"),
                                         ("Chelsea", "ORG")])
    assert keys[0] == keys[1] != keys[2]
    # "the Blues" may be Chelsea, Everton, Birmingham or Cardiff: beside two, neither
    assert same_entity_pairs(["blues", "chelsea", "everton"]) == []
    assert same_entity_pairs(["blues", "chelsea"]) == [("blues", "chelsea")]
    # no club of the article: no pair ("Foxes" in a story about foxes tagged a name)
    assert same_entity_pairs(["foxes", "london"]) == []
    # the query side: a nickname that names the answer's club alone gives it away
    assert club_nicknames("leicester city") == ("foxes",) and club_nicknames("chelsea") == ()
    assert "Foxes" in lexicon_names("Leicester")
