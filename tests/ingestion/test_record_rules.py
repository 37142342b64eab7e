"""The read stage's record rules (transforms/ingestion/record_rules.py) as plain functions:
a real CNN/Daily Mail record passes both tables; the same record, reshaped, fails each rule
by name, with its detail, and `readers.article_from_record` writes that rejection."""
import json

import pytest

from transforms.core.rules import first_rejection
from transforms.ingestion.articles import Article
from transforms.ingestion.readers import article_from_record
from transforms.ingestion.record_rules import FIELD_RULES, RECORD_RULES, Where

pytestmark = pytest.mark.fast


@pytest.fixture(scope="module")
def record(corpus_dir) -> dict:
    with open(corpus_dir / "cnndm_test250.jsonl", encoding="utf-8") as f:
        return json.loads(next(f))


def judged(record: dict):
    """The first rule either table rejects the record by (FIELD_RULES with its id)."""
    return (first_rejection(RECORD_RULES, record, Where("line 1"))
            or first_rejection(FIELD_RULES, record, Where("line 1", record.get("id"))))


def test_a_real_record_passes_both_tables_and_becomes_its_article(record):
    assert judged(record) is None
    article = article_from_record(record, "test.jsonl", "public", "line 1")
    assert isinstance(article, Article) and article.article_id == record["id"]
    assert article.paragraphs and article.highlights


@pytest.mark.parametrize("change, reason, detail", [
    (lambda r: [r["article"]], "record_not_an_object", "line 1"),
    (lambda r: {**r, "article": r["article"][:40] + "\ud800"}, "lone_surrogate",
     "line 1: `article` holds a lone surrogate (not UTF-8 text)"),
    (lambda r: {**r, "id": True}, "bad_field:id", "line 1: `id` is bool, not a string or number"),
    (lambda r: {**r, "id": {"x": 1}}, "bad_field:id", "line 1: `id` is dict, not a string or number"),
    (lambda r: {k: v for k, v in r.items() if k not in ("id", "url")}, "missing_field:id",
     "line 1: needs `id` (or `url`)"),
    (lambda r: {k: v for k, v in r.items() if k != "article"}, "missing_field:article",
     "line 1: needs `article` or `text`"),
    (lambda r: {**r, "article": r["article"].split(". ")}, "bad_field:article",
     "line 1: `article` is not a string"),
    (lambda r: {k: v for k, v in r.items() if k != "highlights"}, "missing_field:highlights",
     "line 1"),
    (lambda r: {**r, "highlights": [r["highlights"], 3]}, "bad_field:highlights",
     "line 1: not a string or a list of strings"),
])
def test_each_record_rule_rejects_by_its_reason(record, change, reason, detail):
    bad = change(record)
    why = judged(bad)
    assert (why.reason, why.detail) == (reason, detail)
    row = article_from_record(bad, "test.jsonl", "public", "line 1")
    assert (row["stage"], row["reason"], row["detail"]) == ("read", reason, detail)
    known_id = reason not in ("record_not_an_object", "lone_surrogate", "bad_field:id",
                              "missing_field:id")
    assert row["article_id"] == (record["id"] if known_id else None)


def test_text_stands_for_article_and_a_url_for_the_id(record):
    reshaped = {"text": record["article"], "highlights": record["highlights"],
                "url": "https://edition.cnn.com/2015/04/01/example"}
    article = article_from_record(reshaped, "test.jsonl", "public", "line 1")
    assert isinstance(article, Article) and len(article.article_id) == 40
    assert first_rejection(FIELD_RULES, {"highlights": "x"}, Where("row 2", "abc")).reason \
        == "missing_field:article"      # the table's order: the article before the highlights
