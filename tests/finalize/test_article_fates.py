"""Article fates after the filter's steps (adversary, release, balance): an article none
of whose candidates was kept is labelled by the filter's own rejected rows (the
adversary's answers, the release rules' reasons, the drop sampler's), not
`all_queries_answered` by default. The rule without Beam, then ArticleFates on hand-made
rows, with the filter's rejected rows read from real Parquet."""
import apache_beam as beam
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from apache_beam.testing.test_pipeline import TestPipeline as BeamTestPipeline
from apache_beam.testing.util import assert_that, equal_to

from transforms.core.accounting import COUNTS, SumCounts
from transforms.core.schema import REJECTED_SCHEMA
from transforms.finalize.report.assemble import filter_rejected_problems
from transforms.finalize.report.fates import (
    ArticleFates,
    filter_stopped_at,
    read_filter_rejected,
)

ANSWERED = ("adversary", "answered_by_adversary")


@pytest.mark.fast
@pytest.mark.parametrize("rejections,want", [
    ({ANSWERED: 3}, ("adversary", "all_queries_answered")),
    # the adversary left one, the release rules removed it: stopped at release
    ({ANSWERED: 3, ("release", "sibling_query"): 1}, ("release", "sibling_query")),
    ({("release", "answer_in_query"): 2, ("release", "sibling_query"): 1},
     ("release", "answer_in_query")),                                   # most frequent
    ({("release", "sibling_query"): 1, ("release", "only_compatible_entity"): 1},
     ("release", "only_compatible_entity")),                            # a tie: first name
    # not all answered: the adversary's most frequent reason, never all_queries_answered
    ({ANSWERED: 2, ("adversary", "dropped_for_balance"): 1}, ("adversary", ANSWERED[1])),
    ({("adversary", "dropped_for_balance"): 2, ANSWERED: 1},
     ("adversary", "dropped_for_balance")),
    ({("adversary", "scoring_error"): 1}, ("adversary", "scoring_error")),
    # the drop sampler (`balance` drop) runs last: it removed what the release rules kept
    ({ANSWERED: 2, ("release", "sibling_query"): 3, ("balance", "dropped_for_balance"): 1},
     ("balance", "dropped_for_balance")),
    # a filter step it does not know comes after release
    ({("release", "sibling_query"): 2, ("recheck", "too_easy"): 1}, ("recheck", "too_easy")),
    # finalize's rejections say nothing of the filter; none at all: the job, not a step
    ({("dedupe", "duplicate_query_in_passage"): 1}, ("adversarial_filter", "none_kept")),
    ({}, ("adversarial_filter", "none_kept")),
])
def test_an_article_with_nothing_kept_stopped_at_the_filters_last_step(rejections, want):
    assert filter_stopped_at(rejections) == want


@pytest.mark.fast
def test_the_joined_filter_rejections_must_match_the_filters_funnel():
    stages = {"query": {"job": "generate", "rejected": 4},
              "adversary": {"job": "adversarial_filter", "rejected": 5},
              "release": {"job": "adversarial_filter", "rejected": 2},
              "dedupe": {"job": "finalize", "rejected": 1}}
    assert filter_rejected_problems(stages, {"filter_rejected": 7}) == []
    assert filter_rejected_problems(stages, {}) == []        # no DIR/filtered/rejected rows
    assert filter_rejected_problems(stages, {"filter_rejected": 6}) == [
        "article fates: 6 rejected rows of DIR/filtered/rejected name an article, the "
        "filter's funnel rejected 7 (is DIR/filtered/rejected stale?)"]


def _fate(article, candidates):
    return {"article_id": article, "record_id": None, "source_file": f"{article}.story",
            "origin": "public", "stage": None, "reason": None, "candidates": candidates}


def _rejected(stage, reason, article, n):
    return [{"stage": stage, "reason": reason, "article_id": article, "record_id": f"{article}-{i}",
             "source_file": None, "detail": None} for i in range(n)]


def test_article_fates_name_the_filter_step_that_removed_an_articles_queries(tmp_path):
    filtered = tmp_path / "filtered"
    (filtered / "rejected").mkdir(parents=True)
    rows = (_rejected("adversary", "answered_by_adversary", "all-answered", 3)
            + _rejected("adversary", "answered_by_adversary", "siblings", 2)
            + _rejected("release", "sibling_query", "siblings", 1)
            + _rejected("release", "answer_in_query", "giveaways", 2)
            + _rejected("release", "sibling_query", "giveaways", 1)
            + _rejected("adversary", "answered_by_adversary", "released", 4)
            + _rejected("adversary", "dropped_for_balance", "balanced", 1)
            + _rejected("adversary", "answered_by_adversary", "balanced", 1))
    for n, part in enumerate((rows[:7], rows[7:])):            # two shards, as Beam writes
        pq.write_table(pa.Table.from_pylist(part, schema=REJECTED_SCHEMA),
                       filtered / "rejected" / f"rejected-0000{n}-of-00002.parquet")
    fates = [_fate("all-answered", 3), _fate("siblings", 3), _fate("giveaways", 3),
             _fate("released", 5), _fate("balanced", 2), _fate("unheard", 2),
             _fate("split-out", 1)]
    kept = [{"article_id": "released"}, {"article_id": "split-out"}]
    released = [{"article_id": "released", "split": "train"}]
    finalize = _rejected("split", "not_validated_for_dev", "split-out", 1)
    with BeamTestPipeline() as p:
        dropped = ((read_filter_rejected(p, str(filtered)), p | "Fin" >> beam.Create(finalize))
                   | beam.Flatten())
        out = (p | "F" >> beam.Create(fates), p | "K" >> beam.Create(kept),
               p | "R" >> beam.Create(released), dropped) | ArticleFates()
        assert_that(out["main"] | beam.Map(lambda r: (r["article_id"], r["stage"], r["reason"],
                                                      r["kept"], r["released"])), equal_to([
            ("all-answered", "adversary", "all_queries_answered", 0, 0),
            ("siblings", "release", "sibling_query", 0, 0),
            ("giveaways", "release", "answer_in_query", 0, 0),
            ("released", None, None, 1, 1),
            ("balanced", "adversary", "answered_by_adversary", 0, 0),
            ("unheard", "adversarial_filter", "none_kept", 0, 0),
            ("split-out", "split", "not_validated_for_dev", 1, 0)]), label="Fates")
        counts = out[COUNTS] | beam.CombineGlobally(SumCounts())
        assert_that(counts | beam.Map(lambda c: (
            c["articles.filter_rejected"], c["articles.rows"], c["articles.kept"],
            c["articles.released"], c["articles.stopped:release/sibling_query"],
            c["articles.stopped:adversary/all_queries_answered"])),
            equal_to([(len(rows), 7, 2, 1, 1, 1)]), label="Counts")


def test_without_the_filters_rejected_folder_nothing_is_read(tmp_path):
    """`run` finds no DIR/filtered/rejected files: the graph reads nothing there, and an
    article with nothing kept is the filter job's, no step named."""
    with BeamTestPipeline() as p:
        none = read_filter_rejected(p, str(tmp_path / "absent"), present=False)
        out = (p | "F" >> beam.Create([_fate("gone", 2)]), p | "K" >> beam.Create([]),
               p | "R" >> beam.Create([]), none) | ArticleFates()
        assert_that(out["main"] | beam.Map(lambda r: (r["stage"], r["reason"])),
                    equal_to([("adversarial_filter", "none_kept")]))
