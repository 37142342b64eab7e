"""adversarial_filter's AFLite path and the default (k-fold readers and AFLite together,
drop-only sampler) on real-corpus candidates: the Beam stage equals the in-memory
reference, gives the same verdicts and stats with 1 and 2 workers, drops the union of
what either adversary answers, and never keeps a query an adversary answered (the
accounts say so and match the Parquet)."""
import json

import pyarrow.parquet as pq
import pytest

from beam_pipelines import adversarial_filter
from models import aflite as A
from tests.machine_filtering.test_train_folds import (
    build_candidates,
    build_lexical_adversary,
)

SMALL = ["--aflite_heads", "8", "--aflite_max_iterations", "4"]


@pytest.fixture(scope="module")
def inputs(tmp_path_factory, corpus_dir):
    cands = build_candidates(tmp_path_factory, corpus_dir)
    return cands, build_lexical_adversary(tmp_path_factory, cands)


def run(cands, adv, out, *extra):
    stats = adversarial_filter.run(["--candidates", str(cands), "--adversary", str(adv),
                                    "--output", str(out), *SMALL, *extra])
    rows = pq.read_table(str(out / "scored")).to_pylist()
    return stats, {r["id"]: r for r in rows}


@pytest.fixture(scope="module")
def runs(inputs, tmp_path_factory):
    cands, adv = inputs
    root = tmp_path_factory.mktemp("aflite")
    return {
        "aflite1": run(cands, adv, root / "a1", "--adversary_kind", "aflite", "--balance",
                       "none", "--workers", "1"),
        "aflite2": run(cands, adv, root / "a2", "--adversary_kind", "aflite", "--balance",
                       "none", "--workers", "2"),
        "kfold": run(cands, adv, root / "k", "--adversary_kind", "kfold", "--balance", "none",
                     "--workers", "1"),
        "default": run(cands, adv, root / "d", "--workers", "1") + (root / "d",),
    }


def test_beam_aflite_equals_the_in_memory_reference_with_1_or_2_workers(runs, inputs):
    (s1, r1), (s2, r2) = runs["aflite1"], runs["aflite2"]
    assert r1 == r2 and s1 == s2
    config = A.AfliteConfig(heads=8, max_iterations=4)
    examples = {}
    for i, row in r1.items():
        try:
            examples[i] = A.featurize(row)[1]
        except ValueError:
            pass
    ref = A.run_in_memory(examples, config)
    assert {i: row["adversary_correct"] for i, row in r1.items()} == {
        i: ref[i]["removed_in"] is not None for i in ref}
    a = s1["stages"]["adversary"]
    removed = sum(v for k, v in a.items() if k.startswith("aflite.") and k.endswith(".removed"))
    assert removed == a["answered_by.aflite"] == s1["summary"]["dropped"] > 0
    assert s1["summary"]["max_rows_in_memory"] <= config.train_queries
    assert 0 < s1["summary"]["drop_share"] < 1 - config.min_keep_share + 0.01
    for row in r1.values():                       # the heads' majority pick is a candidate
        assert row["adversary_prediction"] in {e["text"] for e in row["entities"]}


def test_default_drops_what_either_adversary_answers_and_keeps_none_of_it(runs):
    stats, rows, out = runs["default"]
    kfold, aflite = runs["kfold"][1], runs["aflite1"][1]
    assert stats["adversary"] == "kfold+aflite" and stats["balance"] == "drop"
    assert {i: r["adversary_correct"] for i, r in rows.items()} == {
        i: kfold[i]["adversary_correct"] or aflite[i]["adversary_correct"] for i in rows}
    kept = pq.read_table(str(out / "kept")).to_pylist()
    rejected = pq.read_table(str(out / "rejected")).to_pylist()
    assert not [r for r in kept if r["adversary_correct"]]
    t, a = stats["summary"], stats["stages"]["adversary"]
    assert t["readmitted"] == t["kept_answered"] == 0 and t["kept"] == len(kept)
    answered = sum(r["adversary_correct"] for r in rows.values())
    assert t["answered"] == answered == a["reasons"]["answered_by_adversary"]
    assert sum(v for k, v in a.items() if k.startswith("answered_by.")) == answered
    by_reason = {}
    for r in rejected:
        by_reason.setdefault(r["reason"], set()).add(r["record_id"])
    assert by_reason["answered_by_adversary"] == {i for i, r in rows.items()
                                                  if r["adversary_correct"]}
    assert len(by_reason.get("dropped_for_balance", ())) == t["dropped_for_balance"]
    assert 0.27 <= t["most_frequent_share"]["kept"] <= 0.43
    assert json.loads((out / "stats" / "adversarial_filter.json").read_text()) == stats
