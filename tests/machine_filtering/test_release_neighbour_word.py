"""The release rule `neighbour_word` (transforms/machine_filtering/lexical.py): a content
word beside the placeholder, either side, that the passage writes beside the answer and
beside no other entity; on rows built from real news text (BBC News 2004,
../shared/corpus/bbc_news/sport/081.txt, quoted). Lemmas from the real spaCy pipeline
(tagger and lemmatizer only), loaded once for the module."""
import pytest

from tests.fixtures.item_rows import row
from transforms.machine_filtering import lexical
from transforms.machine_filtering.release_rules import ReleaseConfig, check_row

IAAF = ("The International Association of Athletics Federations will appeal against the "
        "acquittal of Greek athletes Kostas Kenteris and Katerina Thanou. The high-profile "
        "duo were cleared of doping offences by the Greek Athletics Federation (Segas) last "
        "month. Now the IAAF will lodge an appeal with the Court of Arbitration for Sport "
        "(CAS) and has suspended both athletes. Segas said the IAAF appeal was \"expected\" "
        "and \"understandable.\" \"Now we are going to await the final result, which we "
        "cannot prejudge,\" said Segas chairman Vassilis Sevastis. Kenteris' lawyer Gregory "
        "Ioannidis described the IAAF's decision as \"not unexpected\" but told BBC Sport he "
        "did not expect the organisation to take action so quickly.\n@highlight\nIAAF will "
        "contest Greek decision")
IAAF_ENTS = [("International Association of Athletics Federations", "ORG"), ("IAAF", "ORG"),
             ("Kostas Kenteris", "PERSON"), ("Kenteris", "PERSON"),
             ("Katerina Thanou", "PERSON"), ("Greek Athletics Federation", "ORG"),
             ("Segas", "ORG"), ("Court of Arbitration for Sport", "ORG"), ("CAS", "ORG"),
             ("Vassilis Sevastis", "PERSON"), ("Gregory Ioannidis", "PERSON"),
             ("BBC Sport", "ORG"), ("Greek", "NORP")]


@pytest.fixture(scope="module")
def nlp():
    return lexical.load_lemmatizer(ReleaseConfig(incomplete_answers=False, only_entity_of_label=False).lemma_model)


def _check(nlp, query, answer, aliases=(), config=ReleaseConfig(incomplete_answers=False, only_entity_of_label=False)):
    r = row(IAAF, query, answer, IAAF_ENTS, aliases=aliases)
    lemmas = lexical.lemmatize(nlp, [r])
    return lexical.neighbour_word(r, lemmas), check_row(r, config, lemmas=lemmas)


@pytest.mark.fast
def test_a_word_beside_the_answer_alone_rejects_either_side(nlp):
    # "Segas chairman Vassilis Sevastis": 'chairman' stands beside Segas and beside a
    # person the query names itself (no rival); the query puts it on the other side
    for query, first in (
            ("Vassilis Sevastis, the chairman of @placeholder, would not prejudge it.",
             "neighbour_word"),
            # the same side as the passage: copied_context (rule 3) comes first
            ("The @placeholder chairman Vassilis Sevastis would not prejudge the result.",
             "copied_context")):
        words_off = ReleaseConfig(incomplete_answers=False, only_entity_of_label=False, restates_words=False)    # it copies three lemmas too
        detail, why = _check(nlp, query, "Segas", ("Greek Athletics Federation",), words_off)
        assert detail and "'chairman'" in detail and "Segas chairman" in detail
        assert why.reason == first
        _, off = _check(nlp, query, "Segas", ("Greek Athletics Federation",),
                        ReleaseConfig(incomplete_answers=False, only_entity_of_label=False, neighbour_word=False, restates_words=False,
                                      copied_context=False))
        assert off is None


@pytest.mark.fast
def test_words_match_by_lemma_or_a_shared_stem():
    assert lexical._same_word("sponsor", "sponsorship") and lexical._same_word("medal", "medal")
    assert not lexical._same_word("medal", "meddle") and not lexical._same_word("act", "actor")
    assert lexical._same_word("report", "reporter")      # a shared stem of five letters


@pytest.mark.fast
def test_a_word_beside_another_entity_too_keeps_the_query(nlp):
    # 'lawyer' stands beside Kenteris and beside Gregory Ioannidis: a reader must choose
    detail, why = _check(nlp, "@placeholder's lawyer said the timing was surprising.",
                         "Kenteris", aliases=("Kostas Kenteris",))
    assert detail is None and why is None
    # 'appeal' stands beside the IAAF ("the IAAF appeal") and beside CAS ("an appeal with
    # the Court of Arbitration for Sport"): two candidates
    detail, _ = _check(nlp, "Athletes who face an @placeholder appeal can be suspended.",
                       "IAAF", aliases=("International Association of Athletics Federations",))
    assert detail is None
    # 'decision' stands beside the IAAF, a rival, never beside the answer
    detail, _ = _check(nlp, "@placeholder's decision to clear the pair will be contested.",
                       "Segas", aliases=("Greek Athletics Federation",))
    assert detail is None


@pytest.mark.fast
def test_a_query_on_the_same_story_that_needs_reading_stays(nlp):
    # same topic, the answer found by reading (the IAAF appeals to CAS), no word copied
    # beside it; a comma is a barrier: 'body' is not beside the placeholder
    for query, answer, aliases in (
            ("Both athletes will now fight the charges before @placeholder, the body the "
             "IAAF turned to.", "CAS", ("Court of Arbitration for Sport",)),
            ("Kenteris and Thanou were cleared by @placeholder, whose verdict the IAAF "
             "called erroneous.", "Segas", ("Greek Athletics Federation",))):
        detail, why = _check(nlp, query, answer, aliases)
        assert detail is None and why is None, (query, detail, why)


@pytest.mark.fast
def test_honorifics_light_verbs_and_unmeasured_rows_give_no_verdict(nlp):
    # "said Segas chairman": 'say' is a light verb, beside many names
    detail, _ = _check(nlp, "\"We cannot prejudge it,\" said @placeholder.", "Segas",
                       aliases=("Greek Athletics Federation",))
    assert detail is None
    r = row(IAAF, "Mr @placeholder would not prejudge it.", "Vassilis Sevastis", IAAF_ENTS)
    assert lexical.neighbour_word(r, lexical.lemmatize(nlp, [r])) is None
    assert lexical.neighbour_word(r, None) is None
    assert check_row(r, ReleaseConfig(incomplete_answers=False, only_entity_of_label=False)) is None or check_row(r, ReleaseConfig(incomplete_answers=False, only_entity_of_label=False)).reason \
        != "neighbour_word"
