"""ReCoRD JSON and SuperGLUE exports against the real files in ../shared/corpus/record_format:
the layouts, the streaming writers, and WriteExports (sorted parts merged) on TestPipeline."""
import collections
import io
import json

import apache_beam as beam
import pytest
from apache_beam.testing.test_pipeline import TestPipeline as BeamTestPipeline
from apache_beam.testing.util import assert_that, equal_to

from transforms.core.accounting import COUNTS, SumCounts
from transforms.finalize.exports import layouts as exports
from transforms.finalize.exports.export_writer import WriteExports
from transforms.finalize.publish import invariants


def _load(record_format_dir):
    record = json.loads((record_format_dir / "allennlp_models_record.json").read_text())
    superglue = {s: [json.loads(line) for line in (record_format_dir / "superglue_jsonl" / f"{s}.jsonl")
                     .read_text().splitlines() if line.strip()] for s in ("train", "val", "test")}
    return record, superglue


def _passages(rows):
    by = collections.defaultdict(list)
    for r in rows:
        by[r["passage_id"]].append(r)
    return [exports.passage_record(rs) for rs in by.values()]


@pytest.mark.fast
def test_rows_use_exclusive_end(record_format_dir):
    record, _ = _load(record_format_dir)
    rows = exports.rows_from_record_json(record)
    assert len(rows) == 2
    for row in rows:
        assert not list(invariants.check_row(row))
    assert rows[0]["answers"][0] == {"start": 0, "end": 12, "text": "Tracy Morgan"}
    assert rows[0]["passage"][0:12] == "Tracy Morgan"


@pytest.mark.fast
def test_official_record_json_round_trips_exactly(record_format_dir):
    record, _ = _load(record_format_dir)
    rebuilt = exports.record_json(_passages(exports.rows_from_record_json(record)))
    assert rebuilt == record
    assert json.loads(exports.dumps_record_json(rebuilt)) == record


@pytest.mark.fast
@pytest.mark.parametrize("split", ["train", "val"])
def test_superglue_lines_round_trip_exactly(record_format_dir, split):
    _, superglue = _load(record_format_dir)
    rows = exports.rows_from_superglue(superglue[split], id_prefix="sg")
    assert exports.superglue_lines(_passages(rows)) == superglue[split]


@pytest.mark.fast
def test_superglue_test_layout_has_no_answers(record_format_dir):
    _, superglue = _load(record_format_dir)
    rows = exports.rows_from_superglue(superglue["val"], id_prefix="sg")
    lines = exports.superglue_lines(_passages(rows), with_answers=False)
    assert [sorted(qa) for line in lines for qa in line["qas"]] == \
        [sorted(qa) for qa in superglue["test"][0]["qas"]] * 2 == [["idx", "query"]] * 2
    assert not list(invariants.check_superglue_lines(lines, "test"))
    assert list(invariants.check_superglue_lines(superglue["train"], "test"))  # answers in test


@pytest.mark.fast
def test_real_files_pass_the_inclusive_checks(record_format_dir):
    record, superglue = _load(record_format_dir)
    assert not list(invariants.check_record_json(record, "dev"))
    for split, name in (("train", "train"), ("dev", "val"), ("test", "test")):
        assert not list(invariants.check_superglue_lines(superglue[name], split))


@pytest.mark.fast
def test_inclusive_check_catches_an_exclusive_end(record_format_dir):
    record, _ = _load(record_format_dir)
    record["data"][0]["qas"][0]["answers"][0]["end"] += 1   # exclusive by mistake
    problems = list(invariants.check_record_json(record, "dev"))
    assert problems and "'Tracy Morgan '" in problems[0] and "483577c8" in problems[0]


@pytest.mark.fast
def test_passage_record_sorts_queries_and_maps_source():
    row = {"passage_id": "p", "article_id": "a", "source": "dailymail", "origin": "public",
           "url": None, "split": "train", "passage": "Ann met Bob.",
           "entities": [{"start": 0, "end": 3, "text": "Ann", "label": "PERSON"},
                        {"start": 8, "end": 11, "text": "Bob", "label": "PERSON"}]}
    rows = [dict(row, id=qid, query=f"{qid} @placeholder", answers=[{"start": 0, "end": 3, "text": "Ann"}])
            for qid in ("q2", "q1")]
    entry = exports.record_entry(exports.passage_record(rows))
    assert [qa["id"] for qa in entry["qas"]] == ["q1", "q2"]
    assert entry["source"] == "Daily mail"
    assert entry["passage"]["entities"] == [{"start": 0, "end": 2}, {"start": 8, "end": 10}]
    assert entry["qas"][0]["answers"] == [{"start": 0, "end": 2, "text": "Ann"}]
    hidden = exports.record_entry(exports.passage_record(rows), with_answers=False)
    assert all(qa["answers"] == [] for qa in hidden["qas"])


def _real_passages(record_format_dir):
    record, superglue = _load(record_format_dir)
    rows = exports.rows_from_record_json(record)
    for split in ("train", "val"):
        rows += exports.rows_from_superglue(superglue[split], id_prefix=f"sg-{split}")
    return _passages(rows)


@pytest.mark.fast
def test_streaming_writers_write_the_same_bytes(record_format_dir):
    passages = _real_passages(record_format_dir)
    for with_answers in (True, False):
        ordered = sorted(passages, key=lambda p: p["passage_id"])
        f = io.StringIO()
        n = exports.write_record_json(f, (exports.record_entry(p, with_answers) for p in ordered))
        assert n == len(passages)
        assert f.getvalue() == exports.dumps_record_json(exports.record_json(passages, with_answers))
        f = io.StringIO()
        counts = exports.write_superglue(f, (exports.superglue_line(p, with_answers) for p in ordered))
        assert counts == (len(passages), sum(len(p["qas"]) for p in passages))
        assert f.getvalue() == exports.dumps_jsonl(exports.superglue_lines(passages, with_answers))
    empty = io.StringIO()
    exports.write_record_json(empty, [])
    assert empty.getvalue() == exports.dumps_record_json(exports.record_json([]))


@pytest.mark.parametrize("part_passages", [1, 2, 100])
def test_write_exports_merges_sorted_parts_into_one_file_per_split(record_format_dir, tmp_path,
                                                                  part_passages):
    passages = _real_passages(record_format_dir)
    for n, p in enumerate(passages):
        p["split"] = ("train", "test")[n % 2]
    out = tmp_path / "out"
    with BeamTestPipeline() as p:
        result = (p | beam.Create(passages)
                  | WriteExports(str(out), str(tmp_path / "parts"), test_answers_in_record=False,
                                 part_passages=part_passages))
        by_split = collections.Counter(p["split"] for p in passages)
        queries = collections.Counter()
        for passage in passages:
            queries[passage["split"]] += len(passage["qas"])
        assert_that(result["main"], equal_to([
            (s, (by_split[s], queries[s])) for s in ("train", "dev", "test")]), label="Tallies")
        assert_that(result[COUNTS] | beam.CombineGlobally(SumCounts()) | beam.Map(
            lambda c: c["write.max_group_export_parts"]),
            equal_to([-(-max(by_split.values()) // part_passages)]), label="Parts")
    for split in ("train", "dev", "test"):
        mine = [p for p in passages if p["split"] == split]
        assert (out / "record" / f"{split}.json").read_text() == exports.dumps_record_json(
            exports.record_json(mine, with_answers=split != "test"))
        assert (out / "superglue" / f"{exports.SUPERGLUE_SPLIT[split]}.jsonl").read_text() == \
            exports.dumps_jsonl(exports.superglue_lines(mine, with_answers=split != "test"))
    assert not list(invariants.check_superglue_lines(
        [json.loads(line) for line in (out / "superglue" / "test.jsonl").read_text().splitlines()],
        "test"))
