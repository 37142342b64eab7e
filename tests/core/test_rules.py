"""The one rule convention (transforms/core/rules.py) and the one step that applies it
(accounting.RuleStep), without a pipeline: a table of named rules, reasons formatted from
the config and the context, the rejected row, the counts; and the one count combiner."""
from dataclasses import dataclass
from typing import NamedTuple

import apache_beam as beam
import pytest

from transforms.core.accounting import COUNTS, REJECTED, RuleStep, SumCounts, count_of
from transforms.core.rules import (
    Reject,
    Rule,
    first_rejection,
    is_rejected,
    rejections,
    verdict,
)

pytestmark = pytest.mark.fast


@dataclass(frozen=True)
class Config:
    min_words: int = 3


class Where(NamedTuple):
    split: str


WORDS = Rule("min_words", "under_{min_words}_words",
             lambda text, ctx, c: len(text.split()) >= c.min_words
             or (False, f"{len(text.split())} words"))
NO_DIGITS = Rule("no_digits", "digits_in_{split}", lambda text, ctx, c: not any(
    ch.isdigit() for ch in text))
TABLE = (WORDS, NO_DIGITS)


def test_a_rule_keeps_or_rejects_with_its_formatted_reason_and_detail():
    assert verdict(WORDS, "one two three", None, Config()) is None
    assert verdict(WORDS, "one two", None, Config()) == Reject("min_words", "under_3_words",
                                                               "2 words")
    # the reason takes fields of the context too (a NamedTuple, dataclass or dict)
    assert verdict(NO_DIGITS, "4 words", Where("dev"), Config()).reason == "digits_in_dev"
    assert verdict(NO_DIGITS, "4 words", {"split": "test"}).reason == "digits_in_test"


def test_a_table_reports_its_first_or_every_failure_in_order():
    assert first_rejection(TABLE, "a 2", Where("dev"), Config()).rule == "min_words"
    assert [r.rule for r in rejections(TABLE, "a 2", Where("dev"), Config())] == [
        "min_words", "no_digits"]
    assert first_rejection(TABLE, "no digits here", Where("dev"), Config()) is None
    assert rejections(TABLE, "no digits here", Where("dev"), Config()) == []
    assert is_rejected(first_rejection(TABLE, "a", Where("x"), Config()))
    assert not is_rejected({"reason": "a dict is a row, not a verdict"})


class Sentences(RuleStep):
    """A step judging one row per element, with the table above."""
    step, rules = "sentence", TABLE

    def __init__(self):
        self.config = Config()

    def context(self, row):
        return Where(row["split"])


def run_step(fn, elements):
    """(main outputs, rejected rows, summed counts) of a RuleStep over elements, by hand."""
    fn.start_bundle()
    out = [o for e in elements for o in fn.process(e)]
    out += list(fn.finish_bundle())
    main = [o for o in out if not isinstance(o, beam.pvalue.TaggedOutput)]
    rejected = [o.value for o in out if isinstance(o, beam.pvalue.TaggedOutput)
                and o.tag == REJECTED]
    counts = [o.value.value for o in out if isinstance(o, beam.pvalue.TaggedOutput)
              and o.tag == COUNTS]
    sums = SumCounts()
    return main, rejected, sums.extract_output(sums.add_input(sums.create_accumulator(),
                                                              counts[0]))


def test_the_rule_step_keeps_rejects_and_counts_by_reason():
    rows = [{"id": "q1", "article_id": "a", "split": "dev", "text": "one two three"},
            {"id": "q2", "article_id": "a", "split": "dev", "text": "one two"},
            {"id": "q3", "article_id": "b", "split": "test", "text": "one 2 three"}]

    class Texts(Sentences):
        def verdict(self, record, context=None, rules=None):
            return super().verdict(record["text"], context, rules)
    main, rejected, counts = run_step(Texts(), rows)
    assert main == rows[:1]
    assert rejected == [
        {"stage": "sentence", "reason": "under_3_words", "article_id": "a", "record_id": "q2",
         "source_file": None, "detail": "2 words"},
        {"stage": "sentence", "reason": "digits_in_test", "article_id": "b", "record_id": "q3",
         "source_file": None, "detail": None}]
    assert counts == {"sentence.in": 3, "sentence.out": 1,
                      "sentence.rejected.digits_in_test": 1,
                      "sentence.rejected.under_3_words": 1}


def test_sum_counts_adds_any_keys_and_keeps_max_keys_at_their_maximum():
    fn = SumCounts()
    acc = fn.create_accumulator()
    for d in ({"s.in": 2, "s.max_group": 5}, {"s.in": 1, "s.max_group": 3},
              count_of(("dedupe", "duplicate")), count_of(("dedupe", "duplicate"))):
        acc = fn.add_input(acc, d)
    merged = fn.merge_accumulators([acc, fn.add_input(fn.create_accumulator(), {3: 4})])
    out = fn.extract_output(merged)
    assert out == {"s.in": 3, "s.max_group": 5, ("dedupe", "duplicate"): 2, 3: 4}
    # keys of one kind come out in order, so the sum is the same bytes whatever the bundles
    assert list(fn.extract_output(fn.add_input(fn.create_accumulator(),
                                               {"b": 1, "a": 1}))) == ["a", "b"]
