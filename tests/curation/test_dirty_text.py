"""Dirty input (issue: trustworthy runs): control characters, line endings, bad fields,
numeric ids, truncated and empty compressed files, files read in parts."""
import collections
import gzip
import json

import pytest

from transforms.ingestion import readers, text
from transforms.ingestion.inputs import ReadConfig
from transforms.ingestion.layouts.csv_table import csv_boundaries
from transforms.ingestion.parts import Part, plan_parts
from transforms.ingestion.read import ReadPart
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


# --- text hygiene at the door (issue 22 items 2-3, issue 19's mojibake) -------------------

def _line(**fields) -> bytes:
    record = {"id": "a", "article": "Body.", "highlights": ["h"], **fields}
    return json.dumps(record).encode()   # json.dumps escapes lone surrogates as \ud800


def test_bidi_and_format_characters_are_removed_and_counted():
    counter = collections.Counter()
    (a,) = readers.parse_jsonl([_line(article="Ali\u202eBaba met Jo\u2066hn.\u00ad",
                                      highlights=["Ali\u202eBaba"])], "f.jsonl", "public",
                               counter)
    assert a.paragraphs == ("AliBaba met John.",) and a.highlights == ("AliBaba",)
    assert counter["format_chars_removed"] == 4
    assert text.hygiene_problem(a.paragraphs[0] + a.highlights[0]) is None


@pytest.mark.parametrize("mark", ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"])
def test_zero_width_characters_inside_a_word_are_removed_not_spaced(mark):
    (a,) = readers.parse_jsonl([_line(article=f"Man{mark}chester United won.")],
                               "f.jsonl", "public")
    assert a.paragraphs == ("Manchester United won.",)


def test_hygiene_problem_names_what_is_wrong():
    assert text.hygiene_problem("Ali\u202eBaba").reason == "format_character"
    assert "U+202E" in text.hygiene_problem("Ali\u202eBaba").detail
    assert text.hygiene_problem("a\ud800b").reason == "lone_surrogate"
    assert text.hygiene_problem("a\x07b").reason == "control_character"
    assert text.hygiene_problem("a\ue000b").reason == "private_use_character"
    assert text.hygiene_problem("a\tb\nc", multiline=True) is None
    assert text.hygiene_problem("a\nb").reason == "control_character"
    assert text.hygiene_problem("Zoë said “yes” – 5 €.") is None


@pytest.mark.parametrize("field", ["article", "id", "highlights", "source"])
def test_a_lone_surrogate_rejects_its_record_only(field):
    value = ["h\ud800"] if field == "highlights" else "x\ud800y"
    lines = [_line(**{field: value}), _line(id="b")]
    out = list(readers.parse_jsonl(lines, "f.jsonl", "public"))
    assert out[0]["reason"] == "lone_surrogate" and "line 1" in out[0]["detail"]
    assert out[1].article_id == "b"


def test_deep_json_line_is_one_rejected_record_and_the_rest_is_read():
    deep = b'{"id": "d", "article": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    fine = b'{"a": [[[["not deep"]]]], "id": "ok", "article": "B.", "highlights": ["h"]}'
    out = list(readers.parse_jsonl([deep, fine], "f.jsonl", "public"))
    assert out[0]["reason"] == "json_too_deep" and out[1].article_id == "ok"


MOJIBAKE = [("It\u00e2\u20ac\u2122s Zo\u00c3\u00ab\u00e2\u20ac\u2122s caf\u00c3\u00a9.",
             "It\u2019s Zo\u00eb\u2019s caf\u00e9."),
            ("\u00e2\u20ac\u0153Yes,\u00e2\u20ac\u009d she said.", "\u201cYes,\u201d she said.")]


@pytest.mark.parametrize("broken,fixed", MOJIBAKE)
def test_mojibake_is_repaired_and_counted(broken, fixed):
    counter = collections.Counter()
    (a,) = readers.parse_jsonl([_line(article=broken, highlights=[broken])], "f.jsonl",
                               "public", counter)
    assert a.paragraphs == (fixed,) and a.highlights == (fixed,)
    assert counter["mojibake_repaired"] == 2


def test_mojibake_repair_leaves_real_text_unchanged(corpus_dir):
    texts = [p.read_text("utf-8") for p in sorted(corpus_dir.glob("cnn_stories/*.story"))]
    texts += [json.loads(l)["article"] for l in
              (corpus_dir / "cnndm_test250.jsonl").read_text("utf-8").splitlines()]
    texts += [p.read_bytes().decode("utf-8", "replace")
              for p in sorted(corpus_dir.glob("bbc_news/*/*.txt"))[::5]]
    texts += ["Zo\u00eb Bj\u00f6rk, \u00a31,000 \u2013 \u201cna\u00efve\u201d Fa\u00e7ade \u00c5land",
              "Ma\u00f1ana \u00e0 la cr\u00e8me br\u00fbl\u00e9e, \u00c3 (a lone capital)"]
    changed = [t[:80] for t in texts if text.fix_mojibake(t)[0] != t]
    assert len(texts) > 300 and changed == []


def test_csv_row_with_bad_bytes_is_one_record(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_bytes(b'id,article,highlights\nr1,Good one.,h\nr2,Caf\xe9 bad.,h\n'
                     b'r3,"Good, two.",h\n')
    out = _read(_whole(path, "csv"))
    assert [o.article_id for o in out if isinstance(o, readers.Article)] == ["r1", "r3"]
    assert [o.row["reason"] for o in out if hasattr(o, "row")] == ["invalid_utf8"]
