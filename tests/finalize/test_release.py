"""A release others download, check and load: byte-identical files for any worker count,
a sha256 per file that `validate` recomputes, the Hugging Face card metadata and split
names, and `publish` checked offline up to the upload call."""
import json
import shutil
import subprocess
import sys

import apache_beam as beam
import pyarrow.parquet as pq
import pytest

from beam_pipelines import publish as publish_cli
from beam_pipelines import validate
from tests.finalize.test_finalize import fixture_rows, run_finalize, write_filtered
from transforms.core import manifest
from transforms.core.preflight import InputError
from transforms.core.schema import REJECTED_SCHEMA
from transforms.finalize.exports import hub
from transforms.finalize.exports.shards import WriteSortedShards
from transforms.finalize.publish import upload as publish
from transforms.finalize.report import assemble as report

SPLITS = ("train", "dev", "test")


# --- unit: manifests, canonical shards, card metadata, warnings (fast) -------------------

@pytest.mark.fast
def test_manifest_hashes_catch_a_same_size_rewrite(tmp_path):
    (tmp_path / "a.txt").write_text("hello world\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.txt").write_text("other\n")
    stored = manifest.write(str(tmp_path))
    assert len(stored["files"]["a.txt"]["sha256"]) == 64
    (tmp_path / "a.txt").write_text("hello World\n")          # same size
    assert manifest.differences(stored, manifest.describe(str(tmp_path))) == \
        ["a.txt changed (content differs from the sha256 in the manifest)"]
    with pytest.raises(manifest.ManifestError, match="a.txt changed"):
        manifest.check(str(tmp_path))
    # a manifest written before hashes existed is compared by size only
    old = {"files": {k: {"size": v["size"]} for k, v in stored["files"].items()}}
    assert manifest.differences(old, manifest.describe(str(tmp_path))) == []
    assert manifest.describe(str(tmp_path), hashes=False)["files"]["a.txt"] == {"size": 12}


def _rejected(i):
    return {"stage": "split" if i % 2 else "dedupe", "reason": f"r{i % 3}",
            "article_id": None if i % 5 == 0 else f"a{i:03d}", "record_id": f"q{i:03d}",
            "source_file": None, "detail": None}


@pytest.mark.fast
@pytest.mark.parametrize("shard_rows", [100, 7])
def test_sorted_shards_are_byte_identical_whatever_the_input_order(tmp_path, shard_rows):
    rows = [_rejected(i) for i in range(40)]
    outputs = []
    for n, order in enumerate((rows, rows[::-1], rows[13:] + rows[:13])):
        out = tmp_path / f"run{n}"
        with beam.Pipeline(runner="FnApiRunner") as p:
            _ = (p | beam.Create(order, reshuffle=True) | WriteSortedShards(
                str(out), ("rejected",), shard_rows, schema=REJECTED_SCHEMA,
                key_columns=tuple(REJECTED_SCHEMA.names)))
        outputs.append({f.name: f.read_bytes() for f in sorted(out.glob("*.parquet"))})
    assert outputs[0] == outputs[1] == outputs[2]
    assert len(outputs[0]) == -(-40 // shard_rows)
    for data in outputs[0]:
        table = pq.read_table(tmp_path / "run0" / data).to_pylist()
        keys = [tuple("" if r[c] is None else r[c] for c in REJECTED_SCHEMA.names) for r in table]
        assert [r["record_id"] for r in table] == [r["record_id"] for r in sorted(
            table, key=lambda r: tuple((r[c] is None, r[c] or "") for c in REJECTED_SCHEMA.names))]
        assert len(keys) == len(set(keys))


def _stats(queries=1500, validated=None, hv=None, split_reasons=None):
    return {"config": {"validated": validated, "settings": {"license": "cc-by-4.0"},
                       "split": {}},
            "summary": {"train_queries": queries, "dev_queries": 0, "test_queries": 0,
                        "passages": 10},
            "table1": {"overall": {"queries": queries}},
            "funnel": {"stages": {"human_validation": hv or {"in": queries, "reasons": {}},
                                  "split": {"reasons": split_reasons or {}}}}}


@pytest.mark.fast
def test_card_metadata_holds_the_hub_fields_and_maps_dev_to_validation():
    meta = hub.parse_card_yaml("\n".join(hub.card_yaml(_stats())) + "\n# title\n")
    assert meta["license"] == "cc-by-4.0" and meta["task_ids"] == ["extractive-qa"]
    assert meta["size_categories"] == ["1K<n<10K"] and meta["source_datasets"] == ["original"]
    assert meta["language"] == ["en"] and meta["task_categories"] == ["question-answering"]
    assert meta["configs"][0]["data_files"] == [
        {"split": "train", "path": "train-*.parquet"},
        {"split": "validation", "path": "dev-*.parquet"},
        {"split": "test", "path": "test-*.parquet"}]
    assert meta["annotations_creators"] == ["machine-generated"]
    assert [hub.size_category(n) for n in (0, 999, 1000, 250_000)] == \
        ["n<1K", "n<1K", "1K<n<10K", "100K<n<1M"]
    with pytest.raises(ValueError, match="does not open with a YAML block"):
        hub.parse_card_yaml("# no metadata\n")
    with pytest.raises(ValueError, match="does not parse"):
        hub.parse_card_yaml("---\nlicense: [unclosed\n---\n")
    assert hub.release_key(_stats()) == hub.release_key(_stats()) != hub.release_key(_stats(7))
    other_layout = _stats()
    other_layout["config"]["settings"]["num_shards"] = 4
    assert hub.release_key(other_layout) == hub.release_key(_stats())


@pytest.mark.fast
def test_an_empty_dev_after_a_partial_ingest_names_the_unvalidated_queries():
    hv = {"in": 61, "reasons": {"not_human_validated": 50}, "valid_for_train": 11}
    warning = report.empty_split_warning(_stats(11, "run/validated", hv), "dev", "policy")
    assert warning.startswith("finalize: dev is empty because human validation covers too "
                              "few queries, not because of the split policy")
    assert "50 have no verdict" in warning and "11 are valid only for train" in warning
    assert "0 for dev/test" in warning and "split policy against" not in warning
    plain = report.empty_split_warning(_stats(11, None, None, {"dev_size_cap": 4}), "dev", "p")
    assert "check the split policy" in plain and "dev_size_cap 4" in plain


@pytest.mark.fast
def test_internal_files_and_card_problems_are_named():
    assert [n for n in ("train-00000-of-00001.parquet", "_MANIFEST.json", "_build/finalize.json",
                        "record/.x.swp", "_scratch/p.jsonl", "stats.json.tmp", "README.md")
            if publish.internal(n)] == ["_build/finalize.json", "record/.x.swp",
                                        "_scratch/p.jsonl", "stats.json.tmp"]
    meta = hub.card_metadata(_stats())
    assert publish.card_problems(meta, ["train-00000-of-00001.parquet", "dev-00000-of-00001.parquet",
                                        "test-00000-of-00001.parquet"]) == []
    meta["configs"][0]["data_files"][1]["split"] = "dev"
    del meta["license"]
    assert publish.card_problems(meta, ["train-00000-of-00001.parquet"]) == [
        "the card's YAML lacks license",
        "the card's configs name splits ['train', 'dev', 'test'], the hub expects "
        "['train', 'validation', 'test']",
        "the card's configs path 'dev-*.parquet' matches no file",
        "the card's configs path 'test-*.parquet' matches no file"]


# --- the stage: same bytes for 1 and 2 workers, tampering, hub loading, publish ----------

@pytest.fixture(scope="module")
def releases(record_format_dir, tmp_path_factory):
    root = tmp_path_factory.mktemp("release")
    filtered = write_filtered(root, fixture_rows(record_format_dir))
    one = run_finalize(filtered, root / "one", "--shard_rows", "20", "--license", "cc-by-4.0")
    two = run_finalize(filtered, root / "two", "--shard_rows", "20", "--license", "cc-by-4.0",
                       "--workers", "2")
    return one, two


def _files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_one_and_two_workers_write_byte_identical_files(releases):
    one, two = releases
    a, b = _files(one), _files(two)
    assert sorted(a) == sorted(b)
    assert [name for name in a if a[name] != b[name]] == []
    assert sum(n.endswith(".parquet") and not n.startswith(("articles/", "rejected/"))
               for n in a) > 3                       # several shards per split
    for name in a:
        if name.endswith(".parquet") and "/" not in name:
            ids = pq.read_table(one / name, columns=["id"]).column("id").to_pylist()
            assert ids == sorted(ids), name
    stored = json.loads(a["_MANIFEST.json"])
    import hashlib
    for name, entry in stored["files"].items():
        assert entry["sha256"] == hashlib.sha256(a[name]).hexdigest(), name


def tamper_one_query(path):
    """Change one letter of one query inside the shard's bytes: same size, same row count,
    a file that still reads. Returns (id, old query, new query)."""
    data = bytearray(path.read_bytes())
    for row in pq.read_table(path).to_pylist():
        word = next((w for w in row["query"].split() if len(w) >= 6 and w.isalpha()), None)
        at = data.find(word.encode()) if word else -1
        if word and at >= 0 and data.count(word.encode()) == 1:
            data[at] = ord("Q" if word[0] != "Q" else "X")
            path.write_bytes(bytes(data))
            changed = {r["id"]: r["query"] for r in pq.read_table(path).to_pylist()}
            if changed[row["id"]] != row["query"]:
                return row["id"], row["query"], changed[row["id"]]
    raise AssertionError(f"no query of {path} could be changed in place")


def test_a_shard_rewritten_at_the_same_size_fails_validate_naming_it(releases, tmp_path):
    root = shutil.copytree(releases[0], tmp_path / "copy")
    shard = sorted(root.glob("train-*.parquet"))[0]
    size, rows = shard.stat().st_size, pq.ParquetFile(shard).metadata.num_rows
    qid, old, new = tamper_one_query(shard)
    assert (shard.stat().st_size, pq.ParquetFile(shard).metadata.num_rows) == (size, rows)
    assert old != new
    violations = validate.run([str(root), "--max_violations", "100"])
    assert (f"{shard.name}: content differs from the sha256 in the manifest (changed after the "
            "release was written)") in violations
    # the exports, cross-checked field by field, name the changed query too
    assert f"record/train.json query {qid!r}: query text differs from the shard's" in violations
    out = subprocess.run([sys.executable, "-m", "beam_pipelines.validate", str(root)],
                         capture_output=True, text=True)
    assert out.returncode == 1 and shard.name in out.stderr
    (root / "extra.txt").write_text("x")
    assert "extra.txt: not listed in _MANIFEST.json (added after the release was written)" \
        in validate.run([str(root)])


def test_load_dataset_on_the_folder_gives_train_validation_test(releases, tmp_path):
    from datasets import load_dataset
    one = releases[0]
    stats = json.loads((one / "stats.json").read_text())
    ds = load_dataset(str(one), cache_dir=str(tmp_path / "hf"))
    assert sorted(ds) == ["test", "train", "validation"]
    for split, hub_split in hub.HUB_SPLIT.items():
        assert ds[hub_split].num_rows == stats["table1"][split]["queries"] > 0
    assert set(ds["validation"]["split"]) == {"dev"}
    card = (one / "README.md").read_text()
    meta = hub.parse_card_yaml(card)
    assert meta["license"] == "cc-by-4.0" and meta["pretty_name"] in card
    assert "## Citation" in card and "arXiv:1810.12885" in card
    assert f"@misc{{{hub.release_key(stats)}," in card
    assert "| dev | `dev-*.parquet` | `validation` | `dev.json` | `val.jsonl` |" in card


def test_publish_checks_the_folder_and_uploads_exactly_the_released_files(releases, tmp_path,
                                                                           monkeypatch):
    one = releases[0]
    calls = []
    monkeypatch.setattr(publish, "hub_upload", lambda *a: calls.append(a))
    monkeypatch.delenv("HF_TOKEN", raising=False)
    plan = publish_cli.run([str(one), "me/record-mine", "--dry_run"])
    assert plan["uploaded"] is False and calls == []
    assert "_MANIFEST.json" in plan["files"] and "README.md" in plan["files"]
    assert not any(f.startswith("_build") for f in plan["files"])
    with pytest.raises(InputError, match="^no Hugging Face token: pass --token or set HF_TOKEN"):
        publish_cli.run([str(one), "me/record-mine"])
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    plan = publish_cli.run([str(one), "me/record-mine", "--token", "hf_test", "--private"])
    assert plan["uploaded"] is True
    ((folder, repo, token, private, files, message),) = calls
    assert (folder, repo, token, private) == (str(one), "me/record-mine", "hf_test", True)
    assert files == publish.listing(str(one)) and message.startswith("Upload one: ")
    # refusals: an internal file, a tampered shard, a broken card
    bad = shutil.copytree(one, tmp_path / "bad")
    (bad / "_build").mkdir()
    (bad / "_build" / "finalize.json").write_text("{}")
    with pytest.raises(InputError, match="internal file.*_build/finalize.json"):
        publish.prepare(str(bad))
    shutil.rmtree(bad / "_build")
    tamper_one_query(sorted(bad.glob("dev-*.parquet"))[0])
    with pytest.raises(InputError, match="does not validate .*query text differs from the shard"):
        publish.prepare(str(bad))
    with pytest.raises(InputError, match="expected owner/name"):
        publish.publish(str(one), "no-owner")
    assert len(calls) == 1


def test_publish_without_a_token_is_one_line(releases):
    probe = subprocess.run([sys.executable, "-X", "importtime", "-m", "beam_pipelines.publish",
                            "--help"], capture_output=True, text=True)
    assert probe.returncode == 0 and "--dry_run" in probe.stdout
    assert "apache_beam " not in probe.stderr and "huggingface_hub " not in probe.stderr
    out = subprocess.run([sys.executable, "-m", "beam_pipelines.publish", str(releases[0]),
                          "me/x"], capture_output=True, text=True,
                         env=dict(__import__("os").environ, HF_TOKEN=""))
    assert out.returncode == 1
    assert out.stderr.strip().splitlines()[-1].startswith("error: no Hugging Face token")


def test_a_partial_ingest_warns_that_dev_is_empty_for_want_of_verdicts(releases, tmp_path,
                                                                       record_format_dir,
                                                                       caplog):
    import logging

    import pyarrow as pa
    filtered = releases[0].parent / "filtered"
    rows = fixture_rows(record_format_dir)
    folder = tmp_path / "hv"
    folder.mkdir()
    pq.write_table(pa.table({"id": [r["id"] for r in rows[:10]], "valid_for": ["train"] * 10}),
                   folder / "validated-00000-of-00001.parquet")
    with caplog.at_level(logging.WARNING, logger="finalize"):
        dataset = run_finalize(filtered, tmp_path / "dataset", "--validated", str(folder),
                               "--partial_validation")
    hv = json.loads((dataset / "stats.json").read_text())["funnel"]["stages"]["human_validation"]
    # one of the rows is a duplicate query (dropped by dedupe before validation)
    assert hv["valid_for_train"] == 10 and hv["reasons"] == {"not_human_validated": len(rows) - 11}
    for split in ("dev", "test"):
        assert (f"finalize: {split} is empty because human validation covers too few queries"
                in caplog.text)
    assert f"{len(rows) - 11} have no verdict" in caplog.text
    assert "check the split policy" not in caplog.text
