"""Dirty input (issue: trustworthy runs): control characters, line endings, bad fields,
numeric ids, truncated and empty compressed files, files read in parts."""
import collections
import gzip
import io
import json

import pytest

from transforms.ingestion import readers
from transforms.ingestion.parts import Part, csv_boundaries, plan_parts
from transforms.ingestion.read import ReadPart
from transforms.ingestion.inputs import ReadConfig
from transforms.ingestion.text import normalise_text

pytestmark = pytest.mark.fast   # unit tests: `python -m pytest -q -m fast`

BODY = "First paragraph of the story.\n\nSecond paragraph."


def _story(text: str) -> bytes:
    return (text + "\n\n@highlight\n\nA bullet\n").encode("utf-8")


def test_nul_and_control_characters_are_removed_anywhere_in_a_file():
    padding = "x" * 9000   # past the 8 KB the binary check looks at
    data = _story(f"{padding}\n\nBody with a NUL\x00 and a bell\x07 and DEL\x7f here.")
    counter = collections.Counter()
    a = readers.parse_story(data, "/c/cnn/stories/abc.story", "public", counter)
    assert isinstance(a, readers.Article)
    assert a.paragraphs[1] == "Body with a NUL and a bell and DEL here."
    assert counter["control_chars_removed"] == 3
    assert a.source == "cnn"   # from the rc-data folder, not from a dateline


def test_escaped_nul_inside_json_strings_is_removed():
    line = json.dumps({"id": "a", "article": "One\u0000 two.", "highlights": ["h\u0000i"]})
    (a,) = readers.parse_jsonl([line.encode()], "f.jsonl", "public")
    assert a.paragraphs == ("One two.",) and a.highlights == ("hi",)


def test_mixed_line_endings_split_paragraphs_and_leave_no_cr():
    text = "Para one.\r\n\r\nPara two.\r\rPara three.\n\n@highlight\r\n\r\nBullet\r\n"
    a = readers.parse_story(text.encode(), "x.story", "public")
    assert a.paragraphs == ("Para one.", "Para two.", "Para three.")
    assert a.highlights == ("Bullet",)
    assert not any("\r" in p for p in a.paragraphs)
    assert normalise_text("a\r\rb")[0] == "a\n\nb"


def test_mostly_control_bytes_is_a_binary_file_but_a_few_are_cleaned():
    assert readers.parse_story(bytes(range(32)) * 300, "b.story", "public")["reason"] \
        == "binary_file"
    a = readers.parse_story(_story("A\x00B " + "words " * 200), "ok.story", "public")
    assert isinstance(a, readers.Article) and "\x00" not in a.paragraphs[0]


@pytest.mark.parametrize("highlights", [[1, 2], ["ok", None], [["nested"]], {"a": 1}, 7])
def test_non_string_highlights_are_a_bad_field(highlights):
    line = json.dumps({"id": "a", "article": "Body.", "highlights": highlights})
    (row,) = readers.parse_jsonl([line.encode()], "f.jsonl", "public")
    assert row["reason"] == "bad_field:highlights" and row["article_id"] == "a"


def test_numeric_ids_are_kept_as_strings_never_replaced():
    lines = [json.dumps({"id": 0, "url": "http://x", "article": "B.", "highlights": ["h"]}),
             json.dumps({"id": 17, "article": "B.", "highlights": ["h"]}),
             json.dumps({"id": True, "article": "B.", "highlights": ["h"]}),
             json.dumps({"id": "", "url": "http://y", "article": "B.", "highlights": ["h"]})]
    out = list(readers.parse_jsonl([l.encode() for l in lines], "f.jsonl", "public"))
    assert out[0].article_id == "0" and out[1].article_id == "17"
    assert out[2]["reason"] == "bad_field:id"
    assert out[3].article_id == readers.url_hash("http://y")


class _Rejected:
    def __init__(self, row):
        self.row = row


def _read(part):
    """What ReadPart yields for one part: Articles, and rejected rows as `_Rejected`."""
    import apache_beam as beam
    fn = ReadPart(ReadConfig())
    fn.start_bundle()
    out = []
    for o in fn._outputs(part, (), {}):
        if isinstance(o, beam.pvalue.TaggedOutput):
            out.append(_Rejected(o.value) if o.tag == "rejected" else o)
        else:
            out.append(o)
    return out


def _whole(path, kind):
    size = path.stat().st_size
    return Part(str(path), "public", kind, size, 0, 1, 0, None, None)


def test_truncated_gz_keeps_its_records_and_names_where_it_broke(tmp_path):
    lines = [json.dumps({"id": f"a{i}", "article": "Body " * 50, "highlights": ["h"]})
             for i in range(200)]
    data = gzip.compress(("\n".join(lines) + "\n").encode())
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(data[: len(data) // 2])
    out = _read(_whole(path, "jsonl"))
    articles = [o for o in out if isinstance(o, readers.Article)]
    rejected = [o.row for o in out if hasattr(o, "row")]
    assert 0 < len(articles) < 200
    assert [r["reason"] for r in rejected] == ["truncated_file"]
    assert f"broke after {len(articles)} record(s)" in rejected[0]["detail"]
    assert rejected[0]["source_file"] == str(path)


def test_an_empty_gz_leaves_a_rejected_row(tmp_path):
    path = tmp_path / "empty.jsonl.gz"
    path.write_bytes(gzip.compress(b""))
    out = _read(_whole(path, "jsonl"))
    assert [o.row["reason"] for o in out if hasattr(o, "row")] == ["empty_file"]


def test_large_jsonl_is_read_in_parts_with_every_line_once(tmp_path):
    lines = [json.dumps({"id": f"a{i}", "article": f"Body {i}. " * (i % 7 + 1),
                         "highlights": ["h"]}) for i in range(500)]
    path = tmp_path / "big.jsonl"
    path.write_text("\n".join(lines) + "\n")
    parts = plan_parts(str(path), "public", path.stat().st_size, part_bytes=5000)
    assert len(parts) > 5
    ids = [o.article_id for p in parts for o in _read(p) if isinstance(o, readers.Article)]
    assert sorted(ids) == sorted(f"a{i}" for i in range(500))


def test_large_csv_is_cut_only_between_records(tmp_path):
    rows = ["id,article,highlights"]
    for i in range(300):   # highlights hold newlines inside quotes
        rows.append(f'c{i},"Body, with a comma {i}.","Bullet one {i}\nBullet two"')
    path = tmp_path / "big.csv"
    path.write_text("\n".join(rows) + "\n")
    with open(path, "rb") as f:
        starts = csv_boundaries(f, path.stat().st_size, 2000)
    assert len(starts) > 3
    parts = plan_parts(str(path), "public", path.stat().st_size, part_bytes=2000)
    got = [o for p in parts for o in _read(p) if isinstance(o, readers.Article)]
    assert sorted(a.article_id for a in got) == sorted(f"c{i}" for i in range(300))
    assert all(a.highlights[1] == "Bullet two" for a in got)


def test_parquet_is_read_in_row_group_parts(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq
    table = pa.table({"id": [f"p{i}" for i in range(1000)],
                      "article": ["Body text. " * 20] * 1000,
                      "highlights": [["h"]] * 1000})
    path = tmp_path / "big.parquet"
    pq.write_table(table, path, row_group_size=100)
    parts = plan_parts(str(path), "public", path.stat().st_size, part_bytes=10_000)
    assert len(parts) > 1
    ids = [o.article_id for p in parts for o in _read(p) if isinstance(o, readers.Article)]
    assert sorted(ids) == sorted(f"p{i}" for i in range(1000))
