"""train_folds on candidates the generation job writes from the real corpus: folds by
article, metadata, held-out accuracy, determinism, GPU hints on the training step only.

`build_candidates` / `build_lexical_adversary` are shared with the other adversary tests;
they build once per session under pytest's base temp dir."""
import argparse
import json
import pathlib

import pytest
import torch

from beam_pipelines import train_folds
from transforms.machine_filtering.adversary import (TrainFoldsConfig, articles_digest, read_fold_split,
                                  train_fold)
from transforms.core.hashing import fold_of
from transforms.core.io_utils import read_parquet
from transforms.core.resources import add_gpu_args, gpu_hints

N_ARTICLES = 120   # CNN/DM test articles (+ the 20 CNN stories): ~360 queries


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
                         "--model", "lexical", "--workers", "1"])
    return _once(tmp_path_factory.getbasetemp(), "h3-lexical-adversary", build)


@pytest.fixture(scope="session")
def candidates_dir(tmp_path_factory, corpus_dir):
    return build_candidates(tmp_path_factory, corpus_dir)


@pytest.fixture(scope="session")
def lexical_adversary(tmp_path_factory, candidates_dir):
    return build_lexical_adversary(tmp_path_factory, candidates_dir)


def pattern(candidates) -> str:
    return str(candidates / "*.parquet")


@pytest.mark.parametrize("k", [5, 3])
def test_folds_split_by_article(candidates_dir, k):
    total = read_parquet(pattern(candidates_dir), columns=["id"]).num_rows
    for fold in range(k):
        train, held, agrees = read_fold_split(pattern(candidates_dir), k, fold)
        assert agrees == (k == 5)   # the generation job assigns fold_of(article_id, 5)
        assert len(train) + len(held) == total and held
        assert not {r["article_id"] for r in train} & {r["article_id"] for r in held}
        assert all(fold_of(r["article_id"], k) == fold for r in held)
        assert [r["id"] for r in train] == sorted(r["id"] for r in train)


def test_lexical_folds_metadata_and_heldout_accuracy(lexical_adversary, candidates_dir):
    rows = read_parquet(pattern(candidates_dir)).to_pylist()
    summary = json.loads((lexical_adversary / "stats" / "train_folds.json").read_text())
    assert summary["heldout_n"] == len(rows)
    # a real reader: well above picking a random candidate
    assert summary["heldout_accuracy"] > summary["random_baseline"] + 0.1
    for fold in range(5):
        d = lexical_adversary / f"fold-{fold}"
        meta = json.loads((d / "metadata.json").read_text())
        assert (d / "model.pt").stat().st_size > 0
        assert meta["trained_on_folds"] == [f for f in range(5) if f != fold]
        own = [r for r in rows if fold_of(r["article_id"], 5) == fold]
        others = [r for r in rows if fold_of(r["article_id"], 5) != fold]
        # no fold model saw any query of an article of its own fold
        assert meta["articles"]["train_sha256"] == articles_digest(others)
        assert not {r["article_id"] for r in own} & {r["article_id"] for r in others}
        assert meta["rows"]["train"] == len(others) and meta["rows"]["heldout"] == len(own)
        assert meta["seed"] == 13 * 1000 + fold and meta["model"] == "lexical"
        assert meta["hyperparameters"]["epochs"] == 30
        assert 0 <= meta["heldout_accuracy"] <= 1 and meta["heldout_n"] == len(own)


def test_train_fold_is_deterministic(tmp_path, candidates_dir):
    cfg = lambda out: TrainFoldsConfig(pattern(candidates_dir), str(out))  # noqa: E731
    a, b = train_fold(2, cfg(tmp_path / "a")), train_fold(2, cfg(tmp_path / "b"))
    assert a["heldout_accuracy"] == b["heldout_accuracy"]
    sa = torch.load(tmp_path / "a" / "fold-2" / "model.pt")
    sb = torch.load(tmp_path / "b" / "fold-2" / "model.pt")
    assert all(torch.equal(sa[k], sb[k]) for k in sa)


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
    hints = {"accelerator": "type:nvidia-tesla-t4;count:1;install-nvidia-driver",
             "min_ram": "16GB"}
    p = beam.Pipeline()
    train_folds.build_pipeline(p, TrainFoldsConfig("unused/*.parquet", "unused"), hints)
    hinted = {label for label, t in _transforms_with_hints(p)}
    assert hinted == {"TrainFolds/TrainFold"}


def _transforms_with_hints(p):
    proto = p.to_runner_api()
    envs = proto.components.environments
    for t in proto.components.transforms.values():
        if t.environment_id and envs[t.environment_id].resource_hints and not t.subtransforms:
            yield t.unique_name, envs[t.environment_id].resource_hints
