"""Human performance from the validation answers (ReCoRD 3.4 / 5.2), without Beam: the
bootstrap intervals, the simulated workers' draws, and the figures and card section of a
small release made of real ReCoRD passages."""
import itertools
import json
import random

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.human_filtering.test_human_validation import write_record_candidates
from transforms.core.record_metric import normalize_answer
from transforms.core.schema import SCORED_SCHEMA
from transforms.finalize.report import human_performance as HP
from transforms.finalize.report.human_card import human_lines
from transforms.human_filtering import hits as H
from transforms.human_filtering import simulate as S

pytestmark = pytest.mark.fast


@pytest.mark.parametrize("p", [0.9, 0.6])
def test_the_bootstrap_interval_covers_the_truth_at_its_confidence(p):
    cover, agree_cover = 0, 0
    for seed in range(300):
        rng = random.Random(seed)
        pairs = [(float(rng.random() < p),) * 2 for _ in range(60)]
        got = HP.scores(pairs, HP.HumanConfig())
        cover += got["exact_match_ci"][0] <= 100 * p <= got["exact_match_ci"][1]
        # agreement: queries of 2-4 answers, right with chance p, a pair agrees when both are
        per_query = {q: [{"em": float(rng.random() < p), "answer": "w%d" % i}
                         for i in range(rng.randint(2, 4))] for q in range(60)}
        a = HP.agreement(per_query, HP.HumanConfig())
        agree_cover += a["ci"][0] <= p * p <= a["ci"][1]
    assert cover / 300 >= 0.92 and agree_cover / 300 >= 0.92
    again = HP.scores(pairs, HP.HumanConfig())
    assert again == got and HP.scores([], HP.HumanConfig())["exact_match"] is None


@pytest.fixture(scope="module")
def record_rows(record_format_dir, tmp_path_factory):
    return write_record_candidates(record_format_dir, tmp_path_factory.mktemp("rows"))


def _pools(row):
    spans = H.entity_spans(H.render_passage_html(row["passage"], row["entities"]))
    return spans, S.candidates(spans, row["answers"])


def _expected(cfg, row):
    """(P(a simulated answer is right), P(two workers choose the same entity)) on this
    query, from the simulator's definition."""
    spans, (right, wrong) = _pools(row)
    if not wrong:
        return 1.0, 1.0
    p, a = cfg.accuracy, cfg.agreement
    texts = [normalize_answer(t) for _, _, t in wrong]
    common = S._rng(cfg.seed, row["id"])        # the query's common answer, as choose draws it
    common_right, pick = common.random() < p, common.random()
    common_text = texts[min(int(pick * len(wrong)), len(wrong) - 1)]
    independent = p * p + (1 - p) ** 2 * sum((texts.count(t) / len(wrong)) ** 2
                                             for t in set(texts))
    # one worker gives the common answer, the other their own
    half = p if common_right else (1 - p) * texts.count(common_text) / len(wrong)
    return (a * common_right + (1 - a) * p,
            a * a + 2 * a * (1 - a) * half + (1 - a) ** 2 * independent)


@pytest.mark.parametrize("accuracy,agreement", [(0.9, 0.0), (0.6, 0.0), (0.6, 0.5)])
def test_simulated_workers_have_the_accuracy_and_agreement_they_are_given(
        record_rows, accuracy, agreement):
    cfg = S.SimConfig(accuracy=accuracy, agreement=agreement, seed=3)
    workers = ["w%03d" % i for i in range(200)]
    right = total = 0
    realized, expected, accuracies = [], [], []
    for row in record_rows:
        spans, _ = _pools(row)
        picks = [S.choose(cfg, w, row["id"], spans, row["answers"]) for w in workers]
        assert all(H.is_correct(t, s, e, row["answers"]) == ok for (s, e, t), ok, _ in picks)
        right, total = right + sum(ok for _, ok, _ in picks), total + len(picks)
        said = [(ok, normalize_answer(e[2])) for e, ok, _ in picks]
        same = [(ok1 and ok2) or t1 == t2
                for (ok1, t1), (ok2, t2) in itertools.combinations(said, 2)]
        realized.append(sum(same) / len(same))
        accuracies.append(_expected(cfg, row)[0])
        expected.append(_expected(cfg, row)[1])
    want = sum(accuracies) / len(accuracies)     # p itself when workers are independent
    assert abs(right / total - want) < 3 * (want * (1 - want) / total) ** 0.5
    if not agreement:
        assert want == pytest.approx(accuracy)
    assert abs(sum(realized) / len(realized) - sum(expected) / len(expected)) < 0.03
    spans, _ = _pools(record_rows[1])                            # seeded: the same every run
    assert [S.choose(cfg, w, "train-1-1", spans, record_rows[1]["answers"]) for w in workers] \
        == [S.choose(cfg, w, "train-1-1", spans, record_rows[1]["answers"]) for w in workers]


# --- a small release -----------------------------------------------------------------

def _release(tmp, rows, verdicts, answers, split_of):
    """DIR/filtered/kept, the released shards (id, article_id), DIR/validated."""
    kept = tmp / "filtered" / "kept"
    kept.mkdir(parents=True)
    scored = [dict(r, adversary_prediction="x", adversary_correct=False) for r in rows]
    pq.write_table(pa.Table.from_pylist(scored, schema=SCORED_SCHEMA), kept / "k.parquet")
    (tmp / "dataset").mkdir()
    for split in HP.SPLITS:
        mine = [{"id": r["id"], "article_id": r["article_id"]} for r in rows
                if split_of.get(r["id"]) == split]
        pq.write_table(pa.Table.from_pylist(mine, schema=pa.schema(
            [("id", pa.string()), ("article_id", pa.string())])),
            tmp / "dataset" / f"{split}-00000-of-00001.parquet")
    v = tmp / "validated"
    v.mkdir()
    (v / "validated.jsonl").write_text("".join(json.dumps(x) + "\n" for x in verdicts))
    (v / "answers.jsonl").write_text("".join(json.dumps(x) + "\n" for x in answers))
    (v / "summary.json").write_text(json.dumps({"config": {"verdict_answers": 2}}))
    return tmp / "dataset", v, tmp / "filtered"


def _answer(q, worker, text, rank, role=None, ambiguous=False, judged=None):
    role = role or ("verdict" if rank and rank <= 2 else "heldout")
    return {"id": q, "worker": worker, "hit": "h-" + q, "answer": text, "correct": True,
            "gold": False, "ambiguous": ambiguous, "role": role, "rank": rank,
            "needs_more_than_model": judged}


def test_figures_of_a_small_release_follow_the_paper_protocol(record_rows, tmp_path):
    by = {r["id"]: r for r in record_rows}
    # train-1-1 and train-1-3 released in train; val-0-0 in dev; train-1-5 dropped (its
    # article's split: train); val-1-1 answered, dropped, its article has nothing released
    split_of = {"train-1-1": "train", "train-1-3": "train", "val-0-0": "dev"}
    answers = [
        _answer("train-1-1", "a", "Hugo Chavez", 1), _answer("train-1-1", "b", "Hugo Chavez", 2),
        _answer("train-1-1", "c", "Simon Bolivar", 3, judged=True),      # held out, wrong
        _answer("train-1-1", "spam", "Colombia", None, "blocked"),       # never counts
        _answer("train-1-3", "b", "Colombia", 1), _answer("train-1-3", "a", "Venezuela", 2,
                                                          ambiguous=True),
        _answer("train-1-3", "a", "Colombia", None, "repeat"),
        _answer("val-0-0", "a", "Morgan", 1), _answer("val-0-0", "c", "Tracy Morgan", 2),
        _answer("val-0-0", "b", "Tracy Morgan", 3, judged=False),
        _answer("val-0-0", "d", "the Morgan", 4),                         # a second held-out
        _answer("train-1-5", "c", "Colombia", 1), _answer("train-1-5", "a", "Venezuela", 2),
        _answer("val-1-1", "a", "Chinese", 1)]
    verdicts = [{"id": "train-1-1", "valid_for": "dev_test", "model_judgements": 1,
                 "needs_more_than_model": True},
                {"id": "train-1-3", "valid_for": "train", "model_judgements": 0},
                {"id": "val-0-0", "valid_for": "dev_test", "model_judgements": 1,
                 "needs_more_than_model": False},
                {"id": "train-1-5", "valid_for": "none"}, {"id": "val-1-1", "valid_for": "none"}]
    dataset, validated, filtered = _release(tmp_path, [by[q] for q in (
        "train-1-1", "train-1-3", "train-1-5", "val-0-0", "val-1-1")], verdicts, answers, split_of)
    h = HP.measure(str(dataset), str(validated), str(filtered))
    assert h["measured"] and h["workers"] == 4 and h["answers"] == 12
    assert h["protocol"]["verdict_answers"] == 2
    train, dev, overall = (h["splits"][s] for s in ("train", "dev", "overall"))
    # released: ONE answer per query, the first held-out one; train-1-3 has none
    assert (train["released"]["n"], train["released"]["queries"]) == (1, 2)
    assert train["released"]["exact_match"] == 0.0 and train["released"]["workers"] == 1
    assert (dev["released"]["n"], dev["released"]["exact_match"]) == (1, 100.0)
    # before filtering: first answers of every answered query, by its article's split
    assert (train["validated"]["n"], train["validated"]["exact_match"]) == (3, 66.67)
    assert (overall["validated"]["n"], overall["validated"]["exact_match"]) == (5, 60.0)
    assert train["agreement"] == dict(train["agreement"], queries=3, pairs=5, share=0.2)
    assert dev["agreement"]["pairs"] == 6 and dev["agreement"]["share"] == 1.0  # same entity
    assert train["could_not_answer"] == {"n": 3, "queries": 1, "share": 0.3333}
    assert train["answered_differently"] == {"n": 3, "queries": 2, "share": 0.6667}
    assert overall["dropped"] == {"n": 5, "queries": 2, "share": 0.4}
    assert h["model_in_the_loop"] == {"judgements": 2, "queries_judged": 2, "needs_more": 1,
                                      "released": {"train": {"queries_judged": 1, "needs_more": 1},
                                                   "dev": {"queries_judged": 1, "needs_more": 0},
                                                   "test": {"queries_judged": 0, "needs_more": 0}}}
    same = train["released"]["same_queries"]
    assert same["most_frequent"]["n"] == same["random"]["n"] == 1
    assert HP.measure(str(dataset), str(validated), str(filtered)) == h     # same bytes

    card = "\n".join(human_lines({"human_performance": h}))
    assert "**Which answers count**: one answer per released query, its first held-out " \
        "answer" in card and "after the 2 answers that decided its verdict" in card
    assert "| **Human performance** | train | 0.0 [0.0, 0.0] | " in card and "| 1 of 2 |" in card
    assert "| ReCoRD human (Table 4) | dev | 91.28 | 91.64 |" in card
    assert "| overall | 5 | 4 | 60.0 [" in card
    assert "judged 1 of 2 queries to need more than the model used" in card

    explorer = HP.explorer_part(str(dataset), str(validated), ["val-0-0"])
    assert explorer["summary"]["measured"] is False        # no stats.json in this folder
    (dataset / "stats.json").write_text(json.dumps({"human_performance": h}))
    explorer = HP.explorer_part(str(dataset), str(validated), ["val-0-0"])
    assert [a["who"] for a in explorer["answers"]["val-0-0"]] == ["worker %d" % i
                                                                 for i in range(1, 5)]
    assert all(set(a) == {"who", "answer", "role", "not_obvious", "needs_more_than_model"}
               for a in explorer["answers"]["val-0-0"])     # no worker id leaves the requester


def test_no_human_performance_measured_says_why(record_rows, tmp_path):
    dataset, validated, filtered = _release(tmp_path, record_rows[:2], [], [], {})
    for got, why in (
            (HP.measure(str(dataset), None, str(filtered)), "has no human-validation results"),
            (HP.measure(str(dataset), str(validated), str(filtered)), "no counted answer")):
        assert not got["measured"] and got["reason"].startswith("no human performance measured")
        assert why in got["reason"]
        card = human_lines({"human_performance": got})
        assert card[2].startswith("No human performance measured: ") and why in card[2]
    (validated / "answers.jsonl").write_text('{"id": 3}\n')
    assert "unreadable" in HP.measure(str(dataset), str(validated), str(filtered))["reason"]
    (validated / "answers.jsonl").unlink()
    assert "no answers.jsonl" in HP.measure(str(dataset), str(validated), str(filtered))["reason"]
    assert human_lines({})[2] == "No human performance measured."
