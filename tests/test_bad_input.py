"""Bad input is rejected with a reason and counted, never crashes the job or vanishes;
and two runs over the same input give identical rows."""
import glob
import json
import shutil

import pyarrow.parquet as pq
import pytest

from beam_pipelines import generate

GOOD = ["469c6ac05092ca5997728c9dfc19f9ab6b936e40", "f001ec5c4704938247d27a44948eebb37ae98d01",
        "4495ba8f3a340d97a9df1476f8a35502bcce1f69"]


@pytest.fixture(scope="module")
def messy_corpus(corpus_dir, tmp_path_factory):
    d = tmp_path_factory.mktemp("messy")
    for name in GOOD:
        shutil.copy(corpus_dir / "cnn_stories" / f"{name}.story", d / f"{name}.story")
    (d / "dup").mkdir()   # the same story id a second time, from another folder
    shutil.copy(corpus_dir / "cnn_stories" / f"{GOOD[0]}.story", d / "dup" / f"{GOOD[0]}.story")
    (d / "no-highlights.story").write_text("A body paragraph.\n\nAnother one.\n")
    (d / "only-highlights.story").write_text("@highlight\n\nA bullet\n\n@highlight\n\nMore\n")
    (d / "empty.story").write_text("")
    (d / "latin1.story").write_bytes("Caf\u00e9 cr\u00e8me\n\n@highlight\n\nx".encode("latin-1"))
    (d / "binary.story").write_bytes(bytes(range(256)) * 4)
    (d / "huge.story").write_text(("word " * 1_000_000) + "\n\n@highlight\n\nA bullet\n")
    rows = [json.loads(line) for line in
            (corpus_dir / "cnndm_test250.jsonl").read_text().splitlines()[:3]]
    lines = [json.dumps(rows[0]), "{not json", json.dumps({"id": "x", "highlights": ["h"]}),
             json.dumps({k: v for k, v in rows[1].items() if k != "highlights"}),
             json.dumps(rows[2])]
    (d / "mixed.jsonl").write_text("\n".join(lines) + "\n")
    (d / "other-columns.csv").write_text("title,body\nA,B\n")
    (d / "notes.docx").write_bytes(b"PK\x03\x04")
    return d


def _run(corpus, out):
    return generate.run(["--input", str(corpus / "*"), "--input", str(corpus / "dup" / "*"),
                         "--output", str(out), "--workers", "1"])


@pytest.fixture(scope="module")
def first_run(messy_corpus, tmp_path_factory):
    out = tmp_path_factory.mktemp("messy-out-1")
    return out, _run(messy_corpus, out)


def _rows(out, kind):
    files = sorted(glob.glob(str(out / kind / "*.parquet")))
    return pq.read_table(files).to_pylist()


def test_every_bad_record_has_a_reason(first_run):
    out, stats = first_run
    rejected = _rows(out, "rejected")
    by_file = {}
    for r in rejected:
        if r["stage"] in ("read", "clean", "deduplicate"):
            by_file.setdefault((r["source_file"] or "").rsplit("/", 1)[-1], []).append(r["reason"])
    assert by_file["no-highlights.story"] == ["no_highlights"]
    assert by_file["only-highlights.story"] == ["only_highlights"]
    assert by_file["empty.story"] == ["empty_article"]
    assert by_file["latin1.story"] == ["invalid_utf8"]
    assert by_file["binary.story"] == ["binary_file"]
    assert by_file["huge.story"] == ["article_too_long"]
    assert sorted(by_file["mixed.jsonl"]) == ["broken_json_line", "missing_field:article",
                                              "missing_field:highlights"]
    assert by_file["other-columns.csv"] == ["csv_missing_columns"]
    assert by_file["notes.docx"] == ["unknown_file_type"]
    unknown = [r for r in rejected if r["reason"] == "unknown_file_type"][0]
    assert "notes.docx" in unknown["detail"]
    # the duplicate id is kept once, and the copy that lost is named
    dups = [r for r in rejected if r["reason"] == "duplicate_article_id"]
    assert [d["article_id"] for d in dups] == [GOOD[0]]


def test_nothing_is_lost(first_run, corpus_dir):
    out, stats = first_run
    assert stats["unbalanced"] == []
    for name, s in stats["stages"].items():
        assert s["in"] == s["out"] + s["rejected"], name
    assert stats["stages"]["read"]["in"] == 3 + 1 + 6 + 5 + 1 + 1   # stories, dup, bad, jsonl, csv, docx
    assert stats["stages"]["deduplicate"]["out"] == 3 + 2             # good stories + jsonl
    assert len(_rows(out, "rejected")) == sum(s["rejected"] for s in stats["stages"].values())
    candidates = _rows(out, "candidates")
    assert len(candidates) == stats["stages"]["query"]["out"] > 0
    lines = (corpus_dir / "cnndm_test250.jsonl").read_text().splitlines()
    good_jsonl = {json.loads(lines[0])["id"], json.loads(lines[2])["id"]}
    assert {r["article_id"] for r in candidates} <= set(GOOD) | good_jsonl


def test_same_input_same_rows(first_run, messy_corpus, tmp_path_factory):
    out1, stats1 = first_run
    out2 = tmp_path_factory.mktemp("messy-out-2")
    stats2 = _run(messy_corpus, out2)
    key = lambda r: r["id"]  # noqa: E731
    assert sorted(_rows(out1, "candidates"), key=key) == sorted(_rows(out2, "candidates"), key=key)
    assert stats1["stages"] == stats2["stages"]
