"""A CSV read in parts gives exactly the rows of the whole file (issue 22 item 5): part
boundaries follow the csv module's quoting, so bare quotes inside unquoted fields, doubled
quotes, quoted newlines and CRLF cannot shift a cut into the middle of a record."""
import csv
import io
import os
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from transforms.ingestion.articles import Article
from transforms.ingestion.inputs import ReadConfig
from transforms.ingestion.layouts.csv_table import csv_boundaries
from transforms.ingestion.parts import plan_parts, whole
from transforms.ingestion.read import ReadPart

# text of a field: letters, spaces, commas, quotes and line breaks of every kind
_TEXT = st.text(alphabet='ab .,"\n\r\u00e9', min_size=0, max_size=30)
_FIELD = st.tuples(st.sampled_from(["quoted", "bare", "plain"]), _TEXT)
_ROW = st.lists(_FIELD, min_size=3, max_size=3)


def _field(kind: str, text: str) -> str:
    if kind == "quoted":            # as csv.writer quotes it
        out = io.StringIO()
        csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="").writerow([text])
        return out.getvalue()
    if kind == "bare":              # written raw: a bare quote inside an unquoted field
        return "x" + text.replace("\n", " ").replace("\r", " ") + '"y'
    return "".join(ch for ch in text if ch not in ',"\r\n')


def _outcome(parts) -> list:
    """Articles and rejected records (reason and id; the detail names rows and parts)."""
    out = []
    for part in parts:
        for item in ReadPart(ReadConfig()).apply(part):
            if isinstance(item, Article):
                out.append(("article", item.article_id, item.paragraphs, item.highlights))
            elif hasattr(item, "row") and item.row["reason"] != "empty_file":
                out.append(("rejected", item.row["reason"], item.row.get("article_id")))
    return out


def _compare(data: bytes, part_bytes: int) -> tuple:
    fd, path = tempfile.mkstemp(suffix=".csv")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        size = len(data)
        all_at_once = _outcome([whole(path, "public", "csv", size)])
        parts = plan_parts(path, "public", size, part_bytes)
        return all_at_once, _outcome(parts), len(parts)
    finally:
        os.unlink(path)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.lists(_ROW, min_size=1, max_size=25),
       eol=st.sampled_from(["\n", "\r\n", "\r"]), part_bytes=st.integers(min_value=1, max_value=120))
def test_parts_give_the_rows_of_the_whole_file(rows, eol, part_bytes):
    lines = ["id,article,highlights"]
    for i, row in enumerate(rows):
        fields = [_field(kind, text) for kind, text in row]
        fields[0] = f"r{i}" + fields[0]
        lines.append(",".join(fields))
    data = (eol.join(lines) + eol).encode("utf-8")
    all_at_once, in_parts, _ = _compare(data, part_bytes)
    assert in_parts == all_at_once


def test_bare_quotes_no_longer_lose_or_invent_records():
    """The case of the issue: a bare quote in an unquoted field (5" of rain) flipped the
    old finder's quote parity, so it cut inside records."""
    lines = ["id,article,highlights"]
    for i in range(120):
        body = f'He said 5" of rain fell {i}.' if i % 7 == 0 else f'"Quoted, body {i}."'
        lines.append(f'c{i},{body},"Bullet {i}\nBullet two"')
    data = ("\n".join(lines) + "\n").encode()
    all_at_once, in_parts, n_parts = _compare(data, 500)
    assert n_parts > 5
    assert len([o for o in all_at_once if o[0] == "article"]) == 120
    assert in_parts == all_at_once


def test_boundaries_are_record_starts_with_crlf_and_quoted_newlines():
    lines = ["id,article,highlights"] + [f'c{i},"a ""q"" {i}\r\nmore","h"' for i in range(50)]
    data = ("\r\n".join(lines) + "\r\n").encode()
    starts = csv_boundaries(io.BytesIO(data), len(data), 100)
    assert starts[0] == len(b"id,article,highlights\r\n") and len(starts) > 5
    assert all(data[s:s + 1] == b"c" for s in starts)
