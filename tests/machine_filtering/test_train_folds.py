"""train_folds on candidates the generation job writes from the real corpus: the featurize
step on TestPipeline (shards by id hash, sorted, every candidate once, reasons for bad
rows, per-fold article digests), streamed training (determinism, memory bounded by the
shuffle buffer, equal to in-memory training when the buffer holds a fold), the whole stage
(metadata, funnel, memory figures) and GPU hints on the training step only.

`build_candidates` / `build_lexical_adversary` are shared with the other adversary tests;
they build once per session under pytest's base temp dir."""
import argparse
import dataclasses
import json
import pathlib

import pyarrow.parquet as pq
import pytest
import torch

from beam_pipelines import train_folds
from models.featurized import decode_example
from models.lexical import make_featurizer
from models.streaming import Meter, shuffled_batches
from models.training import Featurized, featurize
from transforms.core.hashing import fold_of
from transforms.core.io_utils import read_parquet
from transforms.core.preflight import InputError
from transforms.core.resources import add_gpu_args, gpu_hints
from transforms.machine_filtering.config import TrainConfig, TrainPaths, TrainSettings
from transforms.machine_filtering.featurize import (
    FeaturizeCandidates,
    articles_digest,
    shard_count,
    shard_of,
)
from transforms.machine_filtering.training import train_fold

N_ARTICLES = 120   # CNN/DM test articles (+ the 20 CNN stories): ~360 queries
SHARD_ROWS = 100   # several shards from ~360 rows


def _once(base: pathlib.Path, name: str, build) -> pathlib.Path:
    out = base / name
    if not (out / "_DONE").exists():
        build(out)
        (out / "_DONE").write_text("ok")
    return out


def build_candidates(tmp_path_factory, corpus_dir) -> pathlib.Path:
    """DIR/candidates of the generation job on a slice of the real corpus."""
    from beam_pipelines import generate

    def build(out):
        out.mkdir(parents=True, exist_ok=True)
        lines = (corpus_dir / "cnndm_test250.jsonl").read_text().splitlines()[:N_ARTICLES]
        (out / "slice.jsonl").write_text("\n".join(lines) + "\n")
        generate.run(["--input", str(corpus_dir / "cnn_stories" / "*.story"),
                      "--input", str(out / "slice.jsonl"), "--output", str(out / "gen"),
                      "--workers", "1"])
    return _once(tmp_path_factory.getbasetemp(), "h3-generated", build) / "gen" / "candidates"


def build_lexical_adversary(tmp_path_factory, candidates) -> pathlib.Path:
    def build(out):
        train_folds.run(["--candidates", str(candidates), "--output", str(out),
                         "--model", "lexical", "--workers", "1",
                         "--shard_rows", str(SHARD_ROWS), "--shuffle_buffer", "300"])
    return _once(tmp_path_factory.getbasetemp(), "h3-lexical-adversary", build)


@pytest.fixture(scope="session")
def candidates_dir(tmp_path_factory, corpus_dir):
    return build_candidates(tmp_path_factory, corpus_dir)


@pytest.fixture(scope="session")
def lexical_adversary(tmp_path_factory, candidates_dir):
    return build_lexical_adversary(tmp_path_factory, candidates_dir)


@pytest.fixture(scope="module")
def rows(candidates_dir):
    return read_parquet(str(candidates_dir / "*.parquet")).to_pylist()


def bad_row(good: dict) -> dict:
    return dict(good, id="zz-bad-no-entities", article_id="bad-article", entities=[])


@pytest.fixture(scope="module")
def featurized(rows, tmp_path_factory):
    """FeaturizeCandidates on TestPipeline with k = 3 (the generation job's `fold` column
    is for k = 5, so it disagrees for some rows): shard files, and what its outputs held
    (shards, per-fold article summaries, summed counts) as JSON beside them."""
    import apache_beam as beam
    from apache_beam.testing.test_pipeline import TestPipeline

    from transforms.core.accounting import SumCounts
    from transforms.core.io_utils import write_json
    out = tmp_path_factory.mktemp("featurized")
    settings = TrainSettings(folds=3, shard_rows=SHARD_ROWS)

    def dump(pcoll, name):
        (pcoll | f"All{name}" >> beam.combiners.ToList()
         | f"Dump{name}" >> beam.Map(lambda xs, path: write_json(path, xs),
                                     str(out / f"{name}.json")))

    with TestPipeline() as p:
        shards, articles, counts = (p | beam.Create(rows + [bad_row(rows[0])])
                                    | FeaturizeCandidates(settings, str(out)))
        dump(shards, "shards")
        dump(articles, "articles")
        dump(counts | beam.CombineGlobally(SumCounts()), "counts")
    found = {name: json.loads((out / f"{name}.json").read_text())
             for name in ("shards", "articles", "counts")}
    found["articles"] = {fold: summary for fold, summary in found["articles"]}
    return out / "featurized", found, settings


def test_featurize_writes_every_candidate_once_sorted_in_its_shard(featurized, rows):
    folder, found, settings = featurized
    n_rows = len(rows) + 1
    total = shard_count(n_rows, SHARD_ROWS)
    assert total > 1 and sorted(u for u, _ in found["shards"]) == sorted(
        str(p) for p in folder.glob("*.parquet"))
    seen = {}
    for url, n in found["shards"]:
        ids = pq.read_table(url, columns=["id"]).column("id").to_pylist()
        assert ids == sorted(ids) and len(ids) == n
        index = int(pathlib.Path(url).name.split("-")[1])
        assert all(shard_of(i, total) == index for i in ids)
        seen.update(dict.fromkeys(ids, index))
    assert sorted(seen) == sorted([r["id"] for r in rows] + ["zz-bad-no-entities"])
    counts = found["counts"][0]
    assert counts["featurize.in"] == counts["featurize.out"] == counts["shard.out"] == n_rows
    assert counts["shard.max_group"] == max(n for _, n in found["shards"]) <= 2 * SHARD_ROWS
    assert counts["featurize.unscorable"] == 1
    assert counts["featurize.fold_column_disagrees"] == sum(
        r["fold"] != fold_of(r["article_id"], 3) for r in rows) + 1 > 0


def test_featurized_rows_hold_the_readers_features_and_reasons(featurized, rows):
    folder, _, settings = featurized
    table = read_parquet(str(folder / "*.parquet")).to_pylist()
    by_id = {r["id"]: r for r in table}
    bad = by_id.pop("zz-bad-no-entities")
    assert bad["error"] == "no candidate entities in passage" and bad["example"] is None
    fz = make_featurizer(settings.lexical())
    for row in rows[:40]:
        got = by_id[row["id"]]
        assert got["fold"] == fold_of(row["article_id"], 3) and got["error"] is None
        _, want = fz(row)
        example = decode_example(got["example"])
        assert set(example) == set(want)
        assert all(example[k].dtype == want[k].dtype and (example[k] == want[k]).all()
                   for k in want)
        assert got["gold"] == featurize([row], fz, require_answer=False).gold[0].tolist()


def test_article_digests_per_fold(featurized, rows):
    _, found, _ = featurized
    summaries = found["articles"]
    all_rows = rows + [bad_row(rows[0])]
    for fold in range(3):
        mine = {r["article_id"] for r in all_rows if fold_of(r["article_id"], 3) == fold}
        assert summaries[fold] == {"articles": len(mine), "digest": articles_digest(mine)}


def _config(out, **settings) -> TrainConfig:
    base = dict(folds=3, epochs=3, batch_size=32, shuffle_buffer=64)
    return TrainConfig(TrainPaths("unused", str(out)), TrainSettings(**{**base, **settings}))


def _shards(featurized):
    return sorted(str(p) for p in featurized[0].glob("*.parquet"))


def test_streamed_training_is_deterministic_and_bounded_by_the_buffer(featurized, tmp_path):
    shards, articles = _shards(featurized), featurized[1]["articles"]
    a = train_fold(1, _config(tmp_path / "a"), shards, articles)
    b = train_fold(1, _config(tmp_path / "b"), shards, articles)
    sa = torch.load(tmp_path / "a" / "fold-1" / "model.pt")
    sb = torch.load(tmp_path / "b" / "fold-1" / "model.pt")
    assert all(torch.equal(sa[k], sb[k]) for k in sa)
    assert a["heldout_accuracy"] == b["heldout_accuracy"]
    assert a["training"]["steps"] == b["training"]["steps"] > 0
    assert 32 < a["streaming"]["max_rows_in_memory"] <= 64 < a["rows"]["train_used"]
    assert a["streaming"]["shards"] == len(shards) > 1
    # the trainer's resident memory is sampled while it holds rows (Linux /proc)
    assert 0 < a["streaming"]["rss_mb_at_start"] <= a["streaming"]["rss_mb_peak"]


def test_a_buffer_holding_the_fold_trains_as_in_memory_training(featurized, rows, tmp_path):
    """With every training row in the buffer, an epoch is a permutation of the rows in id
    order: exactly what the in-memory trainer does with the same seed."""
    from models import lexical
    from models.training import seed_everything
    shards, articles = _shards(featurized), featurized[1]["articles"]
    meta = train_fold(0, _config(tmp_path / "s", shuffle_buffer=10_000), shards, articles)
    config = _config(tmp_path / "s").settings.lexical()
    seed_everything(meta["seed"])
    model, fz, _ = lexical.build(config, torch.device("cpu"))
    train = sorted((r for r in rows if fold_of(r["article_id"], 3) != 0), key=lambda r: r["id"])
    data = featurize(train, fz)
    assert isinstance(data, Featurized) and len(data.examples) == meta["rows"]["train_used"]
    lexical.fit(model, data, config, meta["seed"])
    streamed = torch.load(tmp_path / "s" / "fold-0" / "model.pt")
    assert all(torch.equal(streamed[k], v) for k, v in model.state_dict().items())


def test_a_held_side_is_padded_once_into_the_batches_per_batch_padding_builds(featurized):
    """`FoldStream.padded_epoch` (what training runs): rows the buffer holds are stacked
    once, and each batch is the tensors `padded(epoch)` builds for the same seed; a side
    the buffer cannot hold is padded per batch."""
    from models.streaming import FoldStream
    from models.training import padded
    shards = _shards(featurized)
    for capacity, held in ((10_000, True), (64, False)):
        got_stream, want_stream = (FoldStream(shards, 0, False, capacity=capacity)
                                   for _ in range(2))
        got = list(got_stream.padded_epoch(16, torch.Generator().manual_seed(5)))
        want = list(padded(want_stream.epoch(16, torch.Generator().manual_seed(5))))
        assert len(got) == len(want) > 2 and (got_stream._stacked not in (None, False)) == held
        for (b, g, n), (wb, wg, wn) in zip(got, want):
            assert n == wn and b.keys() == wb.keys() and torch.equal(g, wg)
            assert all(torch.equal(b[k], wb[k]) for k in wb)
        again = list(got_stream.padded_epoch(16, torch.Generator().manual_seed(6)))
        assert sum(n for *_, n in again) == sum(n for *_, n in got)     # a second epoch


def test_shuffle_buffer_gives_each_row_once_and_never_holds_more_than_capacity():
    rows = [{"id": f"{i:04d}"} for i in range(1000)]

    def reads():
        for i in range(0, len(rows), 16):
            yield rows[i:i + 16]

    def epoch(capacity, seed=3):
        meter, gen = Meter(), torch.Generator().manual_seed(seed)
        out = [r["id"] for b in shuffled_batches(reads, capacity, 16, 32, gen, meter)
               for r in b]
        return out, meter.peak

    order, peak = epoch(100)
    assert sorted(order) == [r["id"] for r in rows] and peak <= 100
    assert epoch(100) == (order, peak) and epoch(100, seed=4)[0] != order
    whole, _ = epoch(2000)      # the buffer holds everything: one permutation in id order
    perm = torch.randperm(1000, generator=torch.Generator().manual_seed(3))
    assert whole == [rows[i]["id"] for i in perm]


def test_lexical_folds_metadata_and_stats(lexical_adversary, candidates_dir, rows):
    summary = json.loads((lexical_adversary / "stats" / "train_folds.json").read_text())
    assert summary["heldout_n"] == len(rows)
    # a real reader: well above picking a random candidate
    assert summary["heldout_accuracy"] > summary["random_baseline"] + 0.1
    stages = summary["stages"]
    assert summary["gaps"] == []
    assert stages["featurize"]["in"] == stages["shard"]["out"] == len(rows)
    assert stages["train"]["in"] == stages["train"]["out"] == 5
    assert summary["max_group"]["shard"] == stages["shard"]["max_group"] <= 2 * SHARD_ROWS
    assert stages["train"]["max_rows_in_memory"] <= 300
    assert summary["max_rows_in_memory"] == max(stages["train"]["max_rows_in_memory"],
                                                stages["shard"]["max_rows_in_memory"])
    assert not (lexical_adversary / "featurized").exists()          # removed after training
    assert "featurized" not in json.dumps(json.loads(
        (lexical_adversary / "_MANIFEST.json").read_text()))
    for fold in range(5):
        d = lexical_adversary / f"fold-{fold}"
        meta = json.loads((d / "metadata.json").read_text())
        assert (d / "model.pt").stat().st_size > 0
        assert meta["trained_on_folds"] == [f for f in range(5) if f != fold]
        own = [r for r in rows if fold_of(r["article_id"], 5) == fold]
        others = [r for r in rows if fold_of(r["article_id"], 5) != fold]
        # no fold model saw any query of an article of its own fold
        assert meta["articles"]["train_digest"] == articles_digest(
            r["article_id"] for r in others)
        assert meta["articles"]["heldout"] == len({r["article_id"] for r in own})
        assert meta["rows"]["train"] == len(others) and meta["rows"]["heldout"] == len(own)
        assert meta["fold_column_agrees"] and meta["streaming"]["shards"] > 1
        assert meta["seed"] == 13 * 1000 + fold and meta["model"] == "lexical"
        assert meta["hyperparameters"]["epochs"] == 30
        assert 0 <= meta["heldout_accuracy"] <= 1 and meta["heldout_n"] == len(own)


def test_settings_that_cannot_work_fail_with_one_line(candidates_dir, tmp_path):
    with pytest.raises(InputError, match=r"shuffle_buffer \(8\) must be at least the "
                                         r"training batch size \(256\)"):
        train_folds.run(["--candidates", str(candidates_dir), "--output", str(tmp_path / "a"),
                         "--shuffle_buffer", "8"])
    assert not (tmp_path / "a").exists()


def test_gpu_hints_flags():
    parser = argparse.ArgumentParser()
    add_gpu_args(parser)
    assert gpu_hints(parser.parse_args([])) == {}
    hints = gpu_hints(parser.parse_args(["--accelerator_type", "nvidia-tesla-t4",
                                         "--accelerator_count", "2", "--min_ram", "16GB"]))
    assert hints == {"accelerator": "type:nvidia-tesla-t4;count:2;install-nvidia-driver",
                     "min_ram": "16GB"}
    raw = gpu_hints(parser.parse_args(["--accelerator", "type:nvidia-l4;count:1"]))
    assert raw == {"accelerator": "type:nvidia-l4;count:1"}


def test_gpu_hints_sit_on_the_training_step_only():
    import apache_beam as beam

    from transforms.machine_filtering import train_stage
    hints = {"accelerator": "type:nvidia-tesla-t4;count:1;install-nvidia-driver",
             "min_ram": "16GB"}
    p = beam.Pipeline()
    config = TrainConfig(TrainPaths("unused", "unused"))
    train_stage.graph(p, config, hints, check_files=False)
    hinted = [label for label, t in _transforms_with_hints(p)]
    assert hinted == ["TrainFolds/TrainFold/ParDo(TrainFoldFn)"]
    assert dataclasses.asdict(config.settings)["shuffle_buffer"] == 10_000


def _transforms_with_hints(p):
    proto = p.to_runner_api()
    envs = proto.components.environments
    for t in proto.components.transforms.values():
        if t.environment_id and envs[t.environment_id].resource_hints and not t.subtransforms:
            yield t.unique_name, envs[t.environment_id].resource_hints


def test_a_known_row_count_keeps_reading_and_featurizing_fused(tmp_path):
    """The stage knows the candidates' row count from their manifest: with it, no count is
    taken in the job, so featurizing has no side input and fuses with reading (a side
    input made the local runner hold every row between the two: worker memory grew with
    the corpus, docs/scaling.md)."""
    import apache_beam as beam

    from transforms.machine_filtering import train_stage
    config = TrainConfig(TrainPaths(str(tmp_path / "candidates"), str(tmp_path / "out")))

    def labels(first_in):
        p = beam.Pipeline()
        train_stage.graph(p, config, first_in=first_in)
        return {t.unique_name for t in p.to_runner_api().components.transforms.values()}

    assert any(name.endswith("/CountRows") for name in labels(None))
    assert not any(name.endswith("/CountRows") for name in labels(1111))
