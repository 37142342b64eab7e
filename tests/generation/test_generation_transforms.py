"""The composite transforms of the generation job, run with TestPipeline."""
import json

import apache_beam as beam
import pytest
from apache_beam.testing.test_pipeline import TestPipeline as BeamTestPipeline
from apache_beam.testing.util import assert_that, equal_to

from tests.generation.test_passages_and_queries import HIGHLIGHTS, PARAGRAPHS
from transforms.core.accounting import COUNTS, REJECTED, SumCounts
from transforms.curation.annotation import AnnotateConfig
from transforms.curation.clean import CleanConfig
from transforms.curation.curate import CurateArticles
from transforms.generation.cloze import QueryConfig
from transforms.generation.generate import FATES, GenerateClozeQueries
from transforms.generation.passages import PassageConfig
from transforms.generation.sentences import SentenceConfig
from transforms.ingestion.articles import Article
from transforms.ingestion.read import ReadArticles

STORY = "\n\n".join(PARAGRAPHS) + "\n\n" + "".join(f"@highlight\n\n{h}\n\n" for h in HIGHLIGHTS)


def _reasons(rows):
    return sorted(r["reason"] for r in rows)


def test_read_articles_parses_and_rejects(tmp_path):
    (tmp_path / "good.story").write_text(STORY)
    (tmp_path / "notes.docx").write_bytes(b"PK\x03\x04")
    (tmp_path / "x.jsonl").write_text(
        json.dumps({"id": "j1", "article": "Body.", "highlights": ["h"]}) + "\n{broken\n")
    with BeamTestPipeline() as p:
        out = p | ReadArticles([(str(tmp_path / "*"), "public"),
                                (str(tmp_path / "missing-*.story"), "crawled")])
        assert_that(out["main"] | beam.Map(lambda a: (a.article_id, a.origin)),
                    equal_to([("good", "public"), ("j1", "public")]), label="Articles")
        assert_that(out[REJECTED] | beam.combiners.ToList() | beam.Map(_reasons),
                    equal_to([["broken_json_line", "no_files_match", "unknown_file_type"]]),
                    label="Rejected")
        assert_that(out[COUNTS] | beam.CombineGlobally(SumCounts()),
                    equal_to([{"inputs.in": 2, "inputs.out": 3,
                               "inputs.rejected.no_files_match": 1,
                               "files.in": 3, "files.out": 2,
                               "files.rejected.unknown_file_type": 1,
                               "records.in": 2, "records.out": 3,
                               "read.in": 3, "read.out": 2,
                               "read.rejected.broken_json_line": 1}]), label="Counts")


def _article(article_id, paragraphs=PARAGRAPHS, source_file="f"):
    return Article(article_id, tuple(paragraphs), HIGHLIGHTS, None, None, "public", source_file)


def test_curate_deduplicates_deterministically_and_annotates():
    articles = [_article("a"), _article("a", PARAGRAPHS[:3], "other-file"), _article("b", PARAGRAPHS[1:]),
                _article("empty", ())]
    with BeamTestPipeline() as p:
        out = (p | beam.Create(articles)
               | CurateArticles(CleanConfig(), AnnotateConfig(batch_size=2)))
        assert_that(out["main"] | beam.Map(lambda a: (a.article.article_id,
                                                      len(a.paragraphs) > 0,
                                                      sum(len(s.mentions) for s in a.paragraphs) > 5)),
                    equal_to([("a", True, True), ("b", True, True)]), label="Annotated")
        assert_that(out[REJECTED] | beam.Map(lambda r: (r["stage"], r["reason"], r["article_id"])),
                    equal_to([("clean", "only_highlights", "empty"),
                              ("deduplicate", "duplicate_article_id", "a")]), label="Rejected")


def test_distinct_text_keeps_public_copy_and_rejects_crawled_overlap():
    from dataclasses import replace
    a = _article("a")
    copies = [replace(a, article_id="z-public"), replace(a, article_id="b-crawled", origin="crawled"),
              replace(a, article_id="c-public"),
              replace(_article("u1", PARAGRAPHS[:4]), url="http://www.cnn.com/x?ref=1"),
              replace(_article("u2", PARAGRAPHS[1:]), url="https://cnn.com/x", origin="crawled")]
    with BeamTestPipeline() as p:
        out = (p | beam.Create(copies)
               | CurateArticles(CleanConfig(), AnnotateConfig(batch_size=4)))
        assert_that(out["main"] | beam.Map(lambda a: a.article.article_id),
                    equal_to(["c-public", "u1"]), label="Kept")
        assert_that(out[REJECTED] | beam.Map(lambda r: (r["stage"], r["reason"], r["article_id"])),
                    equal_to([("distinct_text", "overlaps_public_corpus", "b-crawled"),
                              ("distinct_text", "duplicate_article_text", "z-public"),
                              ("distinct_url", "overlaps_public_corpus", "u2")]), label="Rejected")


def test_generate_cloze_queries_from_annotated_articles(annotator):
    annotated = annotator.annotate([_article("a")])
    with BeamTestPipeline() as p:
        out = p | beam.Create(annotated) | GenerateClozeQueries(
            PassageConfig(), SentenceConfig(), QueryConfig())
        assert_that(out[FATES], lambda rows: _one_fate(rows), label="Fates")
        assert_that(out["main"] | beam.Map(lambda r: (r["article_id"], r["query"].count("@placeholder"),
                                                      len(r["answers"]) > 0)),
                    lambda rows: _all_ok(rows), label="Queries")
        assert_that(out[COUNTS] | beam.CombineGlobally(SumCounts()), _balanced, label="Counts")


def _one_fate(rows):
    assert len(rows) == 1 and rows[0]["article_id"] == "a" and rows[0]["stage"] is None
    assert rows[0]["candidates"] > 0
    assert len(rows[0]["minhash"]) == 240      # the signature finalize clusters by


def _all_ok(rows):
    assert rows, "no query generated"
    assert all(r == ("a", 1, True) for r in rows), rows


def _balanced(sums):
    (flat,) = sums
    from transforms.core.funnel import chain_gaps, funnel
    from transforms.generation.stage import STEPS
    steps = [s for s in STEPS if s.name in ("passage", "sentences", "sentence", "mentions", "query")]
    accounts = funnel(flat, steps)
    assert chain_gaps(accounts, first_in=1) == [], accounts
    assert accounts["query"]["out"] > 0


@pytest.mark.fast
def test_deduplication_rules_name_the_copy_kept():
    from transforms.core.rules import first_rejection
    from transforms.curation.curate import DEDUPLICATE_RULES, DISTINCT_RULES, Copy

    def article(article_id, origin, source_file):
        return Article(article_id, ("Text.",), ("A bullet.",), None, None, origin, source_file)
    public, crawled = article("a", "public", "p.story"), article("b", "crawled", "c.html")
    again = article("c", "public", "q.story")
    assert first_rejection(DEDUPLICATE_RULES, public, Copy(public)) is None
    assert first_rejection(DEDUPLICATE_RULES, again, Copy(public)) == (
        "kept_copy", "duplicate_article_id", "kept the copy from p.story")
    assert first_rejection(DISTINCT_RULES, crawled, Copy(public, "text")) == (
        "public_kept", "overlaps_public_corpus", "same text as a (public, p.story)")
    assert first_rejection(DISTINCT_RULES, again, Copy(public, "url")).reason == \
        "duplicate_article_url"
    assert first_rejection(DISTINCT_RULES, public, Copy(public, "url")) is None
