from transforms.generation.passages import CandidateSentence, Entity
from transforms.generation.sentences import (SentenceConfig, entities_have_passage_antecedent,
                                  has_min_tokens, is_not_question, select_sentence,
                                  shares_no_ngram)


def sentence(text, mentions=(), n_tokens=None):
    words = tuple(w.strip(".,?\"").lower() for w in text.split() if w.strip(".,?\""))
    return CandidateSentence(0, text, n_tokens or len(text.split()), words,
                             tuple(Entity(*m) for m in mentions))


OBAMA = (0, 5, "Obama", "PERSON", "barack obama")
LONG = "Obama later flew to a small town in the north to meet with farmers."


def test_min_tokens():
    assert has_min_tokens(sentence(LONG), SentenceConfig())
    assert not has_min_tokens(sentence("Obama flew home."), SentenceConfig())


def test_not_a_question():
    assert not is_not_question('Who will pay for the new bridge?"')
    assert not is_not_question("Is this the end?)")
    assert is_not_question("He asked who would pay.")


def test_shared_trigram():
    grams = {("flew", "to", "a")}
    assert not shares_no_ngram(("obama", "flew", "to", "a", "town"), grams)
    assert shares_no_ngram(("obama", "flew", "to", "the", "town"), grams)


def test_entities_need_passage_antecedent():
    s = sentence(LONG, [OBAMA])
    assert entities_have_passage_antecedent(s, frozenset({"barack obama"}))
    assert not entities_have_passage_antecedent(s, frozenset({"joe biden"}))


def test_select_sentence_reports_the_first_failed_rule():
    clusters = frozenset({"barack obama"})
    assert select_sentence(sentence(LONG, [OBAMA]), frozenset(), clusters) is None
    assert select_sentence(sentence("Obama flew.", [OBAMA]), frozenset(), clusters) \
        == "under_10_tokens"
    assert select_sentence(sentence("Obama flew.", [OBAMA]), frozenset(), clusters,
                           SentenceConfig(min_tokens=2)) is None
    q = "Did Obama later fly to a small town in the north to meet farmers?"
    assert select_sentence(sentence(q, [OBAMA]), frozenset(), clusters) == "question"
    assert select_sentence(sentence(LONG, [OBAMA]), frozenset({("in", "the", "north")}),
                           clusters) == "shares_3gram_with_passage"
    assert select_sentence(sentence(LONG), frozenset(), clusters) == "no_named_entity"
    assert select_sentence(sentence(LONG, [OBAMA]), frozenset(), frozenset({"x"})) \
        == "entity_not_in_passage"
