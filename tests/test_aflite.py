"""AFLite (models/aflite.py) without Beam: the seeded partitions, predictability from the
held-out heads only, the removal order and plan, and the whole loop removing a planted
shortcut first and stopping when what is left is at chance for its heads."""
import numpy as np
import pytest

from models import aflite as A
from tests.test_hardness import ROW, synthetic

pytestmark = pytest.mark.fast   # unit tests: `python -m pytest -q -m fast`

CFG = A.AfliteConfig(heads=16, max_iterations=6, remove_share=0.1, min_keep_share=0.2)


def test_partitions_are_seeded_by_query_id_and_iteration():
    a, b = A.head_draws("q1", 0, CFG), A.head_draws("q1", 0, CFG)
    assert a.dtype == bool and a.shape == (16,) and (a == b).all()
    assert not all((A.head_draws("q1", i, CFG) == a).all() for i in range(1, 4))
    share = np.mean([A.head_draws(f"q{i}", 0, CFG) for i in range(2000)])
    assert 0.47 < share < 0.53                      # train_share 0.5
    ids = [f"q{i}" for i in range(50)]
    small = A.iteration_sample(ids, 0, A.AfliteConfig(train_queries=10))
    assert len(small) == 10 and small == sorted(small)
    assert small == A.iteration_sample(list(reversed(ids)), 0, A.AfliteConfig(train_queries=10))


def test_predictability_counts_only_the_heads_that_did_not_train_on_the_query():
    answers = np.array([True, True, False, False])
    assert A.predictability(answers, np.array([True, True, False, False])) == 0.0
    assert A.predictability(answers, np.array([False, False, True, True])) == 1.0
    assert A.predictability(answers, np.array([False, True, False, True])) == 0.5
    assert A.predictability(answers, np.ones(4, bool)) is None
    picks = np.array([2, 2, 0, 1])
    assert A.majority_pick(picks, np.array([False, False, True, True])) == 2
    assert A.majority_pick(picks, np.array([True, True, False, False])) == 0   # tie: first
    assert A.majority_pick(picks, np.ones(4, bool)) == 2        # no held-out head: all


def test_removal_order_and_plan():
    c = A.AfliteConfig(remove_share=0.1, min_keep_share=0.25)
    high, low = A.removal_key(0.9, "q", 0, c), A.removal_key(0.8, "q", 0, c)
    assert high < low                            # most predictable first
    assert A.removal_key(1.0, "q", 0, c) < high
    # 100 candidates: k = 10; 30 eligible -> at least 10 removed, the smallest keys
    hist = {k: 1 for k in range(30)}
    plan = A.removal_plan(hist, alive=100, total=100, config=c)
    assert plan == {"threshold": 9, "removed": 10, "eligible": 30, "stop": False}
    # ties in the threshold's bin are removed together (more than k, never fewer)
    plan = A.removal_plan({0: 4, 1: 8}, alive=100, total=100, config=c)
    assert plan["removed"] == 12 and plan["threshold"] == 1
    # fewer than k eligible: they go, and filtering stops
    plan = A.removal_plan({5: 3}, alive=100, total=100, config=c)
    assert plan["removed"] == 3 and plan["stop"]
    # never below min_keep_share of the candidates
    plan = A.removal_plan(hist, alive=30, total=100, config=c)
    assert plan["removed"] == 5 and plan["stop"]
    assert A.removal_plan({}, alive=100, total=100, config=c)["removed"] == 0
    # too few candidates for heads to mean anything: nothing goes
    plan = A.removal_plan(hist, alive=60, total=60, config=c)
    assert plan["removed"] == 0 and plan["stop"] and plan["too_few_queries"]


def test_featurize_gives_every_candidate_the_shortcut_features():
    cands, ex = A.featurize(ROW)
    n = len(cands)
    assert ex["dense"].shape[0] == ex["sparse"].shape[0] == ex["gold"].shape[0] == n
    assert ex["dense"].dtype == np.float32 and ex["sparse"].dtype == np.int64
    assert [c.text for c, g in zip(cands, ex["gold"]) if g] == ["Angela Merkel", "Merkel"]
    mf = [c.text for c, f in zip(cands, ex["dense"][:, -5]) if f == 1.0]   # in the MF cluster
    assert mf == ["Barack Obama", "Obama"]
    with pytest.raises(ValueError):
        A.featurize(dict(ROW, entities=[]))


def test_aflite_removes_the_planted_shortcut_and_keeps_most_of_the_rest():
    """Half the queries are answered by "the most mentioned person" (a shortcut every head
    learns), half by one of two places (a coin flip for the heads, so a query's
    predictability is high for some by chance: correlated heads agree): nearly all of the
    first are removed, most of the second kept, and the same input gives the same
    verdicts."""
    rows = synthetic(60, 11, "frequent") + synthetic(60, 12, "type")
    examples = {r["id"]: A.featurize(r)[1] for r in rows}
    out = A.run_in_memory(examples, CFG)
    removed = {i for i, v in out.items() if v["removed_in"] is not None}
    frequent = {r["id"] for r in rows if r["id"].startswith("frequent")}
    assert len(removed & frequent) >= 0.9 * len(frequent)
    assert len(removed - frequent) <= 0.35 * (len(rows) - len(frequent))
    assert len(rows) - len(removed) >= CFG.min_keep_share * len(rows)
    assert A.run_in_memory(examples, CFG) == out
