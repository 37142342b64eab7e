"""benchmarks.adversary_cuda on CPU: `prepare` writes what a GPU machine needs from real
candidates, and `measure` times every batch size it is asked for (the GPU figures in
docs/scaling.md come from the same code on CUDA)."""
import json

import pytest

from benchmarks import adversary_cuda


def test_prepare_then_measure_sweeps_each_batch_size(generated_dir, tmp_path):
    data = tmp_path / "data"
    info = adversary_cuda.prepare(str(generated_dir / "candidates"), str(data), limit=10)
    assert info["examples"] >= 8 and info["reader_texts"] > info["examples"]
    assert json.loads((data / "config.json").read_text())["hidden_size"] == 384
    out = adversary_cuda.measure(str(data), device="cpu", steps=1, batch=2,
                                 score_batch_size=4, train_batches=(2, 4),
                                 score_batches=(8,))
    assert out["examples"] == info["examples"]
    assert set(out["train_sweep"]) == {"2", "4"} and set(out["score_sweep"]) == {"8"}
    assert all(v["queries_per_s"] > 0 and v["peak_mib"] is None
               for v in [*out["train_sweep"].values(), *out["score_sweep"].values()])
    assert out["reader_texts"] == info["reader_texts"] and out["reader_texts_per_s"] > 0


@pytest.mark.fast
@pytest.mark.parametrize("text", ["8,x", "0", "-4"])
def test_batch_sizes_are_checked(text):
    with pytest.raises(SystemExit, match="error: batch sizes"):
        adversary_cuda._sizes(text)
