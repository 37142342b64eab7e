"""AFLite (models/aflite.py) without Beam: the seeded partitions, predictability from the
held-out heads only, the removal order and plan, and the whole loop removing a planted
shortcut first and stopping when what is left is at chance for its heads; the streamed
loop over a sharded store (models/aflite_stream.py, what the Beam stage runs) equals the
in-memory one; the stage's Beam graph does not grow with the iterations."""
import dataclasses

import numpy as np
import pytest

from models import aflite as A
from models import aflite_stream as S
from models.featurized import encode_example
from tests.models.test_hardness import ROW, synthetic

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


def test_written_out_gradient_equals_autograd_of_the_softmax_loss():
    """train_heads' gradient (sparse counts, per-query softmax minus answer softmax) is
    what autograd gives for the loss it replaced: mean over (query, head) pairs of
    lse(all scores) - lse(answer scores), with e[:, sparse].sum(-1) for the buckets."""
    import torch
    rng = np.random.default_rng(0)
    n_q, m, dim, width = 40, 4, 6, 5
    lens = rng.integers(1, 9, n_q)
    q = torch.tensor(np.repeat(np.arange(n_q), lens))
    gold = torch.tensor(np.concatenate([np.arange(k) == rng.integers(0, k) for k in lens]))
    gold[0] = True      # a query with two answers
    x = torch.tensor(rng.normal(size=(len(q), dim)).astype(np.float32))
    sparse = rng.integers(0, A.N_BUCKETS, (len(q), width))
    sparse[0, :2] = 7   # a bucket twice in one row counts twice
    mask = torch.tensor((rng.random((n_q, m)) < 0.5).astype(np.float32))
    w = torch.tensor(rng.normal(size=(m, dim)).astype(np.float32), requires_grad=True)
    e = torch.tensor(rng.normal(size=(m, A.N_BUCKETS)).astype(np.float32),
                     requires_grad=True)

    def lse(s):
        return torch.stack([torch.logsumexp(s[q == i], 0) for i in range(n_q)])
    s = x @ w.T + e[:, torch.tensor(sparse)].sum(-1).T
    loss = ((lse(s) - lse(s.masked_fill(~gold[:, None], A.MASKED))) * mask).sum() / mask.sum()
    loss.backward()
    counts, counts_t = A._bucket_counts(sparse)
    with torch.no_grad():
        s2 = x @ w.T + torch.sparse.mm(counts, e.T.contiguous())
        d = A._gradients(s2, gold, q, n_q) * (mask[q] / mask.sum())
        assert torch.allclose(s2, s, atol=1e-5)
        assert torch.allclose(d.T @ x, w.grad, atol=1e-6)
        assert torch.allclose(torch.sparse.mm(counts_t, d).T, e.grad, atol=1e-7)
    assert w.grad.abs().max() > 1e-3 and e.grad.abs().max() > 1e-4    # not vacuous


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


def _store(folder, examples, layout) -> list:
    urls = []
    for i, ids in enumerate(layout):
        url = str(folder / S.shard_name(i, len(layout)))
        assert S.write_shard(url, [(q, encode_example(examples[q])) for q in ids]) == len(ids)
        urls.append(url)
    return urls


def test_streamed_aflite_over_any_store_layout_equals_the_in_memory_reference(tmp_path):
    """The Beam stage's one AFLite step: the same verdicts as run_in_memory query by query,
    whatever the shards (one; three by id hash, read in reverse; uneven, with an empty
    one), the store read 16 rows at a time, the sample (70 of 120) picked by the bounded
    heap; it holds at most the sample and one read."""
    rows = synthetic(60, 11, "frequent") + synthetic(60, 12, "type")
    examples = {r["id"]: A.featurize(r)[1] for r in rows}
    cfg = dataclasses.replace(CFG, train_queries=70)
    ref = A.run_in_memory(examples, cfg)
    removed = {i for i, v in ref.items() if v["removed_in"] is not None}
    assert 0 < len(removed) < len(rows) and len({v["removed_in"] for v in ref.values()}) > 2
    ids = sorted(examples)
    hashed = [[q for q in ids if S.shard_of(q, 3) == k] for k in range(3)]
    layouts = {"one": [ids], "hashed": hashed[::-1], "uneven": [ids[100:], [], ids[:100]]}
    for name, layout in layouts.items():
        run = S.Streamed(_store(tmp_path / name, examples, layout), cfg, batch_rows=16)
        plans = run.run()
        got = dict(run.verdicts())
        assert sorted(got) == ids, name
        assert {q: (v["removed_in"], v["p"]) for q, v in got.items()} == {
            q: (r["removed_in"], r["predictability"]) for q, r in ref.items()}, name
        assert sum(p["removed"] for p in plans) == len(removed)
        assert plans[-1]["stop"] or len(plans) == cfg.max_iterations
        assert cfg.train_queries < run.peak <= cfg.train_queries + 16, name
        for q, v in got.items():           # the heads' majority pick is one of its candidates
            assert 0 <= v["prediction"] < len(examples[q]["gold"])


def test_too_few_queries_are_scored_but_none_removed(tmp_path):
    rows = synthetic(30, 11, "frequent")
    examples = {r["id"]: A.featurize(r)[1] for r in rows}
    run = S.Streamed(_store(tmp_path, examples, [sorted(examples)]), CFG)
    plans = run.run()
    assert len(plans) == 1 and plans[0]["too_few_queries"] and plans[0]["removed"] == 0
    got = dict(run.verdicts())
    assert all(v["removed_in"] is None and v["p"] is not None for v in got.values())
    assert {q: v["p"] for q, v in got.items()} == {
        q: r["predictability"] for q, r in A.run_in_memory(examples, CFG).items()}


def test_graph_paths_counts_every_path_from_the_sinks_to_the_sources():
    import apache_beam as beam

    from runners.launch import graph_paths

    def chain(diamonds: int, side: bool = False):
        p = beam.Pipeline()
        pc = p | beam.Create([1])
        for i in range(diamonds):
            a, b = pc | f"A{i}" >> beam.Map(lambda x: x), pc | f"B{i}" >> beam.Map(lambda x: x)
            if side:       # a side input is a path too (Flink: a broadcast input)
                pc = a | f"S{i}" >> beam.Map(lambda x, y: x, beam.pvalue.AsSingleton(b))
            else:
                pc = (a, b) | f"F{i}" >> beam.Flatten()
        return graph_paths(p)
    assert chain(0) == 1
    assert [chain(k) for k in (1, 2, 3)] == [2, 4, 8]
    assert chain(10, side=True) == chain(10) == 1024


def test_adversarial_filter_graph_does_not_grow_with_aflite_iterations():
    """Unrolled per iteration, AFLite's paths grew x18 an iteration (4e19 at 20 with the
    k-fold readers) and the stage never started on Flink (its batch optimizer walks every
    path); now the iterations run inside one step."""
    import apache_beam as beam

    from runners.launch import PATH_LIMIT, graph_paths
    from transforms.machine_filtering import filter_stage
    from transforms.machine_filtering.config import (
        FilterConfig,
        FilterPaths,
        FilterSettings,
    )
    paths = FilterPaths(candidates="/nonexistent/candidates", adversary="/nonexistent/adv",
                        output="/nonexistent/filtered")
    counts = []
    for iterations in (1, 20):
        p = beam.Pipeline()
        settings = FilterSettings(aflite_max_iterations=iterations)     # kfold+aflite
        filter_stage.graph(p, FilterConfig(paths=paths, settings=settings), [], "CPU",
                           check_files=False, first_in=1000)
        counts.append(graph_paths(p))
    assert counts[0] == counts[1] < PATH_LIMIT / 10
