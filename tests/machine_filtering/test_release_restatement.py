"""The release rules `restates_passage` (transforms/machine_filtering/restatement.py) and
`only_compatible_entity` by mention-vote types (entity_types.py), on rows built from real
news text (BBC News 2004, ../shared/corpus/bbc_news, quoted). The rules are pure: the fast
tests hand them evidence; one test measures it with the real frozen MiniLM."""
import pytest

from tests.fixtures.item_rows import row
from transforms.machine_filtering import entity_types, restatement
from transforms.machine_filtering.release_rules import (
    ReleaseConfig,
    check_row,
    release_passage,
)
from transforms.machine_filtering.restatement import Restatement

RUGBY = ("O'Gara kicked all of Ireland's points, with two dropped goals and five penalties, to "
         "give the home side a 100% record in their autumn internationals. An impressive "
         "Argentina appeared in control until the dying seconds. The Pumas shocked the Irish "
         "early on with a try from Federico Aramburu, and Felipe Contepomi kicked 14 points."
         "\n@highlight\nIreland 21-19 Argentina")
RUGBY_ENTS = [("O'Gara", "PERSON"), ("Ireland", "GPE"), ("Argentina", "GPE"),
              ("Pumas", "PERSON"), ("Irish", "NORP"), ("Federico Aramburu", "PERSON"),
              ("Felipe Contepomi", "ORG")]
RESTATES = ("Ireland had to rely on @placeholder's boot to keep in touch rather than any "
            "contrived running plays.")
VILLAGE = ("The people of Engerwitzdorf are filming their own regional news channel. The pilot "
           "has been so successful that Telekom Austria is now considering other projects. "
           "\"It's growing unbelievably fast,\" said Rudolf Fischer, head of Telekom Austria's "
           "fixed line division. Residents of Engerwitzdorf upload for others to watch."
           "\n@highlight\nLocal net TV takes off in Austria")
VILLAGE_ENTS = [("Engerwitzdorf", "PERSON"), ("Telekom Austria", "PERSON"),
                ("Rudolf Fischer", "PERSON"), ("Austria", "PERSON")]


@pytest.mark.fast
def test_answer_sentence_is_masked_as_the_query_writes_the_answer():
    r = row(RUGBY, RESTATES, "O'Gara", RUGBY_ENTS)
    end = RUGBY.index(".") + 1
    masked = restatement.masked_sentence(RUGBY, 0, end, [(0, 6)])
    assert masked.startswith("@placeholder kicked all of Ireland's points")
    texts, plans = restatement.plan([r])
    answer, others, q = plans[0]
    assert texts[answer[0][0]].startswith("@placeholder kicked") and texts[q] == RESTATES
    assert len(others) == 3 and "Ireland 21-19 Argentina" in texts   # highlight: a sentence
    no_answer = dict(r, answers=[])
    assert restatement.plan([no_answer])[1] == [None]


@pytest.mark.fast
def test_restates_passage_needs_similarity_and_a_lead_over_other_sentences():
    r = row(RUGBY, RESTATES, "O'Gara", RUGBY_ENTS)
    close = Restatement(0.61, 0.12, "O'Gara kicked all of Ireland's points")
    on = ReleaseConfig(restates_passage=True)
    why = check_row(r, on, close)
    assert why.reason == "restates_passage" and "cosine 0.61 (lead 0.12)" in why.detail
    assert check_row(r, on, Restatement(0.50, 0.30, "s")) is None   # not close
    assert check_row(r, on, Restatement(0.70, 0.02, "s")) is None   # theme only
    assert check_row(r, on) is None                                  # unmeasured
    assert check_row(r, ReleaseConfig(), close) is None    # off by default: the report's reader
    assert ReleaseConfig(restatement_similarity=1.5).problems()
    released, rejected = release_passage([r], on, {r["id"]: close})
    assert not released and rejected[0][1].reason == "restates_passage"


def test_real_minilm_flags_the_paraphrase_and_not_an_inference():
    from models.embedding_reader import SentenceEncoder
    encoder = SentenceEncoder()
    para = row(RUGBY, RESTATES, "O'Gara", RUGBY_ENTS, qid="p1-009-00")
    other = row(RUGBY, "Coach Eddie O'Sullivan said the squad would learn from the autumn "
                "series before the Six Nations against @placeholder.", "Argentina",
                RUGBY_ENTS, qid="p1-009-01")
    ev = restatement.passage_evidence([para, other], encoder)
    config = ReleaseConfig()
    assert restatement.restates(ev[para["id"]], config.restatement_similarity,
                                config.restatement_margin), ev[para["id"]]
    assert ev[para["id"]].sentence.startswith("O'Gara kicked all of Ireland's points")
    assert not restatement.restates(ev[other["id"]], config.restatement_similarity,
                                    config.restatement_margin), ev[other["id"]]


@pytest.mark.fast
def test_mention_votes_repair_places_and_firms_tagged_person():
    r = row(VILLAGE, "\"They have adopted it very quickly,\" said Mr @placeholder.",
            "Rudolf Fischer", VILLAGE_ENTS)
    votes = entity_types.mention_votes(r)
    assert all(v & {"GPE"} for v in votes["engerwitzdorf"])     # "people of", "Residents of"
    why = check_row(r)
    assert why is not None and why.reason == "only_compatible_entity"
    assert "types by mention votes" in why.detail
    # by NER's labels alone four PERSON rivals hid the answer: the old count let it through
    assert sum(1 for _, lab in VILLAGE_ENTS if lab == "PERSON") == 4


@pytest.mark.fast
def test_a_rival_tagged_with_another_label_still_counts_by_its_cues():
    football = ("Arsenal beat Chelsea 2-1 on Sunday. Chelsea boss Jose Mourinho said his side "
                "had been unlucky, and Chelsea fans booed the referee.")
    ents = [("Arsenal", "ORG"), ("Chelsea", "PERSON"), ("Jose Mourinho", "PERSON")]
    r = row(football, "The win lifted @placeholder's squad to second in the table.",
            "Arsenal", ents)
    answer_fits, rivals = entity_types.compatible_entities(r, frozenset({"ORG", "GPE", "NORP"}))
    assert answer_fits and rivals == ["chelsea"]             # "Chelsea boss", "Chelsea fans"
    assert check_row(r, ReleaseConfig(incomplete_answers=False, only_entity_of_label=False)) is None
    alone = row("Arsenal beat the visitors 2-1 on Sunday, and Jose Mourinho said his men had "
                "been unlucky.", "The win lifted @placeholder's squad to second in the table.",
                "Arsenal", [("Arsenal", "ORG"), ("Jose Mourinho", "PERSON")])
    assert check_row(alone).reason == "only_compatible_entity"
    tie = entity_types.fits([frozenset({"PERSON"}), frozenset({"GPE"})], frozenset({"PERSON"}))
    assert tie                                              # an unclear rival still counts


@pytest.mark.fast
def test_passage_cues_that_mislead_give_no_vote():
    text = ("The Blair government has lost the trust of the British people, he said in Hull "
            "just over a year ago, she thought.")
    blair = {"start": 4, "end": 9, "text": "Blair", "label": "PERSON"}
    hull = {"start": text.index("Hull"), "end": text.index("Hull") + 4, "text": "Hull",
            "label": "GPE"}
    assert entity_types.mention_cue(text, blair) is None      # "Blair government": a leader
    assert "GPE" in entity_types.mention_cue(text, hull)      # not "Hull ... she": a place
    assert entity_types.name_labels("Sunderland FC") == frozenset({"ORG"})
    assert entity_types.name_labels("Mr Fischer") == frozenset({"PERSON"})
