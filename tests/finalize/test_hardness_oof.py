"""transforms/finalize/report/hardness_oof.py: the shortcut baselines out of fold on the
whole release (stats.json `hardness.out_of_fold`) and its lines on the dataset card, on a
small synthetic release whose answers are known: per article, one query answered by the
passage's most frequent entity and one by another entity. The tests that train the
rankers (torch) are not `fast`; the pure ones are."""
import json

import pytest

from transforms.finalize.report import hardness_card
from transforms.finalize.report.hardness_oof import (
    cluster_diff,
    in_sample,
    oof_row,
    section,
)
from transforms.finalize.report.hardness_settings import HardnessSettings

NAMES = ("Alice Smith", "Bob Jones", "Carol White", "Dan Brown", "Eve Black", "Frank Green")


def _article(i: int) -> list:
    """Two rows of one article: `a` answered by the most frequent entity (3 mentions),
    `b` by an entity mentioned once."""
    top, other, third = NAMES[i % 6], NAMES[(i + 1) % 6], NAMES[(i + 2) % 6]
    parts = [top, " met ", other, " in town. ", top, " and ", third, " talked. ", top,
             " left."]
    passage, ents, at = "", [], 0
    for k, text in enumerate(parts):
        if k % 2 == 0:
            ents.append({"start": at, "end": at + len(text), "text": text, "label": "PERSON"})
        passage += text
        at += len(text)

    def row(suffix, answer):
        span = next(e for e in ents if e["text"] == answer)
        return {"id": f"art{i:03d}-{suffix}", "article_id": f"art{i:03d}", "passage": passage,
                "entities": ents, "query": "Later @placeholder went home.",
                "answers": [{"start": span["start"], "end": span["end"], "text": answer}]}
    return [row("a", top), row("b", other)]


def _release(released_suffix: str, articles: int = 24) -> list:
    return [dict(r, released=r["id"].endswith(released_suffix))
            for i in range(articles) for r in _article(i)]


def test_a_release_of_queries_the_shortcut_misses_is_below_its_candidates():
    out = section(_release("b"), folds=2, fold_seeds=1)
    mf = out["baselines"]["most_frequent"]
    assert (out["released"], out["candidates"], out["articles"]) == (24, 48, 24)
    assert mf["released"]["exact_match"] == 0.0 and mf["candidates"]["exact_match"] == 50.0
    assert mf["difference"] == -50.0 and mf["within_bar"]
    assert mf["released"]["n"] == 24 and not mf["released"]["readable"]   # under 30
    for name in ("query_only", "passage_only"):
        c = out["baselines"][name]
        assert c["released"]["n"] == 24 and c["candidates"]["n"] == 48
        assert len(c["difference_per_fold_seed"]) == 1
        lo, hi = c["difference_ci95"]
        assert lo <= c["difference"] <= hi


def test_a_release_of_queries_the_shortcut_answers_fails_the_bar():
    """The released queries are the most-frequent ones: the rule and the passage-only
    ranker trained on them out of fold are well above their candidates' figure."""
    out = section(_release("a"), folds=2, fold_seeds=2)
    mf, po = out["baselines"]["most_frequent"], out["baselines"]["passage_only"]
    assert mf["difference"] == 50.0 and not mf["within_bar"]
    assert mf["difference_ci95"] == [50.0, 50.0]          # every article alike
    assert po["difference"] > 2 and not po["within_bar"]
    assert po["released"]["exact_match"] > po["candidates"]["exact_match"]
    card = "\n".join(hardness_card.out_of_fold_lines({"out_of_fold": out}))
    assert ("most frequent entity, query only and passage only are above their candidates' "
            "figures + 2 points") in card
    assert "too few to read (n=24)" in card and "(n=48)" in card
    assert "A sample of articles" not in card
    out["sample"] = {"cap": 20, "released_in_release": 40}
    card = "\n".join(hardness_card.out_of_fold_lines({"out_of_fold": out}))
    assert "A sample of articles by hash: 24 of the 40 released queries" in card


def test_same_rows_same_bytes_whatever_their_order():
    rows = _release("b", articles=12)
    one = json.dumps(section(rows, folds=2, fold_seeds=2), sort_keys=True)
    assert one == json.dumps(section(rows[::-1], folds=2, fold_seeds=2), sort_keys=True)


@pytest.mark.fast
def test_a_release_in_one_fold_says_why_it_has_no_figures():
    rows = _release("b", articles=1)
    bad = [dict(rows[0], id="art000-c", query="@placeholder met @placeholder."),
           dict(rows[0], id="art000-d", entities=[])]
    out = section(rows + bad, folds=2, fold_seeds=1)
    assert (out["released"], out["candidates"]) == (1, 2)     # the unscorable rows left out
    assert out["baselines"] == {} and "fewer than two article folds" in out["reason"]
    (line,) = hardness_card.out_of_fold_lines({"out_of_fold": out})
    assert "not measured (fewer than two article folds" in line
    (line,) = hardness_card.out_of_fold_lines({"out_of_fold": None})
    assert "not measured (turned off (`--no-hardness_out_of_fold`))" in line
    assert hardness_card.out_of_fold_lines({}) == []          # a stats.json from before
    alone = section([dict(r, released=True) for r in _release("b", articles=3)])
    assert alone["baselines"] == {} and "no candidates beyond the released" in alone["reason"]


@pytest.mark.fast
def test_rows_sample_and_settings():
    row = dict(_article(0)[0], passage_id="p", adversary_correct=False)
    assert oof_row((row, None, "dropped")) == []           # article without a release
    (slim,) = oof_row((row, "dev", "released"))
    assert slim["released"] and "adversary_correct" not in slim and "passage_id" not in slim
    assert all(in_sample(f"a{i}", 900, 1000) for i in range(50))
    took = sum(in_sample(f"a{i}", 10_000, 1000) for i in range(10_000))
    assert 850 < took < 1150
    assert HardnessSettings().hardness_out_of_fold
    for bad in ({"hardness_oof_folds": 1}, {"hardness_oof_fold_seeds": 0},
                {"hardness_oof_queries": -1}):
        with pytest.raises(ValueError):
            HardnessSettings(**bad)


@pytest.mark.fast
def test_cluster_interval_counts_only_articles_of_the_two_sets():
    """An article holding neither set's queries does not change the interval (it would
    add empty draws to the bootstrap)."""
    rows = [{"id": f"a{i}-{j}", "article_id": f"a{i}"} for i in range(30) for j in range(2)]
    em = {r["id"]: float(int(r["article_id"][1:]) % 3 == 0) for r in rows}
    a = {r["id"] for r in rows if r["id"].endswith("-0")}
    b = {r["id"] for r in rows}
    extra = rows + [{"id": f"z{i}", "article_id": f"z{i}"} for i in range(30)]
    assert cluster_diff(rows, em, a, b) == cluster_diff(extra, dict(em, **{
        f"z{i}": 1.0 for i in range(30)}), a, b)


def test_the_beam_step_samples_articles_above_the_cap_and_turns_off():
    import apache_beam as beam
    from apache_beam.testing.test_pipeline import TestPipeline
    from apache_beam.testing.util import assert_that, equal_to

    from transforms.finalize.report.hardness_oof import OutOfFold
    items = [(r, "train", "released" if r.pop("released") else "dropped")
             for r in _release("b", articles=40)]
    items.append((dict(items[0][0], id="zz", article_id="other"), None, "dropped"))
    small = HardnessSettings(hardness_oof_queries=20, hardness_oof_folds=2,
                             hardness_oof_fold_seeds=1)

    def check(got):
        (out,) = got
        assert out["sample"] == {"cap": 20, "released_in_release": 40}
        assert 10 <= out["released"] < 40 and out["candidates"] == 2 * out["released"]
        assert out["baselines"]["most_frequent"]["difference"] == -50.0

    with TestPipeline() as p:
        rows = p | beam.Create(items)
        assert_that(rows | "On" >> OutOfFold(small), check, label="OnCheck")
        off = rows | "Off" >> OutOfFold(HardnessSettings(hardness_out_of_fold=False))
        assert_that(off, equal_to([None]), label="OffCheck")
        whole = HardnessSettings(hardness_oof_queries=0, hardness_oof_folds=2,
                                 hardness_oof_fold_seeds=2)
        want = dict(section([dict(r, released=f == "released") for r, sp, f in items if sp],
                            folds=2, fold_seeds=2),
                    sample={"cap": 0, "released_in_release": 40})
        # the Beam step (featurize, jobs, assemble) gives the section computed in one call
        assert_that(rows | "All" >> OutOfFold(whole), equal_to([want]), label="AllCheck")
