"""The adversarial filter's drop sampler (transforms/machine_filtering/balance.py): by
default it only drops (never keeps a query the adversary answered); `readmit`, asked for
by name, keeps answered queries back. How many each stratum drops or keeps back, which
ones (seeded by query id), the Beam plan against the pure functions, and Decide with the
plan."""
import random

import pytest

from transforms.core.accounting import Count, Rejected
from transforms.machine_filtering import balance as B
from transforms.machine_filtering.config import FilterSettings
from transforms.machine_filtering.decide import Decide

MF, OT = B.MOST_FREQUENT, B.OTHER


def tally(c1, a1, c0, a0):
    return {MF: {"candidates": c1, "answered": a1}, OT: {"candidates": c0, "answered": a0}}


def kept_share(t, n):
    k1 = t[MF]["candidates"] - t[MF]["answered"] + n["readmit"][MF] - n["drop"][MF]
    k0 = t[OT]["candidates"] - t[OT]["answered"] + n["readmit"][OT] - n["drop"][OT]
    return k1 / (k1 + k0)


def test_readmissions_restore_the_candidates_share_clamped():
    # the real corpus: 416 most-frequent candidates, 303 answered; 695 others, 221 answered
    t = tally(416, 303, 695, 221)
    got = B.readmissions(t, 0.45, 0.55)
    assert got["readmit"][OT] == 0 and 0 < got["readmit"][MF] <= 303
    assert got["drop"] == {MF: 0, OT: 0}
    assert 0.45 <= kept_share(t, got) < 0.4515          # the fewest that reach the target
    fewer = {"readmit": dict(got["readmit"], **{MF: got["readmit"][MF] - 1}), "drop": got["drop"]}
    assert kept_share(t, fewer) < 0.45
    # inside the window the target is the candidates' own share
    t = tally(500, 400, 500, 100)
    got = B.readmissions(t, 0.40, 0.60)
    assert got["readmit"][OT] == 0 and kept_share(t, got) == pytest.approx(0.5, abs=0.002)
    # too many most-frequent answers kept: others are kept back instead
    t = tally(600, 100, 600, 300)
    got = B.readmissions(t, 0.45, 0.55)
    assert got["readmit"] == {MF: 0, OT: 200} and kept_share(t, got) == 0.5
    # every answered one is not enough: unanswered queries of the other stratum go
    for t in (tally(600, 50, 400, 350), tally(300, 250, 700, 100)):
        got = B.readmissions(t, 0.45, 0.55)
        assert sum(got["drop"].values()) > 0
        assert 0.45 <= kept_share(t, got) <= 0.55
    # nothing to do, or nothing possible
    assert B.readmissions(tally(50, 10, 50, 10), 0.45, 0.55)["readmit"] == {MF: 0, OT: 0}
    assert B.readmissions(tally(0, 0, 0, 0), 0.45, 0.55)["readmit"] == {MF: 0, OT: 0}


def test_balance_drops_only_drop_the_fewest_that_reach_the_window():
    # the real corpus under the lexical filter: 416 most-frequent candidates, 303 answered;
    # 695 others, 221 answered: kept share 113 / 587 = 0.19
    t = tally(416, 303, 695, 221)
    got = B.balance_drops(t, 0.25, 0.45)
    assert got["readmit"] == {MF: 0, OT: 0} and got["drop"][MF] == 0
    assert 0.25 <= kept_share(t, got) < 0.2506                  # the window's nearest bound
    fewer = {"readmit": got["readmit"], "drop": {MF: 0, OT: got["drop"][OT] - 1}}
    assert kept_share(t, fewer) < 0.25
    # too many most-frequent answers kept: most-frequent ones go
    t = tally(600, 50, 400, 300)
    got = B.balance_drops(t, 0.25, 0.45)
    assert got["drop"][OT] == 0 and kept_share(t, got) <= 0.45
    fewer = {"readmit": got["readmit"], "drop": {MF: got["drop"][MF] - 1, OT: 0}}
    assert kept_share(t, fewer) > 0.45
    # inside the window, or a stratum with nothing kept: nothing is dropped
    for t in (tally(400, 100, 600, 200), tally(100, 100, 600, 200), tally(0, 0, 0, 0)):
        assert B.balance_drops(t, 0.25, 0.45)["drop"] == {MF: 0, OT: 0}


def test_thresholds_keep_back_at_least_the_wanted_count_by_smallest_hash():
    hist = {MF: {3: 1, 10: 2, 40: 1}, OT: {5: 1}}
    assert B.thresholds(hist, {MF: 2, OT: 0}) == {MF: 10, OT: -1}
    assert B.thresholds(hist, {MF: 1}) == {MF: 3, OT: -1}
    assert B.thresholds(hist, {MF: 9}) == {MF: 40, OT: -1}       # more than exist: all
    assert B.thresholds(hist, {MF: 4})[MF] == 40


def scored_rows(n, seed=0, mf_rate=0.37):
    """(query id, stratum, answered) for a corpus whose plain filter starves the
    most-frequent stratum, like the real one."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        strat = MF if rng.random() < mf_rate else OT
        answered = rng.random() < (0.73 if strat == MF else 0.32)
        out.append((f"q{i:05d}", strat, answered))
    return out


def run_plan(rows, settings=FilterSettings()):
    acc = B.BalanceTally(settings.balance_salt).create_accumulator()
    for qid, strat, answered in rows:
        B.BalanceTally(settings.balance_salt).add_input(acc, (strat, answered, qid))
    return B.plan(acc, settings.most_frequent_share_min, settings.most_frequent_share_max,
                  settings.balance)


READMIT = FilterSettings(balance="readmit", most_frequent_share_min=0.45,
                         most_frequent_share_max=0.55)


def test_default_sampler_never_keeps_an_answered_query():
    s = FilterSettings()
    assert s.balance == "drop"
    rows = scored_rows(3000, mf_rate=0.37)
    plan = run_plan(rows)
    assert plan["readmit"] == {MF: 0, OT: 0} and plan["threshold"] == {MF: -1, OT: -1}
    assert not [q for q, st, a in rows if a and B.keeps_back({"id": q}, st, plan, s.balance_salt)]
    gone = [(q, st) for q, st, a in rows
            if not a and B.drops({"id": q}, st, plan, s.balance_salt)]
    assert len(gone) == plan["drop"][OT] > 0 and all(st == OT for _, st in gone)
    kept = [st for q, st, a in rows if not a and (q, st) not in gone]
    lo = s.most_frequent_share_min
    assert 0.25 <= lo <= sum(st == MF for st in kept) / len(kept) < lo + 0.002


@pytest.mark.parametrize("mf_rate", [0.40, 0.30])
def test_readmit_sampler_keeps_the_share_in_the_window_deterministically(mf_rate):
    """balance=readmit (asked for by name). 0.40: keeping back answered queries is enough;
    0.30: the candidates' own share is far below the window, so unanswered others are
    dropped too."""
    s = READMIT
    rows = scored_rows(3000, mf_rate=mf_rate)
    plan = run_plan(rows, s)
    back = [(q, st) for q, st, a in rows
            if a and B.keeps_back({"id": q}, st, plan, s.balance_salt)]
    gone = [(q, st) for q, st, a in rows
            if not a and B.drops({"id": q}, st, plan, s.balance_salt)]
    assert len(back) == plan["readmit"][MF] and all(st == MF for _, st in back)
    assert len(gone) == plan["drop"][OT] and all(st == OT for _, st in gone)
    assert bool(gone) == (mf_rate == 0.30)
    kept = [(q, st) for q, st, a in rows if not a and (q, st) not in gone] + back
    share = sum(st == MF for _, st in kept) / len(kept)
    assert s.most_frequent_share_min <= share <= s.most_frequent_share_max
    plain = [st for _, st, a in rows if not a]
    assert sum(st == MF for st in plain) / len(plain) < 0.3        # the shortcut it removes
    # same ids, same choice, whatever the order; another salt, another choice
    assert run_plan(list(reversed(rows)), s) == plan
    import dataclasses
    other = run_plan(rows, dataclasses.replace(s, balance_salt="other"))
    assert other["readmit"] == plan["readmit"] and other["threshold"] != plan["threshold"]


def test_balance_plan_on_testpipeline_equals_the_pure_plan():
    import apache_beam as beam
    from apache_beam.testing.test_pipeline import TestPipeline
    from apache_beam.testing.util import assert_that, equal_to

    from tests.models.test_hardness import ROW
    on_mf = [{"start": 0, "end": 12, "text": "Barack Obama"}]
    rows = []
    for i in range(200):
        mf = i % 3 == 0
        rows.append(dict(ROW, id=f"q{i:04d}", answers=on_mf if mf else ROW["answers"],
                         adversary_correct=(i % 4 != 0) if mf else (i % 5 == 0)))
    rows.append(dict(ROW, id="err", adversary_correct=None))
    triples = [(r["id"], B.row_stratum(r), r["adversary_correct"])
               for r in rows if r["adversary_correct"] is not None]
    expected = run_plan(triples, READMIT)
    with TestPipeline() as p:
        plans = p | beam.Create(rows) | B.BalancePlan(READMIT)
        assert_that(plans | beam.Map(lambda d: (d["readmit"], d["threshold"])),
                    equal_to([(expected["readmit"], expected["threshold"])]))
    dropping = run_plan(triples)
    with TestPipeline() as p:
        plans = p | beam.Create(rows) | B.BalancePlan(FilterSettings())
        assert_that(plans | beam.Map(lambda d: (d["readmit"], d["drop"], d["drop_threshold"])),
                    equal_to([(dropping["readmit"], dropping["drop"],
                               dropping["drop_threshold"])]))
    with TestPipeline() as p:
        plans = p | beam.Create(rows) | B.BalancePlan(FilterSettings(balance="none"))
        assert_that(plans | beam.Map(lambda d: (d["readmit"], d["threshold"])),
                    equal_to([({}, {})]))
    assert expected["readmit"][MF] > 0


def test_decide_keeps_back_what_the_plan_says_and_counts_it():
    from tests.models.test_hardness import ROW
    row = dict(ROW, id="q1", fold=2, adversary_correct=True, adversary_prediction="Merkel")
    keep_all = {"threshold": {OT: B.BUCKETS}, "readmit": {OT: 1}}
    out = list(Decide().apply(row, keep_all))
    assert out[-1] == row
    keys = {o.key for o in out if isinstance(o, Count)}
    assert {"fold2.readmitted", "readmitted.other", "kept.other", "fold2.kept"} <= keys
    out = list(Decide().apply(row, {"threshold": {}, "readmit": {}}))
    assert any(isinstance(o, Rejected) for o in out)
    assert "dropped.other" in {o.key for o in out if isinstance(o, Count)}
    unanswered = dict(row, adversary_correct=False)
    out = list(Decide().apply(unanswered, {"threshold": {}, "drop_threshold": {OT: B.BUCKETS}}))
    assert [o.row["reason"] for o in out if isinstance(o, Rejected)] == ["dropped_for_balance"]
    out = list(Decide().apply(unanswered, {"threshold": {}, "drop_threshold": {}}))
    assert out[-1] == unanswered and not any(isinstance(o, Rejected) for o in out)
    out = list(Decide().apply(row))                      # no plan: the plain filter
    assert any(isinstance(o, Rejected) for o in out)
    out = list(Decide(untrained={2}).apply(row, {"threshold": {}, "readmit": {}}))
    assert out[-1] == row and not any(isinstance(o, Rejected) for o in out)  # fold 2 untrained
    assert "fold2.untrained_kept" in {o.key for o in out if isinstance(o, Count)}


def test_share_window_is_checked():
    assert FilterSettings().problems() == []
    assert FilterSettings(most_frequent_share_min=0.7, most_frequent_share_max=0.6).problems()


@pytest.mark.fast
def test_drop_sampler_runs_last_and_readmit_stays_in_decide():
    """`drop` (the default) plans nothing in Decide and drops in the `balance` step, after
    the release rules; `readmit` plans in Decide only; `none` nowhere."""
    import dataclasses
    s = FilterSettings()
    assert (B.step_mode(s, "adversary"), B.step_mode(s, "balance")) == ("none", "drop")
    assert (B.step_mode(READMIT, "adversary"), B.step_mode(READMIT, "balance")) == (
        "readmit", "none")
    none = dataclasses.replace(s, balance="none")
    assert (B.step_mode(none, "adversary"), B.step_mode(none, "balance")) == ("none", "none")


@pytest.mark.fast
def test_balance_step_drops_what_the_plan_says_with_its_reason_and_counts():
    from tests.models.test_hardness import ROW
    from transforms.machine_filtering.decide import Balance
    row = dict(ROW, id="q1", fold=3, adversary_correct=False)
    out = list(Balance().apply(row, {"drop_threshold": {OT: B.BUCKETS}}))
    assert [o.row["reason"] for o in out if isinstance(o, Rejected)] == ["dropped_for_balance"]
    assert [o.row["stage"] for o in out if isinstance(o, Rejected)] == ["balance"]
    assert {(o.step, o.key) for o in out if isinstance(o, Count)} == {
        ("balance", "dropped.other"), ("balance", "fold3.balance_dropped")}
    for plan in ({"drop_threshold": {MF: B.BUCKETS}}, {"drop_threshold": {}}, None):
        out = list(Balance().apply(row, plan))
        assert out[-1] == row and not any(isinstance(o, Rejected) for o in out)
        assert {o.key for o in out if isinstance(o, Count)} == {"kept.other"}


def test_balance_plan_over_released_queries_counts_each_as_kept():
    """The `balance` step's plan sees only released queries: an answered one (kept from an
    untrained fold) counts as kept, so the share it restores is the released share."""
    import apache_beam as beam
    from apache_beam.testing.test_pipeline import TestPipeline
    from apache_beam.testing.util import assert_that, equal_to

    from tests.models.test_hardness import ROW
    on_mf = [{"start": 0, "end": 12, "text": "Barack Obama"}]
    rows = [dict(ROW, id=f"q{i:03d}", answers=on_mf if i % 10 == 0 else ROW["answers"],
                 adversary_correct=i % 7 == 0) for i in range(100)]
    with TestPipeline() as p:
        plans = p | beam.Create(rows) | B.BalancePlan(FilterSettings(), "drop", all_kept=True)
        assert_that(plans | beam.Map(lambda d: (d["tally"], d["drop"])), equal_to([(
            {MF: {"candidates": 10, "answered": 0}, OT: {"candidates": 90, "answered": 0}},
            {"readmit": {MF: 0, OT: 0}, "drop": {MF: 0, OT: 90 - 27}}["drop"])]))


@pytest.mark.fast
def test_card_sentence_puts_the_drop_sampler_after_the_release_rules():
    from transforms.finalize.report.filter_card import filter_sentence
    stages = {"adversary": {"in": 100, "out": 50, "rejected": 50,
                            "reasons": {"answered_by_adversary": 50}},
              "release": {"in": 50, "out": 40, "rejected": 10,
                          "reasons": {"sibling_query": 10}},
              "balance": {"in": 40, "out": 30, "rejected": 10,
                          "reasons": {"dropped_for_balance": 10}}}
    text = filter_sentence({"funnel": {"stages": stages}})
    assert ("50 were answered by it and filtered out (`answered_by_adversary`), and 0 were "
            "kept although it answered them; 50 were left by it; the release rules then "
            "dropped 10 (10 `sibling_query`); of the 40 they kept, the drop sampler then "
            "dropped 10 for balance") in text
    assert text.endswith("and 30 went on to this stage. Whether released queries were "
                         "answered by the adversary is not recorded here (no "
                         "`filtered/scored/` candidates were read).")
    # readmit: the sampler's drops are the adversary step's; the balance step drops none
    stages["adversary"]["reasons"]["dropped_for_balance"] = 5
    stages["balance"].update(rejected=0, reasons={}, out=40)
    text = filter_sentence({"funnel": {"stages": stages}})
    assert "5 were dropped for balance although it did not answer them" in text
    assert "drop sampler then" not in text and "and 40 went on to this stage" in text
