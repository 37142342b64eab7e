"""benchmarks.adversary_batch_quality on CPU: every setting trains from the same
pretrained weights on the same folds and is scored on the same held-out queries (the GPU
figures in docs/scaling.md come from the same code on CUDA)."""
import json

import pytest

from benchmarks import adversary_batch_quality as quality
from benchmarks import adversary_cuda


def test_settings_share_folds_weights_and_held_out_queries(generated_dir, tmp_path):
    data = tmp_path / "data"
    info = adversary_cuda.prepare(str(generated_dir / "candidates"), str(data), limit=12,
                                  weights=True)
    assert (data / "encoder.safetensors").exists()
    assert len(json.loads((data / "passages.json").read_text())) == info["examples"]
    out = quality.run(str(data), quality.parse_settings("4:1,8:2:3"), folds=2,
                      run_folds=2, device="cpu", out=str(tmp_path / "q.json"),
                      verdicts_out=str(tmp_path / "v.json"))
    first, other = out["settings"].values()
    # every answerable example is held out once, in every setting, on the same folds
    assert first["held_out"] == other["held_out"] == out["answerable"] > 0
    assert [f["test"] for f in first["fits"]] == [f["test"] for f in other["fits"]]
    assert [f["steps"] for f in first["fits"]] == [-(-f["train"] // 4) for f in first["fits"]]
    assert [f["steps"] for f in other["fits"]] == [-(-f["train"] // 8) for f in other["fits"]]
    a = out["agreement_with_4:1:0"]["8:2:3"]
    n = first["held_out"]
    # the agreement counts are consistent with the two accuracies
    assert round(first["accuracy"] * n) - a["only_first"] == round(other["accuracy"] * n) - a["only_this"]
    assert json.loads((tmp_path / "q.json").read_text()) == out
    # each held-out query's verdicts, by its candidate id, in every setting
    verdicts = json.loads((tmp_path / "v.json").read_text())
    assert sorted(verdicts) == sorted(json.loads((data / "ids.json").read_text()))
    assert sum(v["4:1:0"] for v in verdicts.values()) == round(first["accuracy"] * n)
    # the same setting again: on CPU the same weights, batches and losses
    again = quality.run(str(data), quality.parse_settings("4:1"), folds=2, run_folds=1,
                        device="cpu")["settings"]["4:1:0"]
    assert again["final_loss"] == first["final_loss"][:1]


@pytest.mark.fast
def test_prepared_examples_round_trip(tmp_path):
    import numpy as np
    import torch
    examples = [{"input_ids": np.arange(n, dtype=np.int64), "n_cand": np.asarray([n])}
                for n in (3, 1, 5)]
    golds = [np.asarray([True, False]), np.asarray([False]), np.asarray([True] * 3)]
    cols = {k: [e[k] for e in examples] for k in examples[0]} | {"gold": golds}
    np.savez_compressed(tmp_path / "examples.npz",
                        **{k: np.concatenate(v) for k, v in cols.items()},
                        **{f"{k}:len": np.asarray([len(x) for x in v]) for k, v in cols.items()})
    got, got_golds = adversary_cuda._load(tmp_path)
    assert [e["input_ids"].tolist() for e in got] == [[0, 1, 2], [0], [0, 1, 2, 3, 4]]
    assert [g.tolist() for g in got_golds] == [g.tolist() for g in golds]
    assert all(isinstance(g, torch.Tensor) for g in got_golds)


@pytest.mark.fast
@pytest.mark.parametrize("text", ["8", "8:x", "0:1", "8:0", "8:1,", "8:1:2:3", "8:1,8:1:0"])
def test_settings_are_checked(text):
    with pytest.raises(SystemExit, match="error: settings"):
        quality.parse_settings(text)


@pytest.mark.fast
def test_settings_and_agreement():
    assert quality.parse_settings("8:1,32:2:5", seed=7) == ((8, 1.0, 7), (32, 2.0, 5))
    a = quality.agreement([True, True, False, False], [True, False, True, False])
    assert a == {"agree": 0.5, "kappa": 0.0, "only_first": 1, "only_this": 1}
    assert quality.fold_of("p1", 5) == quality.fold_of("p1", 5) in range(5)
