"""The finalize job end to end: splits, shards, exports, stats, card; then validate."""
import collections
import json
import pathlib

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from beam_pipelines import finalize, validate
from transforms.finalize import exports
from transforms.finalize import record_metric
from transforms.core.schema import SCORED_SCHEMA

SPLITS = ("train", "dev", "test")
PEOPLE = ["Maria Lopez", "Tom Becker", "Aisha Khan", "Li Wei", "Omar Haddad", "Sara Novak",
          "Jon Eriksen", "Ana Costa", "Yuki Sato", "Ivan Petrov", "Grace Obi", "Paul Martin"]
CITIES = ["Lisbon", "Denver", "Lagos", "Osaka", "Quito", "Tallinn", "Perth", "Nairobi"]


def _spans(text, needle):
    start, out = text.find(needle), []
    while start != -1:
        out.append({"start": start, "end": start + len(needle), "text": needle})
        start = text.find(needle, start + 1)
    return out


def synthetic_rows(n=24):
    """Small hand-made articles, two queries each; articles 3 and 4 share a URL."""
    rows = []
    for i in range(n):
        a, b, city = PEOPLE[i % 12], PEOPLE[(i + 5) % 12], CITIES[i % 8]
        passage = (f"{a} arrived in {city} on Monday for talks number {i}. {a} met {b} at the "
                   f"harbour.\n@highlight\n{a} visits {city}\n@highlight\n{b} hosts the talks")
        entities = sorted((dict(s, label="PERSON" if n_ != city else "GPE")
                           for n_ in (a, b, city) for s in _spans(passage, n_)),
                          key=lambda e: e["start"])
        answers_a = [{k: s[k] for k in ("start", "end", "text")} for s in _spans(passage, a)]
        answers_c = [{k: s[k] for k in ("start", "end", "text")} for s in _spans(passage, city)]
        aid = f"art{i:03d}"
        url = f"http://example.com/story/{min(i, 3) if i in (3, 4) else i}"
        for j, (query, answers) in enumerate(((f"Later @placeholder thanked {b} warmly.", answers_a),
                                              (f"Officials in @placeholder welcomed {a}.", answers_c))):
            rows.append({"id": f"{aid}-q{j}", "passage_id": f"{aid}-p", "article_id": aid,
                         "source": "cnn" if i % 2 else "dailymail",
                         "origin": "public" if i % 3 else "crawled", "url": url,
                         "passage": passage, "entities": entities, "query": query, "answers": answers})
    return rows


def real_rows(record_format_dir):
    """The real ReCoRD passages: the SuperGLUE val passages repeat the allennlp ones."""
    record = json.loads((record_format_dir / "allennlp_models_record.json").read_text())
    rows = exports.rows_from_record_json(record, origin="public")
    for split in ("train", "val"):
        lines = [json.loads(line) for line in
                 (record_format_dir / "superglue_jsonl" / f"{split}.jsonl").read_text().splitlines()]
        rows += exports.rows_from_superglue(lines, id_prefix=f"sg-{split}", origin="crawled")
    return rows


def write_filtered(root: pathlib.Path, rows) -> pathlib.Path:
    """DIR/filtered/kept/*.parquet in SCORED_SCHEMA, plus a generate stats file."""
    scored = [dict({k: v for k, v in r.items() if k != "split"}, fold=0,
                   adversary_prediction=None, adversary_correct=False) for r in rows]
    kept = root / "filtered" / "kept"
    kept.mkdir(parents=True)
    half = len(scored) // 2
    for n, part in enumerate((scored[:half], scored[half:])):
        pq.write_table(pa.Table.from_pylist(part, schema=SCORED_SCHEMA), kept / f"part-{n}.parquet")
    (root / "stats").mkdir()
    (root / "stats" / "generate.json").write_text(json.dumps(
        {"job": "generate", "stages": {"query": {"in": len(rows), "out": len(rows), "rejected": 0,
                                                 "reasons": {}}}}))
    return root / "filtered"


def fixture_rows(record_format_dir):
    rows = synthetic_rows() + real_rows(record_format_dir)
    dup = dict(rows[0], id="zzz-duplicate")          # same passage, same query text
    return rows + [dup]


def run_finalize(filtered, output, *extra):
    finalize.run(["--filtered", str(filtered), "--output", str(output), "--workers", "1",
                  "--train_fraction", "0.5", "--dev_fraction", "0.25", "--test_fraction", "0.25",
                  *extra])
    return output


@pytest.fixture(scope="module")
def built(record_format_dir, tmp_path_factory):
    root = tmp_path_factory.mktemp("finalize")
    filtered = write_filtered(root, fixture_rows(record_format_dir))
    return filtered, run_finalize(filtered, root / "dataset")


def _rows(dataset, split):
    return pq.read_table(list(dataset.glob(f"{split}-*.parquet"))).to_pylist()


def test_layout_and_rejected_duplicate(built):
    filtered, dataset = built
    names = sorted(p.relative_to(dataset).as_posix() for p in dataset.rglob("*") if p.is_file())
    assert names == ["README.md", "dev-00000-of-00001.parquet", "entities_per_passage.png",
                     "passage_length.png", "query_length.png", "record/dev.json", "record/test.json",
                     "record/train.json", "rejected/part-00000-of-00001.parquet", "stats.json",
                     "superglue/test.jsonl", "superglue/train.jsonl", "superglue/val.jsonl",
                     "test-00000-of-00001.parquet", "train-00000-of-00001.parquet"]
    assert not (dataset.parent / "dataset.tmp").exists()
    rejected = pq.read_table(dataset / "rejected").to_pylist()
    assert [(r["stage"], r["reason"], r["record_id"]) for r in rejected] == \
        [("finalize", "duplicate_query_in_passage", "zzz-duplicate")]
    stats = json.loads((dataset / "stats.json").read_text())
    assert stats["funnel"]["finalize"]["stages"]["finalize"]["in"] == 24 * 2 + 13 + 1
    assert list(stats["funnel"]) == ["generate", "finalize"]


def test_every_split_is_populated_and_groups_stay_together(built):
    _, dataset = built
    rows = {s: _rows(dataset, s) for s in SPLITS}
    assert all(rows[s] for s in SPLITS)
    where = collections.defaultdict(set)
    for split, rs in rows.items():
        for r in rs:
            assert r["split"] == split
            where[r["article_id"]].add(split)
            where[r["passage"]].add(split)
            if r["url"]:
                where[r["url"]].add(split)
    assert all(len(v) == 1 for v in where.values())
    # Shared URL (art003/art004) and shared passage text (allennlp / SuperGLUE val) land together.
    assert where["art003"] == where["art004"]
    assert where["483577c837cdd4df5bbbbd5cfa3a77f6fea3519e"] == where["sg-val-p0"]


def test_shards_load_with_hf_datasets_and_pandas(built, tmp_path):
    from datasets import load_dataset
    _, dataset = built
    stats = json.loads((dataset / "stats.json").read_text())
    ds = load_dataset("parquet", data_files={s: str(dataset / f"{s}-*.parquet") for s in SPLITS},
                      cache_dir=str(tmp_path / "hf"))
    for split in SPLITS:
        assert ds[split].num_rows == stats["table1"][split]["queries"] > 0
    row = ds["train"][0]
    assert row["passage"][row["answers"][0]["start"]:row["answers"][0]["end"]] == row["answers"][0]["text"]
    assert set(ds["train"].column_names) == set(exports.DATASET_COLUMNS)
    frame = pd.concat(pd.read_parquet(p) for p in sorted(dataset.glob("*-of-*.parquet")))
    assert len(frame) == stats["table1"]["overall"]["queries"] == 24 * 2 + 13
    assert frame["id"].is_unique and set(frame["split"]) == set(SPLITS)


def test_exports_agree_with_the_shards_and_score_100(built):
    _, dataset = built
    for split in SPLITS:
        ids = {r["id"] for r in _rows(dataset, split)}
        record = json.loads((dataset / "record" / f"{split}.json").read_text())
        assert {qa["id"] for e in record["data"] for qa in e["qas"]} == ids
        assert [e["id"] for e in record["data"]] == sorted(e["id"] for e in record["data"])
        gold = record_metric.gold_from_record_json(record)
        score = record_metric.evaluate(gold, {q: a[0] for q, a in gold.items()})
        assert score["exact_match"] == score["f1"] == 100.0
        name = exports.SUPERGLUE_SPLIT[split]
        lines = (dataset / "superglue" / f"{name}.jsonl").read_text().splitlines()
        assert sum(len(json.loads(line)["qas"]) for line in lines) == len(ids)
        assert all(("answers" in qa) == (split != "test") for line in lines for qa in json.loads(line)["qas"])


def test_stats_table1_and_card(built):
    _, dataset = built
    stats = json.loads((dataset / "stats.json").read_text())
    table = stats["table1"]
    assert sum(table[s]["queries"] for s in SPLITS) == table["overall"]["queries"]
    assert sum(table[s]["unique_passages"] for s in SPLITS) == table["overall"]["unique_passages"] == 24 + 7
    assert table["overall"]["passage_vocab"] >= max(table[s]["passage_vocab"] for s in SPLITS)
    assert 10 < table["overall"]["tokens_per_passage"] < 200
    card = (dataset / "README.md").read_text()
    assert "| queries | " in card and "passage_length.png" in card and "| generate | query |" in card
    for png in ("passage_length.png", "query_length.png", "entities_per_passage.png"):
        assert (dataset / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_rerun_gives_identical_output(built, tmp_path):
    filtered, dataset = built
    again = run_finalize(filtered, tmp_path / "again")
    for name in ("record/train.json", "record/dev.json", "record/test.json", "superglue/train.jsonl",
                 "superglue/val.jsonl", "superglue/test.jsonl", "stats.json", "README.md"):
        assert (again / name).read_bytes() == (dataset / name).read_bytes(), name
    for split in SPLITS:
        key = lambda r: r["id"]  # noqa: E731
        assert sorted(_rows(again, split), key=key) == sorted(_rows(dataset, split), key=key)


def test_human_validation_and_paper_origin_policy(built, tmp_path, record_format_dir):
    filtered, _ = built
    rows = fixture_rows(record_format_dir)
    verdicts = {r["id"]: ("none" if n % 7 == 0 else "train" if n % 3 == 0 else "dev_test")
                for n, r in enumerate(rows) if n % 11 != 5}
    (tmp_path / "hv").mkdir()
    (tmp_path / "hv" / "validated.jsonl").write_text(
        "".join(json.dumps({"id": q, "valid_for": v}) + "\n" for q, v in verdicts.items()))
    dataset = run_finalize(filtered, tmp_path / "dataset", "--validated", str(tmp_path / "hv"),
                           "--paper_split_policy")
    out = {s: _rows(dataset, s) for s in SPLITS}
    assert all(r["origin"] == "public" for r in out["train"])
    assert all(verdicts[r["id"]] in ("train", "dev_test") for r in out["train"])
    assert all(verdicts[r["id"]] == "dev_test" for s in ("dev", "test") for r in out[s])
    reasons = collections.Counter(r["reason"] for r in pq.read_table(dataset / "rejected").to_pylist())
    assert reasons["failed_human_validation"] > 0 and reasons["not_human_validated"] > 0
    stats = json.loads((dataset / "stats.json").read_text())
    account = stats["funnel"]["finalize"]["stages"]["finalize"]
    assert account["in"] == account["out"] + account["rejected"] == len(rows)
    assert stats["config"]["split"]["train_origins"] == ["public"]
    assert validate.run([str(dataset)]) == []


def test_full_run_over_the_real_corpus_passes_validate(generated_dir, tmp_path):
    """generate (lead's job, real corpus) -> filtered -> finalize -> validate.

    STAND-IN for the adversarial filter until `beam_pipelines.adversarial_filter` exists:
    every generated candidate is kept with adversary_prediction=None, adversary_correct=False."""
    candidates = pq.read_table(list((generated_dir / "candidates").glob("*.parquet")))
    n = candidates.num_rows
    scored = candidates.append_column("adversary_prediction", pa.nulls(n, pa.string())) \
        .append_column("adversary_correct", pa.array([False] * n)).cast(SCORED_SCHEMA)
    (tmp_path / "filtered" / "kept").mkdir(parents=True)
    pq.write_table(scored, tmp_path / "filtered" / "kept" / "kept-00000-of-00001.parquet")
    dataset = tmp_path / "dataset"
    returned = finalize.run(["--filtered", str(tmp_path / "filtered"), "--output", str(dataset),
                             "--run_dir", str(generated_dir), "--workers", "1"])
    assert validate.run([str(dataset)]) == []
    stats = json.loads((dataset / "stats.json").read_text())
    assert returned == stats and stats["summary"]["rejected"] + sum(
        stats["summary"][f"{s}_queries"] for s in SPLITS) == n
    assert "generate" in stats["funnel"]
    assert stats["table1"]["overall"]["queries"] + \
        stats["funnel"]["finalize"]["stages"]["finalize"]["rejected"] == n
    assert all(stats["table1"][s]["queries"] > 0 for s in SPLITS)
