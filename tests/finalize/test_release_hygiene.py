"""Release hygiene and the card's accounts (issue 26, parts 3-4), on one small finalize run
whose inputs carry absolute local paths and whose adversary answered some kept queries:
no local path in anything `publish` uploads; the hidden-test release (test shards without
answers, answers in a private file beside the release) loads in `datasets` and scores
with `evaluate`; `publish` refuses license `unknown` unless told; the card's sentence on
the filter matches the Parquet files; split warnings; one name per baseline."""
import json
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from beam_pipelines import evaluate, validate
from beam_pipelines import publish as publish_cli
from tests.finalize.test_finalize import (
    ANSWERED,
    fixture_rows,
    run_finalize,
    write_filtered,
)
from transforms.core import manifest
from transforms.core.preflight import InputError
from transforms.core.schema import GENERATION_FATE_SCHEMA, SCORED_SCHEMA
from transforms.finalize.publish import upload as publish
from transforms.finalize.splits import split_warnings

SPLITS = ("train", "dev", "test")
KEPT_ANSWERED = 3       # kept queries the adversary answered (as a readmitting sampler did)


def _with_local_paths(root, inputs):
    """Generate's fate rows as a real run writes them: absolute input paths."""
    path = root / "articles" / "articles-00000-of-00001.parquet"
    rows = pq.read_table(path).to_pylist()
    for r in rows:
        r["source_file"] = str(inputs / ("stories" if r["article_id"] else "broken")
                               / r["source_file"])
        if r["record_id"]:
            r["record_id"] = f"{r['source_file']} (line 3)"
    pq.write_table(pa.Table.from_pylist(rows, schema=GENERATION_FATE_SCHEMA), path)
    manifest.write(str(root / "articles"))


def _with_adversary_answers(root, filtered):
    """Mark KEPT_ANSWERED kept queries as answered by the adversary, write scored/ (kept
    plus the ANSWERED candidates it dropped) and count the readmissions in the filter's
    account, as the drop sampler's stats do."""
    kept_dir = filtered / "kept"
    kept = pq.read_table(kept_dir).to_pylist()
    marked = sorted(r["id"] for r in kept)[::7][:KEPT_ANSWERED]
    for r in kept:
        r["adversary_correct"] = r["id"] in marked
    for f in kept_dir.glob("*.parquet"):
        f.unlink()
    pq.write_table(pa.Table.from_pylist(kept, schema=SCORED_SCHEMA), kept_dir / "kept-0.parquet")
    manifest.write(str(kept_dir))
    dropped = [dict(kept[0], id=f"answered-q{i}", article_id="answered",
                    passage_id="answered-p", adversary_correct=True) for i in range(ANSWERED)]
    (filtered / "scored").mkdir()
    pq.write_table(pa.Table.from_pylist(kept + dropped, schema=SCORED_SCHEMA),
                   filtered / "scored" / "scored-0.parquet")
    stats_path = filtered / "stats" / "adversarial_filter.json"
    stats = json.loads(stats_path.read_text())
    stats["stages"]["adversary"]["readmitted.most_frequent"] = KEPT_ANSWERED
    stats_path.write_text(json.dumps(stats))
    return set(marked)


@pytest.fixture(scope="module")
def hidden(record_format_dir, tmp_path_factory):
    root = tmp_path_factory.mktemp("hygiene")
    inputs = root / "my-local-corpus"
    filtered = write_filtered(root, fixture_rows(record_format_dir))
    _with_local_paths(root, inputs)
    marked = _with_adversary_answers(root, filtered)
    dataset = run_finalize(filtered, root / "dataset", "--hide_test_answers")
    return {"root": root, "inputs": inputs, "dataset": dataset, "marked": marked,
            "private": root / "dataset-private", "filtered": filtered}


def _text_of(path) -> str:
    """A published file as text: Parquet cells and metadata decoded, other files as bytes."""
    if path.suffix == ".parquet":
        f = pq.ParquetFile(path)
        meta = {k.decode(): v.decode() for k, v in (f.metadata.metadata or {}).items()}
        return json.dumps([f.read().to_pylist(), meta], default=str)
    return path.read_bytes().decode("utf-8", "replace")


def test_no_local_path_in_anything_publish_uploads(hidden):
    dataset, root = hidden["dataset"], hidden["root"]
    plan = publish.prepare(str(dataset), allow_unknown_license=True)
    assert "articles/articles-00000-of-00001.parquet" in plan["files"]
    for name in plan["files"]:
        text = _text_of(dataset / name)
        for needle in (str(root), str(hidden["inputs"]), "my-local-corpus"):
            assert needle not in text, f"{name} holds {needle}"
    fates = pq.read_table(dataset / "articles").to_pylist()
    files = {f["source_file"] for f in fates}
    assert "stories/art000.story" in files and "broken/broken.jsonl" in files
    assert {f["record_id"] for f in fates if f["record_id"]} == {"broken/broken.jsonl (line 3)"}
    # the run's own folder keeps the paths it read
    assert str(hidden["inputs"]) in _text_of(root / "articles" / "articles-00000-of-00001.parquet")


def test_hidden_test_release_loads_without_test_answers_and_scores_against_the_private_file(
        hidden, tmp_path):
    from datasets import load_dataset
    dataset, private = hidden["dataset"], hidden["private"]
    stats = json.loads((dataset / "stats.json").read_text())
    n_test = stats["table1"]["test"]["queries"]
    assert n_test > 0 and validate.run([str(dataset)]) == []
    ds = load_dataset(str(dataset), cache_dir=str(tmp_path / "hf"))
    assert ds["test"].num_rows == n_test and all(a == [] for a in ds["test"]["answers"])
    assert all(ds["train"]["answers"]) and all(ds["validation"]["answers"])
    public = json.loads((dataset / "record" / "test.json").read_text())
    assert all(qa["answers"] == [] for e in public["data"] for qa in e["qas"])
    assert not (dataset / "dataset-private").exists() and "test_split" not in \
        (dataset / "lm_eval" / "record_release.yaml").read_text()
    # the private file: the same test queries with their answers, outside the release
    assert sorted(p.name for p in private.iterdir()) == ["_MANIFEST.json", "test.json"]
    gold, _ = evaluate.load_data(str(private / "test.json"))
    assert len(gold) == n_test and all(gold.values())
    assert set(gold) == {qa["id"] for e in public["data"] for qa in e["qas"]}
    preds = tmp_path / "preds.json"
    preds.write_text(json.dumps({q: answers[0] for q, answers in gold.items()}))
    scored = evaluate.run(["--data", str(private / "test.json"), "--predictions", str(preds)])
    assert (scored["exact_match"], scored["total"]) == (100.0, n_test)
    with pytest.raises(ValueError, match="holds no answers.*dataset-private/test.json"):
        evaluate.run(["--data", str(dataset / "record" / "test.json"), "--predictions",
                      str(preds)])
    assert str(private) not in publish.listing(str(dataset))


def test_validate_names_answers_left_in_a_hidden_test_shard(hidden, tmp_path):
    copy = shutil.copytree(hidden["dataset"], tmp_path / "copy")
    shard = sorted(copy.glob("test-*.parquet"))[0]
    table = pq.read_table(shard)
    rows = table.to_pylist()
    dev = pq.read_table(sorted(copy.glob("dev-*.parquet"))[0]).to_pylist()[0]
    rows[0] = dict(rows[0], answers=dev["answers"], passage=dev["passage"],
                   entities=dev["entities"])
    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), shard)
    found = validate.run([str(copy)])
    assert any("carries answers in a hidden-test release" in v for v in found)


def test_publish_refuses_an_unknown_license_unless_told(hidden, monkeypatch):
    dataset = str(hidden["dataset"])
    with pytest.raises(InputError, match="license is 'unknown'.*--license.*"
                                         "--allow_unknown_license"):
        publish_cli.run([dataset, "me/x", "--dry_run"])
    plan = publish_cli.run([dataset, "me/x", "--dry_run", "--allow_unknown_license"])
    assert plan["uploaded"] is False and "README.md" in plan["files"]


def test_card_says_what_the_filter_did_as_the_parquet_files_count_it(hidden):
    dataset, filtered = hidden["dataset"], hidden["filtered"]
    stats = json.loads((dataset / "stats.json").read_text())
    card = (dataset / "README.md").read_text()
    scored = pq.read_table(filtered / "scored").to_pylist()
    answered_ids = {r["id"] for r in scored if r["adversary_correct"]}
    kept_ids = {r["id"] for r in pq.read_table(filtered / "kept").to_pylist()}
    released = {s: {r["id"] for r in pq.read_table(list(dataset.glob(f"{s}-*.parquet")),
                                                   columns=["id"]).to_pylist()}
                for s in SPLITS}
    per_split = {s: len(released[s] & answered_ids) for s in SPLITS}
    total = sum(per_split.values())
    assert 0 < total <= KEPT_ANSWERED == len(answered_ids & kept_ids)
    n_released = sum(len(v) for v in released.values())
    assert (f"{len(answered_ids - kept_ids)} were answered by it and filtered out" in card)
    assert f"and {len(answered_ids & kept_ids)} were kept although it answered them" in card
    assert (f"Of the {n_released} released queries, {total} were answered by the adversary ("
            + ", ".join(f"{s} {per_split[s]}" for s in SPLITS)) in card
    assert stats["hardness"]["adversary_answered"]["overall"]["released"]["answered"] == total


def test_card_and_log_warn_about_small_splits(hidden):
    card = (hidden["dataset"] / "README.md").read_text()
    stats = json.loads((hidden["dataset"] / "stats.json").read_text())
    assert "## Warnings" in card
    for split in SPLITS:
        n = stats["table1"][split]["queries"]
        assert f"{split} holds {n} queries (fewer than 100)" in card


def test_evaluate_most_frequent_is_the_hardness_reports_most_frequent(hidden):
    dataset = hidden["dataset"]
    stats = json.loads((dataset / "stats.json").read_text())
    cell = stats["hardness"]["baselines"]["most_frequent"]["dev"]["released"]
    got = evaluate.run(["--data", str(dataset / "record" / "dev.json"),
                        "--baseline", "most_frequent"])
    assert got["total"] == cell["n"]
    assert round(got["exact_match"], 2) == cell["exact_match"]
    assert round(got["f1"], 2) == cell["f1"]
    assert "most_frequent" in stats["hardness"]["definitions"]


def _stats(counts, **split):
    table = {s: {"queries": n} for s, n in zip(SPLITS, counts)}
    table["overall"] = {"queries": sum(counts)}
    cfg = dict({"train_fraction": 0.8, "dev_fraction": 0.1, "test_fraction": 0.1}, **split)
    return {"table1": table, "config": {"split": cfg}}


@pytest.mark.fast
def test_split_warnings_name_small_and_lopsided_splits():
    assert split_warnings.split_warnings(_stats([800, 100, 100])) == []
    found = split_warnings.split_warnings(_stats([893, 37, 70]))
    assert found[0].startswith("dev holds 37 queries (fewer than 100)")
    assert found[1].startswith("dev holds 3.7% of the released queries (37 of 1,000), "
                               "configured 10%")
    assert found[2].startswith("test holds 70 queries")
    assert len(found) == 3               # test at 7.0% is within a third of 10%
    capped = split_warnings.split_warnings(_stats([2000, 150, 150], dev_size=150))
    assert capped == []                  # caps shape the shares by design
    assert split_warnings.card_lines(_stats([800, 100, 100])) == []
