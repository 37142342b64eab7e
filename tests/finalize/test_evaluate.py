"""The official ReCoRD metric on the real samples, and the evaluate entry point."""
import json
import subprocess
import sys

import pytest

from beam_pipelines import evaluate
from transforms.core import record_metric as M

pytestmark = pytest.mark.fast   # unit tests: `python -m pytest -q -m fast`


def test_normalize_answer_follows_the_official_rules():
    assert M.normalize_answer("The  U.S.A.") == "usa"
    assert M.normalize_answer("an Apple, a day!") == "apple day"
    assert M.normalize_answer("Theatre\tAnd\n 'Them'") == "theatre and them"   # words, not prefixes
    assert M.normalize_answer("£600k") == "£600k"                              # ASCII punctuation only


def test_exact_match_and_f1_take_the_best_gold():
    assert M.max_over_golds(M.exact_match_score, "morgan", ["Tracy Morgan", "Morgan"]) == 1.0
    assert M.f1_score("Tracy", "Tracy Morgan") == pytest.approx(2 / 3)
    assert M.max_over_golds(M.f1_score, "Tracy Morgan Jr", ["Morgan", "Tracy Morgan"]) == pytest.approx(0.8)
    assert M.f1_score("the", "a") == 0.0   # both normalise to nothing


def test_missing_predictions_score_zero():
    gold = {"q1": ["Ann"], "q2": ["Bob"], "q3": ["Cy", "Cyrus"]}
    result = M.evaluate(gold, {"q1": "ann", "q3": "Cyrus Smith"})
    assert result["answered"] == 2 and result["total"] == 3
    assert result["exact_match"] == pytest.approx(100 / 3)
    assert result["f1"] == pytest.approx(100 * (1 + 2 / 3) / 3)


def test_queries_without_gold_answers_are_refused():
    with pytest.raises(ValueError, match="no gold answers"):
        M.evaluate({"q": []}, {"q": "x"})


def _gold_predictions(gold):
    return {qid: answers[0] for qid, answers in gold.items()}


@pytest.mark.parametrize("name", ["allennlp_models_record.json", "superglue_jsonl/train.jsonl",
                                  "superglue_jsonl/val.jsonl"])
def test_gold_answers_score_100_on_the_real_samples(record_format_dir, name):
    gold, _ = evaluate.load_data(str(record_format_dir / name))
    assert len(gold) >= 2
    result = M.evaluate(gold, _gold_predictions(gold))
    assert (result["exact_match"], result["f1"]) == (100.0, 100.0)


def test_first_entity_scores_50_50_on_allennlp_sample(record_format_dir, tmp_path):
    data = str(record_format_dir / "allennlp_models_record.json")
    result = evaluate.run(["--data", data, "--baseline", "first_entity"])
    assert (result["exact_match"], result["f1"], result["total"]) == (50.0, 50.0, 2)
    # The same through a predictions file, as a model would hand it in.
    preds = tmp_path / "preds.json"
    preds.write_text(json.dumps({
        "483577c837cdd4df5bbbbd5cfa3a77f6fea3519e-18db09b9e470ab13e21de901d213aff3db85d1e5-132": "Tracy Morgan",
        "c1037ea3d376ca9e0371478795c24aaaa36f76be-f25ae34afd9730c53b1f4cb9546a09fc1e66de82-57": "Tian Tian"}))
    assert evaluate.run(["--data", data, "--predictions", str(preds)])["exact_match"] == 50.0


def test_baselines_on_the_real_sample(record_format_dir):
    data = str(record_format_dir / "allennlp_models_record.json")
    most = evaluate.run(["--data", data, "--baseline", "most_frequent"])
    assert most["exact_match"] == 50.0   # "Morgan" (6 mentions) right; "Tian Tian" not "China"
    rand = evaluate.run(["--data", data, "--baseline", "random", "--seed", "3"])
    assert rand == evaluate.run(["--data", data, "--baseline", "random", "--seed", "3"])
    # Expected random EM: 2 of 14 distinct entity texts are right in passage 1, 1 of 6 in passage 2.
    assert rand["expected_exact_match"] == pytest.approx(100 * (2 / 14 + 1 / 6) / 2)


def test_cli_prints_scores_and_fails_cleanly(record_format_dir, tmp_path):
    data = str(record_format_dir / "allennlp_models_record.json")
    out = subprocess.run([sys.executable, "-m", "beam_pipelines.evaluate", "--data", data,
                          "--baseline", "first_entity"], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["f1"] == 50.0
    bad = tmp_path / "bad.json"
    bad.write_text('["not", "a", "dict"]')
    out = subprocess.run([sys.executable, "-m", "beam_pipelines.evaluate", "--data", data,
                          "--predictions", str(bad)], capture_output=True, text=True)
    assert out.returncode == 2 and "query_id: answer_text" in out.stderr
