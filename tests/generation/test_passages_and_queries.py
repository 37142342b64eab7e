"""Passage building and cloze queries on real spaCy annotations of a small story."""
import pytest

from transforms.core.rules import is_rejected
from transforms.curation.clean import clean_article
from transforms.generation.cloze import (
    PLACEHOLDER,
    QueryConfig,
    passage_row,
    queries_for_sentence,
)
from transforms.generation.passages import (
    HIGHLIGHT_SEP,
    PassageConfig,
    build_passage,
    shortest_prefix,
)
from transforms.generation.sentences import select_sentence
from transforms.ingestion.articles import Article

PARAGRAPHS = (
    "PARIS, France (CNN) -- Marie Dubois, the mayor of Lyon, announced on Monday that the "
    "city will close the Pont Lafayette bridge for repairs after engineers from the National "
    "Bridge Agency found deep cracks in its supports.",
    "Dubois said the closure would last at least six months and that ferries run by Rhone "
    "Transit would carry commuters across the river while the work goes on. The Ministry of "
    "Transport in Paris has promised emergency funds for the project, she told reporters at "
    "the town hall.",
    "Critics in the opposition Green Party said the mayor had ignored warnings about the "
    "bridge for years and demanded an independent inquiry into the state of the structure.",
    "Local shopkeepers near the bridge fear that months of closure will drive customers "
    "away from the old quarter of Lyon.",
    "Dubois insisted that public safety had to come before commerce, adding that her "
    "administration would compensate traders who lose income during the repairs.",
    "Is this really the end of the old bridge that has served Lyon for two centuries?",
)
HIGHLIGHTS = ("Lyon mayor Marie Dubois closes the Pont Lafayette bridge",
              "Engineers found cracks in the supports of the bridge")


@pytest.fixture(scope="module")
def annotated(annotator):
    article = clean_article(Article("story-1", PARAGRAPHS, HIGHLIGHTS, None, None, "public", "f"))
    return annotator.annotate([article])[0]


def test_shortest_prefix():
    assert shortest_prefix([40, 50, 30], 100) == 3
    assert shortest_prefix([120], 100) == 1
    assert shortest_prefix([40, 50], 100) == 0


def test_passage_is_paragraph_prefix_plus_highlights(annotated):
    p = build_passage(annotated)
    assert not is_rejected(p), p
    assert p.n_prefix_tokens >= 100
    # shortest prefix: without its last paragraph it would be under 100 tokens
    counts = [seg.n_tokens for seg in annotated.paragraphs]
    k = shortest_prefix(counts, 100)
    assert sum(counts[:k - 1]) < 100 <= sum(counts[:k]) == p.n_prefix_tokens
    assert p.text.split(HIGHLIGHT_SEP)[0] == " ".join(annotated.article.paragraphs[:k])
    assert p.text.split(HIGHLIGHT_SEP)[1:] == list(HIGHLIGHTS)
    for e in p.entities:
        assert p.text[e.start:e.end] == e.text
    assert len(p.sentences) == len(PARAGRAPHS) - k   # the rest: one sentence a paragraph


def test_passage_rejections(annotated):
    short = build_passage(annotated, PassageConfig(min_prefix_tokens=10_000))
    assert short.reason == "prefix_under_10000_tokens" and short.rule == "min_prefix_tokens"
    few = build_passage(annotated, PassageConfig(min_entities=50))
    assert few.reason == "under_50_entities"


def test_queries_replace_one_mention_and_answers_are_coreferent(annotated):
    p = build_passage(annotated)
    kept = [s for s in p.sentences
            if select_sentence(s, p.trigrams(), p.clusters()) is None]
    reasons = {select_sentence(s, p.trigrams(), p.clusters()) for s in p.sentences}
    assert "question" in reasons
    assert kept, "the Dubois sentences should survive the rules"
    shared = passage_row(p, QueryConfig(folds=5))
    rows = [row for s in kept for _, row in queries_for_sentence(p, s, shared)
            if not is_rejected(row)]
    assert rows
    for r in rows:
        assert r["query"].count(PLACEHOLDER) == 1
        assert r["answers"]
        spans = {(e["start"], e["end"]) for e in r["entities"]}
        for a in r["answers"]:
            assert r["passage"][a["start"]:a["end"]] == a["text"]
            assert (a["start"], a["end"]) in spans
        assert 0 <= r["fold"] < 5
        # the removed mention (release rule answer_form) puts the sentence back
        assert r["query"].replace(PLACEHOLDER, r["mention"]) in {s.text for s in kept}
    dubois = [r for r in rows if r["query"].startswith("@placeholder insisted")]
    assert dubois, [r["query"] for r in rows]
    # "Dubois" in the query answers with every mention of Marie Dubois in the passage
    assert "Marie Dubois" in {a["text"] for a in dubois[0]["answers"]}
    assert dubois[0]["mention"] == "Dubois"
    assert len({r["id"] for r in rows}) == len(rows)


# ---- issue 12: passages of text without paragraph breaks, titles, repeats ---------------
from transforms.generation.passages import plain_ngrams, prefix_units  # noqa: E402
from transforms.generation.sentences import SentenceConfig, passage_ngrams  # noqa: E402

TITLED = (
    "Stephen John Docherty, 66, pleaded guilty to wounding with intent when he appeared in "
    "the Whakatane District Court on Wednesday, New Zealand media reported. According to "
    "police Mr Docherty hired the victim to complete concrete works at his property in "
    "Auckland. At around 3.30pm on March 17 Mr Docherty was agitated when he returned to "
    "find the work was not finished, the Bay of Plenty Times said. He told Mr Docherty's "
    "neighbour Mary Smith that the job would be done by Friday. Police in Auckland said "
    "Mr Docherty then threatened the man in front of Mary Smith. Mr Docherty then repeated "
    "the threat to the man. Mr Docherty then repeated the threat to the man."
)


@pytest.fixture(scope="module")
def titled(annotator):
    article = clean_article(Article("story-2", (TITLED,), ("Stephen Docherty, 66, admitted "
                                    "wounding in Whakatane", "He threatened a worker"),
                                    None, None, "public", "f"))
    return annotator.annotate([article])[0]


def test_answers_never_include_a_title(titled):
    p = build_passage(titled)
    assert not is_rejected(p), p
    assert all(not e.text.startswith(("Mr ", "Mr.")) for e in p.entities)
    shared = passage_row(p, QueryConfig())
    rows = [r for s in p.sentences for _, r in queries_for_sentence(p, s, shared)
            if not is_rejected(r)]
    titled_rows = [r for r in rows if "Mr @placeholder" in r["query"]]
    assert titled_rows
    for r in titled_rows:   # "Mr Docherty" answers "Mr @placeholder": no "Mr Mr Docherty"
        assert all(not a["text"].startswith("Mr") for a in r["answers"])
        assert "Docherty" in {a["text"] for a in r["answers"]}


def test_text_without_paragraph_breaks_makes_a_sentence_prefix(titled):
    p = build_passage(titled)
    units = prefix_units(titled)
    assert len(units) == len(titled.paragraphs[0].sentences)
    assert 100 <= p.n_prefix_tokens < 100 + max(u[3] for u in units)


def test_a_repeated_sentence_is_a_candidate_once(titled):
    p = build_passage(titled)
    texts = [s.text for s in p.sentences]
    assert texts.count("Mr Docherty then repeated the threat to the man.") == 1


def test_entity_words_and_plain_ngrams(annotated):
    p = build_passage(annotated)
    assert len(p.sentence_entity_words) == len(p.sentence_words)
    for words, flags in zip(p.sentence_words, p.sentence_entity_words):
        assert len(words) == len(flags)
    assert any(any(f) for f in p.sentence_entity_words)
    plain = p.trigrams(outside_entities=True)
    assert plain < p.trigrams()
    assert ("marie", "dubois", "the") not in plain
    assert passage_ngrams(p, SentenceConfig(rules="paper")) == p.trigrams()
    assert list(plain_ngrams(("a", "b", "c", "d"), (False, False, False, True), 3)) == [
        ("a", "b", "c")]


def test_record_ngrams_keep_case_and_skip_entity_words(annotated):
    p = build_passage(annotated)
    cased = p.cased_ngrams()
    assert passage_ngrams(p, SentenceConfig(rules="record")) == cased
    two_words = [e.text.split() for e in p.entities if len(e.text.split()) == 2]
    assert two_words
    for a, b in two_words:     # no n-gram holds a name's words
        assert not any(g[i:i + 2] == (a, b) for g in cased for i in range(2))
    assert any(w[0].isupper() for g in cased for w in g)        # written as in the text
    # every candidate sentence knows which of its entities are named in the passage
    for s in p.sentences:
        assert len(s.named_in_passage) == len(s.mentions)
        for m, named in zip(s.mentions, s.named_in_passage):
            assert not named or m.text.removesuffix("'s") in p.text
