"""The `.tsv` layout (transforms/ingestion/layouts/tsv_table.py): the worked example of
docs/pipeline.md, "Adding an input layout". Real CNN/Daily Mail rows written as TSV read
as the same Articles as the same rows written as CSV, through the job's own path."""
import csv
import json

import pytest

from transforms.core.preflight import InputError
from transforms.ingestion import inputs, registry
from transforms.ingestion.articles import Article
from transforms.ingestion.layouts import tsv_table
from transforms.ingestion.parts import plan_parts
from transforms.ingestion.read import ReadPart
from transforms.ingestion.specs import parse_input


def _read(spec, config=inputs.ReadConfig(), limit=None) -> list:
    """Articles and rejected rows the job reads for one input (pre-flight, parts, read)."""
    listed = inputs.list_inputs([parse_input(spec)])
    files = inputs.limit_files(listed, limit) if limit else inputs.listed_files(listed)
    out = []
    for f in files:
        for part in plan_parts(f.path, f.origin, f.size, 1 << 20, f.cap, f.source, f.columns):
            out += [o if isinstance(o, Article) else o.row for o in ReadPart(config).apply(part)
                    if isinstance(o, Article) or hasattr(o, "row")]
    return out


def _write(path, rows, dialect):
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]), dialect=dialect)
        writer.writeheader()
        writer.writerows(rows)


@pytest.fixture(scope="module")
def rows(corpus_dir) -> list:
    """Real rows in the Hugging Face layout, a tab inside one article."""
    lines = (corpus_dir / "cnndm_test250.jsonl").read_text().splitlines()[20:32]
    out = [{"id": r["id"], "article": r["article"], "highlights": "\n".join(r["highlights"])}
           for r in map(json.loads, lines)]
    out[0]["article"] = out[0]["article"].replace(" ", "\t", 1)
    return out


def test_tsv_rows_read_as_the_same_articles_as_csv(rows, tmp_path):
    _write(tmp_path / "rows.tsv", rows, "excel-tab")
    _write(tmp_path / "rows.csv", rows, "excel")
    assert registry.file_type(str(tmp_path / "rows.tsv.gz")) == "tsv"
    tsv, as_csv = _read(str(tmp_path / "rows.tsv")), _read(str(tmp_path / "rows.csv"))
    assert len(tsv) == len(rows) == 12 and all(isinstance(a, Article) for a in tsv)
    assert [a.with_(source_file="") for a in tsv] == [a.with_(source_file="") for a in as_csv]
    assert sum(len(a.highlights) for a in tsv) > 2 * len(tsv)   # one a line, in one cell
    assert "\t" in tsv[0].paragraphs[0]      # a tab inside a quoted cell is no column break
    listed = inputs.list_inputs([str(tmp_path / "rows.tsv")])
    assert inputs.estimate_records(listed) == (12, True)
    assert [f.cap for f in inputs.limit_files(listed, 5)] == [5]
    assert len(_read(str(tmp_path / "rows.tsv"), limit=5)) == 5


def test_tsv_columns_are_mapped_and_checked(rows, tmp_path):
    _write(tmp_path / "mapped.tsv", [{"key": r["id"], "story": r["article"],
                                      "abstract": r["highlights"]} for r in rows], "excel-tab")
    spec = str(tmp_path / "mapped.tsv") + "::id=key,text=story,summary=abstract,source=mail"
    got = _read(spec)
    assert [a.article_id for a in got] == [r["id"] for r in rows]
    assert {a.source for a in got} == {"mail"}
    with pytest.raises(InputError, match="mapped column.*text=body"):
        inputs.list_inputs([parse_input(str(tmp_path / "mapped.tsv") + "::text=body")])
    assert tsv_table.LAYOUT in registry.LAYOUTS


def test_bad_tsv_rows_are_rejected_with_reasons(rows, tmp_path):
    (tmp_path / "other.tsv").write_text("title\tbody\nA\tB\n")
    assert [(r["reason"], r["detail"][:9]) for r in _read(str(tmp_path / "other.tsv"))] == [
        ("tsv_missing_columns", "missing [")]
    big = dict(rows[1], id="big", article="word " * 30_000)
    _write(tmp_path / "big.tsv", [rows[0], big, rows[2]], "excel-tab")
    got = _read(str(tmp_path / "big.tsv"), inputs.ReadConfig(max_record_mb=0.1))
    assert [a.article_id if isinstance(a, Article) else a["reason"] for a in got] == [
        rows[0]["id"], "record_too_large", rows[2]["id"]]
