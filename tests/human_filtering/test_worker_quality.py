"""Worker quality control and triple validation rules (paper section 3.4), without Beam."""
import pytest

from transforms.human_filtering.hits import (
    entity_spans,
    is_correct,
    is_entity,
    render_passage_html,
)
from transforms.human_filtering.worker_quality import (
    QualityConfig,
    Submission,
    answer_roles,
    block_reason,
    check_workers,
    is_ambiguity_report,
    republish,
    validate_queries,
    validation_status,
)

pytestmark = pytest.mark.fast   # unit tests: `python -m pytest -q -m fast`

REFS = [{"start": 10, "end": 22, "text": "Tracy Morgan"},
        {"start": 40, "end": 46, "text": "Morgan"}]


def sub(worker, query, correct, hit=None, ambiguous=False, feedback="", gold=False):
    return Submission(worker, query, hit or "H" + query, correct, ambiguous, feedback, gold)


def test_paper_numbers_are_the_defaults():
    cfg = QualityConfig()
    assert (cfg.check_every, cfg.min_accuracy) == (1000, 0.20)
    assert (cfg.train_min_correct, cfg.dev_test_min_correct) == (1, 2)
    assert cfg.verdict_answers == 2     # two workers decide, a third measures (paper 5.2)


def test_answer_matching_by_normalised_text_or_span():
    assert is_correct("Tracy Morgan", 0, 12, REFS)            # same text, other mention
    assert is_correct("tracy  morgan.", None, None, REFS)      # case, punctuation, spaces
    assert is_correct("The Morgan", 99, 109, REFS)             # article dropped
    assert is_correct("Tracy", 10, 22, REFS)                   # span of a reference answer
    assert not is_correct("Tracy", 10, 15, REFS)               # part of the answer
    assert not is_correct("Amy Schumer", 50, 61, REFS)
    assert not is_correct("", None, None, REFS)
    assert not is_correct(None, None, None, REFS)


def test_block_rule_needs_enough_answers_and_low_accuracy():
    cfg = QualityConfig(min_answers=20)
    assert block_reason(19, 0, cfg) is None                   # too few answers to judge
    assert "accuracy 0.150" in block_reason(20, 3, cfg)
    assert block_reason(20, 4, cfg) is None                   # exactly 20% is not below


def test_workers_are_checked_only_at_checkpoints():
    cfg = QualityConfig(check_every=10, min_answers=5, check_at_end=False)
    # the spammer is wrong on its first 5 answers, then right on the next 5, all before
    # the first check at submission 10: it is never blocked
    subs = [sub("spam", "q%d" % i, i >= 5) for i in range(10)]
    stats, total, checks = check_workers(subs, cfg)
    assert (total, checks, stats["spam"].blocked_at) == (10, 1, None)
    # wrong 10 times: blocked at the check after submission 10, and stays blocked
    subs = [sub("spam", "q%d" % i, i >= 10) for i in range(25)]
    stats, total, checks = check_workers(subs, cfg)
    assert (total, checks, stats["spam"].blocked_at) == (25, 2, 10)
    assert stats["spam"].accuracy == 15 / 25


def test_final_check_catches_a_spammer_in_a_small_batch():
    subs = [sub("spam", "q%d" % i, False) for i in range(30)]
    stats, _, checks = check_workers(subs, QualityConfig())
    assert (checks, stats["spam"].blocked_at) == (1, 30)
    stats, _, checks = check_workers(subs, QualityConfig(check_at_end=False))
    assert (checks, stats["spam"].blocked_at) == (0, None)


def test_validation_status():
    cfg = QualityConfig()
    assert validation_status(1, 1, cfg) == "train"
    assert validation_status(2, 1, cfg) == "train"      # the second worker disagreed
    assert validation_status(2, 2, cfg) == "dev_test"
    assert validation_status(3, 2, cfg) == "train"      # not every worker was right
    assert validation_status(1, 0, cfg) == "none"
    assert validation_status(0, 0, cfg) == "none"


def test_blocked_answers_do_not_count_and_their_hits_are_republished():
    subs = [sub("a", "q1", True), sub("b", "q1", True), sub("spam", "q2", True, hit="H2"),
            sub("a", "q2", True), sub("spam", "q3", False, hit="H3"),
            sub("a", "q3", False, feedback="I guessed, two people fit"),
            sub("a", "q3", True)]                          # a repeat answer is ignored
    out = validate_queries(subs, ["q1", "q2", "q3", "q4"], {"spam"}, QualityConfig())
    assert out["q1"]["valid_for"] == "dev_test"
    assert (out["q2"]["n_answers"], out["q2"]["n_discarded"], out["q2"]["valid_for"]) \
        == (1, 1, "train")
    assert out["q3"]["valid_for"] == "none" and out["q3"]["n_discarded"] == 2
    assert out["q3"]["feedback"] == ["I guessed, two people fit"]
    assert out["q4"] == {"id": "q4", "n_answers": 0, "n_correct": 0, "n_discarded": 0,
                         "n_heldout": 0, "ambiguous": False, "feedback": [], "valid_for": "none"}
    again = republish(subs, {"spam"})
    assert again == {"H2": {"assignments": 1, "query_ids": ["q2"], "workers": ["spam"]},
                     "H3": {"assignments": 1, "query_ids": ["q3"], "workers": ["spam"]}}


def test_ambiguity_reports():
    assert is_ambiguity_report(True, "")
    assert is_ambiguity_report(False, "Not obvious: Obama or Biden")
    assert is_ambiguity_report(False, "More than one entity fits")
    assert not is_ambiguity_report(False, "Nice passage, thanks")


def test_a_click_on_any_mention_of_the_answer_cluster_is_right():
    # the generation stage links the misspelled highlight into the answer's coreference
    # cluster; the cluster is the answers list, and any of its mentions counts
    passage = ("Everardo Custodio, 36, was arrested on Monday. Police said Custodio fled."
               "\n@highlight\nEverado Custodio, 36, was arrested\n@highlight\nEverado Custodio fled")
    at = lambda text, n=0: passage.index(text) if n == 0 else passage.index(text, n)  # noqa
    cluster = [{"start": 0, "end": 17, "text": "Everardo Custodio"},
               {"start": at("Custodio fled"), "end": at("Custodio fled") + 8, "text": "Custodio"},
               {"start": at("Everado"), "end": at("Everado") + 16, "text": "Everado Custodio"}]
    police = {"start": at("Police"), "end": at("Police") + 6, "text": "Police"}
    for mention in cluster:
        assert passage[mention["start"]:mention["end"]] == mention["text"]
        assert is_correct(mention["text"], mention["start"], mention["end"], cluster)
    later = at("Everado", at("Everado") + 1)       # the same misspelling, another mention
    assert is_correct("Everado Custodio", later, later + 16, cluster)   # by normalised text
    assert not is_correct("Police", police["start"], police["end"], cluster)
    # every mention of the cluster is a clickable entity of the page, offsets and text both
    spans = entity_spans(render_passage_html(passage, cluster + [police]))
    assert all(is_entity(m["text"], m["start"], m["end"], spans) for m in cluster)
    assert not is_entity("Everado Custodio", 0, 17, spans)


def test_only_each_workers_first_answer_to_a_query_counts():
    cfg = QualityConfig(min_answers=20)
    # a spammer: 20 wrong answers and 1 right one repeated 6 times (6/26 = 23% if counted)
    spam = [sub("spam", "q%d" % i, False) for i in range(20)] + [sub("spam", "q20", True)] * 6
    # an honest worker: 25 right answers and 1 wrong one repeated 120 times (25/145 = 17%)
    honest = [sub("ann", "q%d" % i, True) for i in range(25)] + [sub("ann", "q25", False)] * 120
    stats, total, _ = check_workers(spam + honest, cfg)
    assert (stats["spam"].submissions, stats["spam"].correct, stats["spam"].repeats) == (21, 1, 5)
    assert stats["spam"].blocked_at is not None and "0.048" in stats["spam"].reason
    assert (stats["ann"].submissions, stats["ann"].correct, stats["ann"].repeats) == (26, 25, 119)
    assert stats["ann"].blocked_at is None and total == 47
    # a repeat of a right answer after a wrong one stays wrong
    stats, _, _ = check_workers([sub("b", "q1", False), sub("b", "q1", True)], cfg)
    assert (stats["b"].submissions, stats["b"].correct) == (1, 0)


def test_gold_accuracy_is_a_block_rule():
    cfg = QualityConfig(min_gold_answers=5, min_gold_accuracy=0.5)
    assert block_reason(10, 9, cfg, n_gold=4, n_gold_correct=0) is None     # too few gold
    assert "gold accuracy 0.400" in block_reason(10, 9, cfg, n_gold=5, n_gold_correct=2)
    assert block_reason(10, 9, cfg, n_gold=6, n_gold_correct=3) is None
    subs = [sub("llm", "g%d" % i, False, gold=True) for i in range(5)] + \
        [sub("llm", "q%d" % i, True) for i in range(30)]
    stats, _, _ = check_workers(subs, cfg)
    assert stats["llm"].gold_accuracy == 0.0 and stats["llm"].accuracy == 30 / 35
    assert stats["llm"].reason.startswith("gold accuracy")


def test_two_answers_decide_the_verdict_and_later_ones_are_held_out():
    # ReCoRD 3.4 / 5.2: two workers validate a dev/test query, an additional worker's
    # answer measures human performance and does not change what is released
    subs = [sub("a", "q1", True), sub("b", "q1", True), sub("c", "q1", False),
            sub("a", "q2", True), sub("spam", "q2", True), sub("b", "q2", False),
            sub("a", "q2", False), sub("c", "q2", True), sub("d", "q2", True)]
    roles = [(s.worker_id, s.query_id, role, rank)
             for s, role, rank in answer_roles(subs, {"spam"}, 2)]
    assert roles == [("a", "q1", "verdict", 1), ("b", "q1", "verdict", 2),
                     ("c", "q1", "heldout", 3), ("a", "q2", "verdict", 1),
                     ("spam", "q2", "blocked", None), ("b", "q2", "verdict", 2),
                     ("a", "q2", "repeat", None), ("c", "q2", "heldout", 3),
                     ("d", "q2", "heldout", 4)]
    out = validate_queries(subs, ["q1", "q2"], {"spam"}, QualityConfig())
    assert (out["q1"]["valid_for"], out["q1"]["n_answers"], out["q1"]["n_heldout"]) == \
        ("dev_test", 2, 1)                   # the third, wrong answer is held out
    assert (out["q2"]["valid_for"], out["q2"]["n_heldout"], out["q2"]["n_discarded"]) == \
        ("train", 2, 2)
    every = validate_queries(subs, ["q1", "q2"], {"spam"}, QualityConfig(verdict_answers=0))
    assert (every["q1"]["valid_for"], every["q1"]["n_answers"], every["q1"]["n_heldout"]) == \
        ("train", 3, 0)                      # 0: every answer decides (no human figure)
    assert all(role != "heldout" for _, role, _ in answer_roles(subs, set(), 0))
