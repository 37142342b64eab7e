"""validate: passes on a finalized dataset, fails naming the row on corrupted copies."""
import collections
import shutil
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from beam_pipelines import validate
from tests.test_finalize import fixture_rows, run_finalize, write_filtered
from transforms.finalize import invariants
from transforms.core.schema import DATASET_SCHEMA
from transforms.finalize.splits import SplitConfig

ROW = {"id": "q1", "passage_id": "p1", "article_id": "a1", "source": "cnn", "origin": "public",
       "url": "http://x/1", "passage": "Ann met Bob in Rome.", "split": "train",
       "entities": [{"start": 0, "end": 3, "text": "Ann", "label": "PERSON"},
                    {"start": 8, "end": 11, "text": "Bob", "label": "PERSON"},
                    {"start": 15, "end": 19, "text": "Rome", "label": "GPE"}],
       "query": "@placeholder later left.", "answers": [{"start": 0, "end": 3, "text": "Ann"}]}


@pytest.mark.fast
def test_check_row_accepts_a_good_row_and_names_each_broken_invariant():
    assert list(invariants.check_row(ROW)) == []
    shifted = dict(ROW, answers=[{"start": 1, "end": 4, "text": "Ann"}])
    assert any("answer span [1, 4) reads 'nn '" in v and "'q1'" in v for v in invariants.check_row(shifted))
    two = dict(ROW, query="@placeholder met @placeholder.")
    assert list(invariants.check_row(two)) == ["train row 'q1': query has 2 @placeholder markers, expected exactly 1"]
    assert "no answers" in list(invariants.check_row(dict(ROW, answers=[])))[0]
    not_entity = dict(ROW, answers=[{"start": 4, "end": 7, "text": "met"}])
    assert "is not one of the entities" in list(invariants.check_row(not_entity))[0]



@pytest.mark.fast
def test_check_row_names_a_character_a_worker_cannot_type():
    """Issue 22: an entity holding a bidi override was released and its HIT unanswerable."""
    passage = "Ann met B\u202eob in Rome."
    bidi = dict(ROW, passage=passage, entities=[dict(ROW["entities"][1], end=12, text="B\u202eob")],
                answers=[{"start": 8, "end": 12, "text": "B\u202eob"}])
    assert list(invariants.check_row(bidi)) == [
        "train row 'q1': passage holds a format_character (U+202E at 9)"]
    assert list(invariants.check_row(dict(ROW, query="@placeholder\u200b left."))) == [
        "train row 'q1': query holds a format_character (U+200B at 12)"]


@pytest.mark.fast
def test_leakage_checker_finds_shared_ids_passages_articles_and_urls():
    checker = invariants.LeakageChecker(SplitConfig.paper())
    assert list(checker.add(ROW)) == []
    other = dict(ROW, id="q2", split="dev", passage_id="p2", article_id="a2", passage="Other text.",
                 url="http://x/1")
    assert [v.split(": ", 1)[1] for v in checker.add(other)] == \
        ["url 'http://x/1' appears in both train and dev (leakage)"]
    same_text = dict(ROW, id="q1", split="test", passage_id="p3", article_id="a3", url=None, origin="crawled")
    problems = list(checker.add(same_text))
    assert problems[0] == "test row 'q1': id is not unique"
    assert any("passage text 'Ann met Bob in Rome....' appears in both train and test" in p for p in problems)
    assert list(checker.add(dict(ROW, id="q9", origin="crawled")))[-1].endswith(
        "origin 'crawled' is not allowed in train by the split policy")


@pytest.fixture(scope="module")
def dataset(record_format_dir, tmp_path_factory):
    root = tmp_path_factory.mktemp("validate")
    return run_finalize(write_filtered(root, fixture_rows(record_format_dir)), root / "dataset")


def _copy(dataset, tmp_path):
    shutil.copytree(dataset, tmp_path / "copy")
    return tmp_path / "copy"


def _rewrite(path, rows):
    pq.write_table(pa.Table.from_pylist(rows, schema=DATASET_SCHEMA), path)


def _shard(root, split):
    (path,) = root.glob(f"{split}-*.parquet")
    return path, pq.read_table(path).to_pylist()


def test_clean_dataset_passes(dataset):
    assert validate.run([str(dataset)]) == []
    out = subprocess.run([sys.executable, "-m", "beam_pipelines.validate", str(dataset)],
                         capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("OK")


def test_shifted_span_is_named(dataset, tmp_path):
    root = _copy(dataset, tmp_path)
    path, rows = _shard(root, "dev")
    a = rows[0]["answers"][0]
    rows[0]["answers"][0] = dict(a, start=a["start"] + 1, end=a["end"] + 1)
    _rewrite(path, rows)
    violations = validate.run([str(root)])
    assert violations[0].startswith(f"dev row {rows[0]['id']!r}: answer span [{a['start'] + 1}, {a['end'] + 1})")
    out = subprocess.run([sys.executable, "-m", "beam_pipelines.validate", str(root)],
                         capture_output=True, text=True)
    assert out.returncode == 1 and rows[0]["id"] in out.stderr


def test_two_placeholders_are_named(dataset, tmp_path):
    root = _copy(dataset, tmp_path)
    path, rows = _shard(root, "train")
    rows[3]["query"] = rows[3]["query"] + " And @placeholder too."
    _rewrite(path, rows)
    assert validate.run([str(root)])[0] == \
        f"train row {rows[3]['id']!r}: query has 2 @placeholder markers, expected exactly 1"


def test_passage_in_two_splits_is_named(dataset, tmp_path):
    root = _copy(dataset, tmp_path)
    train_path, train = _shard(root, "train")
    test_path, test = _shard(root, "test")
    per_passage = collections.Counter(r["passage_id"] for r in train)
    moved = next(r for r in train if per_passage[r["passage_id"]] > 1)
    _rewrite(train_path, [r for r in train if r is not moved])
    _rewrite(test_path, test + [dict(moved, split="test")])
    violations = validate.run([str(root)])
    assert violations[0] == (f"test row {moved['id']!r}: passage_id {moved['passage_id']!r} "
                             "appears in both train and test (leakage)")
    assert any(f"article {moved['article_id']!r} appears in both train and test" in v for v in violations)


def test_exports_out_of_step_with_the_shards_are_caught(dataset, tmp_path):
    root = _copy(dataset, tmp_path)
    record = root / "record" / "train.json"
    record.write_text(record.read_text().replace('"end": ', '"end": 9999', 1))
    (root / "superglue" / "test.jsonl").write_text("")
    violations = validate.run([str(root), "--max_violations", "50"])
    assert any(v.startswith("record/train.json passage") and "outside the passage" in v for v in violations)
    assert any(v.startswith("superglue/test.jsonl: 0 queries") for v in violations)


def test_missing_files_are_reported(dataset, tmp_path):
    root = _copy(dataset, tmp_path)
    (root / "stats.json").unlink()
    next(root.glob("dev-*.parquet")).unlink()
    violations = validate.run([str(root)])
    assert "stats.json is missing" in violations and "no dev-*.parquet shards" in violations


def test_a_gap_in_the_funnel_fails_validation(dataset, tmp_path):
    import json
    root = _copy(dataset, tmp_path)
    stats = json.loads((root / "stats.json").read_text())
    steps = list(stats["funnel"]["stages"])
    middle = steps[len(steps) // 2]
    stats["funnel"]["stages"][middle]["out"] -= 1     # a record lost without a reason
    (root / "stats.json").write_text(json.dumps(stats))
    violations = validate.run([str(root)])
    assert any(f"funnel gap: {middle}: in" in v for v in violations), violations
    del stats["funnel"]
    (root / "stats.json").write_text(json.dumps(stats))
    assert any("has no funnel" in v for v in validate.run([str(root)]))
