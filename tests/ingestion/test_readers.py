import io
import json

import pytest

from transforms.ingestion import readers
from transforms.ingestion.articles import Article

pytestmark = pytest.mark.fast   # unit tests: `python -m pytest -q -m fast`

STORY = (b"LONDON (CNN) -- First paragraph here.\n\nSecond paragraph.\n\n"
         b"@highlight\n\nFirst bullet\n\n@highlight\n\nSecond bullet\n")


def test_file_type_ignores_compression_and_rejects_unknown():
    assert readers.file_type("a/b/x.story") == "story"
    assert readers.file_type("gs://b/x.jsonl.gz") == "jsonl"
    assert readers.file_type("x.JSON") == "jsonl"
    assert readers.file_type("x.csv.bz2") == "csv"
    assert readers.file_type("x.parquet") == "parquet"
    assert readers.file_type("x.docx") == ""
    assert readers.file_type("README") == ""


def test_split_story_separates_paragraphs_and_highlights():
    paragraphs, highlights = readers.split_story(STORY.decode())
    assert paragraphs == ("LONDON (CNN) -- First paragraph here.", "Second paragraph.")
    assert highlights == ("First bullet", "Second bullet")


def test_parse_story_keeps_rc_data_hash_as_id():
    a = readers.parse_story(STORY, "/x/0a1b2c.story", "public")
    assert isinstance(a, Article)
    assert a.article_id == "0a1b2c" and a.origin == "public" and len(a.highlights) == 2


def test_binary_and_invalid_utf8_are_rejected_with_reason():
    binary = readers.parse_story(b"\x00\x01\x02PNG", "/x/b.story", "public")
    assert binary["reason"] == "binary_file" and binary["article_id"] == "b"
    bad = readers.parse_story(b"caf\xe9 au lait\n\n@highlight\n\nx", "/x/c.story", "public")
    assert bad["reason"] == "invalid_utf8" and "byte 3" in bad["detail"]


def test_jsonl_broken_lines_and_missing_fields_are_rejected_not_raised():
    lines = [
        json.dumps({"id": "a", "article": "Body.", "highlights": ["h"]}).encode(),
        b'{"id": "b", "article": ',
        json.dumps({"id": "c", "highlights": ["h"]}).encode(),
        json.dumps({"article": "no id, no url", "highlights": []}).encode(),
        json.dumps({"url": "http://x", "text": "Body.", "highlights": "h1\nh2"}).encode(),
        json.dumps({"id": "e", "article": "Body."}).encode(),
        b"[1, 2]",
    ]
    out = list(readers.parse_jsonl(lines, "f.jsonl", "public"))
    assert isinstance(out[0], Article)
    reasons = [o["reason"] if isinstance(o, dict) else "ok" for o in out]
    assert reasons == ["ok", "broken_json_line", "missing_field:article", "missing_field:id",
                       "ok", "missing_field:highlights", "record_not_an_object"]
    assert out[1]["detail"].startswith("line 2")
    # no id: the rc-data convention, SHA-1 of the URL
    assert out[4].article_id == readers.url_hash("http://x")
    assert out[4].highlights == ("h1", "h2")


def test_csv_with_other_columns_is_one_clear_rejection():
    out = list(readers.parse_csv(io.StringIO("title,body\nx,y\n"), "f.csv", "public"))
    assert len(out) == 1 and out[0]["reason"] == "csv_missing_columns"
    assert "article" in out[0]["detail"] and "found ['body', 'title']" in out[0]["detail"]


def test_csv_hugging_face_layout():
    text = 'id,article,highlights\nabc,"Para one.",' + '"Bullet one\nBullet two"\n'
    (a,) = readers.parse_csv(io.StringIO(text), "f.csv", "crawled")
    assert a.article_id == "abc" and a.highlights == ("Bullet one", "Bullet two")
    assert a.origin == "crawled"
