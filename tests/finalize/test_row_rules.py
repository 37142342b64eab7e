"""Finalize's rejections as rule tables (transforms/finalize/row_rules.py), one unit test
per rule, without Beam: the reason and the detail each rejected row carries."""
import pytest

from transforms.core.rules import first_rejection
from transforms.finalize.row_rules import (
    DEDUPE_RULES,
    SPLIT_RULES,
    VALIDATION_RULES,
    Copies,
    Placement,
    Verdicts,
)
from transforms.finalize.splits.rules import bridge_group

pytestmark = pytest.mark.fast
ROW = {"id": "p1-001-00", "article_id": "a1", "_valid_for": "train"}


def test_dedupe_keeps_the_first_copy_of_a_query_text():
    assert first_rejection(DEDUPE_RULES, ROW, Copies("p1-001-00", 0)) is None
    why = first_rejection(DEDUPE_RULES, dict(ROW, id="p1-004-01"), Copies("p1-001-00", 1))
    assert (why.reason, why.detail) == ("duplicate_query_in_passage", "duplicate of p1-001-00")


def test_validation_rules_in_order():
    assert first_rejection(VALIDATION_RULES, ROW, Verdicts(("train",))) is None
    assert first_rejection(VALIDATION_RULES, ROW, Verdicts(("dev_test",))) is None
    conflict = first_rejection(VALIDATION_RULES, ROW, Verdicts(("none", "train")))
    assert (conflict.reason, conflict.detail) == ("conflicting_verdicts", "none,train")
    assert first_rejection(VALIDATION_RULES, ROW, Verdicts(())).reason == "not_human_validated"
    assert first_rejection(VALIDATION_RULES, ROW, Verdicts(("none",))).reason == \
        "failed_human_validation"


def test_split_rules_name_the_placement_and_the_verdict():
    assert first_rejection(SPLIT_RULES, ROW, Placement("train")) is None
    nowhere = first_rejection(SPLIT_RULES, ROW, Placement(None, "dev_size_cap", "g7"))
    assert (nowhere.reason, nowhere.detail) == ("dev_size_cap", "article group g7")
    bridge = first_rejection(SPLIT_RULES, ROW,
                             Placement(None, "near_duplicate_bridge", bridge_group("a1")))
    assert bridge.reason == "near_duplicate_bridge" and "bridge" in bridge.detail
    unplaced = first_rejection(SPLIT_RULES, ROW, Placement(None, "no_article_group"))
    assert (unplaced.reason, unplaced.detail) == ("no_article_group", "article group None")
    dev = first_rejection(SPLIT_RULES, ROW, Placement("dev", None, "g1"))
    assert (dev.reason, dev.detail) == ("not_validated_for_dev", "valid_for=train")
    assert first_rejection(SPLIT_RULES, dict(ROW, _valid_for="dev_test"),
                           Placement("test", None, "g1")) is None
