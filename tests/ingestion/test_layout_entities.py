"""HTML character references are decoded once, at the door, whatever the layout: every
registered layout (transforms/ingestion/registry.py) reads a real CNN/Daily Mail article
holding `&#163;`, `&eacute;`, `&amp;#8217;` and `&notaname;` through the job's own path
(pre-flight, parts, `ReadPart`) and gives the same decoded text. A new layout must name a
writer here, so a layout that skipped the shared `text.clean_prose` step fails."""
import csv
import gzip
import io
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from transforms.ingestion import inputs, registry
from transforms.ingestion.articles import Article
from transforms.ingestion.parts import plan_parts
from transforms.ingestion.read import ReadPart
from transforms.ingestion.specs import parse_input

MARKED = " The deal was worth &#163;1.8m to the caf&eacute;&amp;#8217;s owner &notaname; today."
DECODED = " The deal was worth £1.8m to the café’s owner &notaname; today."


def _read(path: str) -> list:
    listed = inputs.list_inputs([parse_input(path)])
    out = []
    for f in inputs.listed_files(listed):
        for part in plan_parts(f.path, f.origin, f.size, 1 << 20, f.cap, f.source, f.columns):
            out += [o for o in ReadPart(inputs.ReadConfig(allow_no_highlights=True)).apply(part)
                    if isinstance(o, Article)]
    return out


def _table(row: dict, path, dialect):
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(row), dialect=dialect)
        writer.writeheader()
        writer.writerow(row)


def _page(row: dict) -> bytes:
    """A news page; `&amp;#163;` in markup is `&#163;` in its text, left for the door."""
    body = "".join(f"<p>{p.replace('&', '&amp;')}</p>" for p in row["article"].split("\n"))
    return (f"<html><head><title>{row['title']}</title></head><body><article>"
            f"<h1>{row['title']}</h1>{body}</article></body></html>").encode()


def _warc(row: dict, path):
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter
    buf = io.BytesIO()
    writer = WARCWriter(buf, gzip=True)
    headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")],
                               protocol="HTTP/1.1")
    writer.write_record(writer.create_warc_record(row["url"], "response", http_headers=headers,
                                                  payload=io.BytesIO(_page(row))))
    path.write_bytes(buf.getvalue())


def _arrow(row: dict, path):
    table = pa.Table.from_pylist([row])
    with pa.ipc.new_stream(str(path), table.schema) as w:
        w.write_table(table)


WRITERS = {   # layout name -> (file name, writer of one row)
    "story": ("a.story", lambda r, p: p.write_text(
        r["article"] + "\n\n@highlight\n\n" + r["highlights"] + "\n")),
    "jsonl": ("a.jsonl.gz", lambda r, p: p.write_bytes(gzip.compress(json.dumps(r).encode()))),
    "csv": ("a.csv", lambda r, p: _table(r, p, "excel")),
    "tsv": ("a.tsv", lambda r, p: _table(r, p, "excel-tab")),
    "parquet": ("a.parquet", lambda r, p: pq.write_table(pa.Table.from_pylist([r]), p)),
    "arrow": ("a.arrow", _arrow),
    "html": ("a.htm", lambda r, p: p.write_bytes(_page(r))),
    "warc": ("a.warc.gz", _warc),
    "txt": ("a.txt", lambda r, p: p.write_text(r["title"] + "\n\n" + r["article"] + "\n")),
}


@pytest.fixture(scope="module")
def row(corpus_dir) -> dict:
    line = (corpus_dir / "cnndm_test250.jsonl").read_text().splitlines()[40]
    r = json.loads(line)
    paragraphs = r["article"].split("\n")
    paragraphs[0] += MARKED
    return {"id": r["id"], "url": r["url"], "title": "Owner of the caf&eacute; sells",
            "article": "\n".join(paragraphs), "highlights": "Sold for &#163;1.8m"}


def test_every_layout_has_a_writer_here():
    assert set(WRITERS) == {layout.name for layout in registry.LAYOUTS}


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_references_are_decoded_in_every_layout(name, row, tmp_path):
    file_name, write = WRITERS[name]
    write(row, tmp_path / file_name)
    assert registry.file_type(file_name) == name
    (article,) = _read(str(tmp_path / file_name))
    text = "\n".join(article.paragraphs)
    assert DECODED.strip() in text and "&#" not in text and "&eacute;" not in text
    if article.highlights:
        assert article.highlights == ("Sold for £1.8m",)
