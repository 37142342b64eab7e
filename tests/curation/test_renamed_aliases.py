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
