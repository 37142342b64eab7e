"""adversarial_filter end to end on the real-corpus candidates with the lexical adversary:
outputs, per-fold counts, agreement with training's held-out evaluation, error rows,
dead-lettered inference failures, determinism, GPU hints on RunInference only."""
import json
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from beam_pipelines import adversarial_filter
from models.features import candidates
from tests.test_train_folds import build_candidates, build_lexical_adversary
from transforms.machine_filtering.adversary import (ERROR_SCHEMA, FilterConfig, fold_model_handler,
                                  load_adversary)
from transforms.core.hashing import fold_of
from transforms.core.schema import CANDIDATE_SCHEMA, SCORED_SCHEMA


@pytest.fixture(scope="module")
def adversary(tmp_path_factory, corpus_dir):
    cands = build_candidates(tmp_path_factory, corpus_dir)
    return cands, build_lexical_adversary(tmp_path_factory, cands)


def read(path):
    return pq.read_table(str(path)).to_pylist()


def bad_rows(good: dict) -> list:
    """Real rows broken the ways upstream bugs could break them."""
    no_entities = dict(good, id="bad-no-entities", entities=[], article_id="bad-a")
    two_placeholders = dict(good, id="bad-two-placeholders", article_id="bad-b",
                            query=good["query"] + " and @placeholder")
    return [no_entities, two_placeholders]


def run_filter(cands, adv, out, *extra):
    return adversarial_filter.run(["--candidates", str(cands), "--adversary", str(adv),
                                   "--output", str(out), *extra])


@pytest.fixture(scope="module")
def filtered(adversary, tmp_path_factory):
    """Candidates plus two bad rows, filtered with 2 DirectRunner worker processes."""
    cands, adv = adversary
    mixed = tmp_path_factory.mktemp("mixed")
    for f in cands.glob("*.parquet"):
        shutil.copy(f, mixed / f.name)
    good = read(cands)
    pq.write_table(pa.Table.from_pylist(bad_rows(good[0]), schema=CANDIDATE_SCHEMA),
                   mixed / "bad.parquet")
    out = tmp_path_factory.mktemp("filtered")
    stats = run_filter(mixed, adv, out, "--workers", "2")
    return good, adv, out, stats


def test_every_candidate_is_scored_or_errored(filtered):
    good, _, out, stats = filtered
    scored, kept, errors = read(out / "scored"), read(out / "kept"), read(out / "errors")
    assert pq.read_schema(next((out / "scored").glob("*.parquet"))).equals(SCORED_SCHEMA)
    assert pq.read_schema(next((out / "errors").glob("*.parquet"))).equals(ERROR_SCHEMA)
    assert sorted(r["id"] for r in scored) == sorted(
        [r["id"] for r in good] + ["bad-no-entities", "bad-two-placeholders"])
    failed = [r for r in scored if r["id"].startswith("bad-")]
    assert all(r["adversary_prediction"] is r["adversary_correct"] is None for r in failed)
    scored = [r for r in scored if not r["id"].startswith("bad-")]
    assert {r["id"]: r["error"] for r in errors} == {
        "bad-no-entities": "no candidate entities in passage",
        "bad-two-placeholders": "query has 2 placeholders, expected 1"}
    assert sorted(r["id"] for r in kept) == sorted(
        r["id"] for r in scored if not r["adversary_correct"])
    for r in scored:
        assert r["adversary_prediction"] in {c.text for c in candidates(r)}
        assert r["adversary_correct"] == (
            r["adversary_prediction"] in {a["text"] for a in r["answers"]})
        assert r["fold"] == fold_of(r["article_id"], 5)
    t = stats["totals"]
    assert (t["in"], t["scored"], t["errors"]) == (len(good) + 2, len(good), 2)
    assert t["kept"] == len(kept) and t["kept"] + t["dropped"] == t["scored"]
    assert json.loads((out / "stats" / "adversarial_filter.json").read_text()) == stats


def test_runinference_agrees_with_training_heldout_evaluation(filtered):
    """RunInference with the fold's checkpoint drops exactly the queries the plain loop
    answered at training time (the fold's held-out accuracy)."""
    _, adv, _, stats = filtered
    for meta in load_adversary(str(adv)):
        per = stats["per_fold"][str(meta["fold"])]
        assert per["dropped"] == round(meta["heldout_accuracy"] * meta["heldout_n"])
        assert per["scored"] == meta["heldout_n"]
        assert per["in"] == per["scored"] + per["errors"]


def test_same_input_gives_same_predictions(filtered, tmp_path):
    good, adv, out, _ = filtered
    cands = tmp_path / "cands"
    cands.mkdir()
    pq.write_table(pa.Table.from_pylist(good, schema=CANDIDATE_SCHEMA), cands / "c.parquet")
    run_filter(cands, adv, tmp_path / "again", "--workers", "1", "--max_batch_size", "7")
    first = {r["id"]: r["adversary_prediction"] for r in read(out / "scored")
             if not r["id"].startswith("bad-")}
    again = {r["id"]: r["adversary_prediction"] for r in read(tmp_path / "again" / "scored")}
    assert first == again


def test_corrupt_fold_checkpoint_goes_to_errors_not_a_crash(adversary, tmp_path):
    cands, adv = adversary
    broken = tmp_path / "adversary"
    shutil.copytree(adv, broken)
    (broken / "fold-1" / "model.pt").write_bytes(b"not a checkpoint")
    stats = run_filter(cands, broken, tmp_path / "out", "--workers", "1")
    errors = read(tmp_path / "out" / "errors")
    assert stats["per_fold"]["1"]["errors"] == stats["per_fold"]["1"]["in"] > 0
    assert stats["per_fold"]["1"]["scored"] == 0
    assert {r["fold"] for r in errors} == {1}
    assert all(r["error"].startswith("inference failed: ") for r in errors)
    others = [f for f in ("0", "2", "3", "4") if stats["per_fold"][f]["in"]]
    assert all(stats["per_fold"][f]["scored"] == stats["per_fold"][f]["in"] for f in others)


def test_runinference_dead_letters_become_error_rows(adversary):
    """A batch RunInference itself fails on (here a value that is not an array) reaches
    with_exception_handling()'s dead letters and is written as error rows."""
    import apache_beam as beam
    from apache_beam.ml.inference.base import RunInference
    from apache_beam.testing.test_pipeline import TestPipeline as BeamTestPipeline
    from apache_beam.testing.util import assert_that, equal_to
    from transforms.machine_filtering.adversary import error_row, failed_batch_rows
    _, adv = adversary
    handler = fold_model_handler(str(adv), load_adversary(str(adv)), "CPU")
    with BeamTestPipeline() as p:
        _, dead = (p
                   | beam.Create([("fold0", ({"id": "q1", "fold": 0}, {"n_cand": "x"}))])
                   | RunInference(handler).with_exception_handling())
        rows = (dead.failed_inferences | beam.FlatMap(failed_batch_rows)
                | beam.Map(error_row))
        assert_that(rows, equal_to([{"id": "q1", "fold": 0, "error": (
            "inference failed: AttributeError(\"'str' object has no attribute 'nbytes'\")")}]))


def test_fold_model_handler_is_keyed_by_fold_and_batches_itself(adversary):
    _, adv = adversary
    metas = load_adversary(str(adv))
    h = fold_model_handler(str(adv), metas, "CPU", max_batch_size=32, min_batch_size=8,
                           max_models_per_worker_hint=3)
    assert h.batch_elements_kwargs() == {"min_batch_size": 8, "max_batch_size": 32}
    assert h._max_models_per_worker_hint == 3
    assert sorted(h._key_to_id_map) == [f"fold{i}" for i in range(5)]


def test_gpu_hints_sit_on_runinference_only(adversary):
    import apache_beam as beam
    from tests.test_train_folds import _transforms_with_hints
    cands, adv = adversary
    metas = load_adversary(str(adv))
    hints = {"accelerator": "type:nvidia-tesla-t4;count:1;install-nvidia-driver"}
    p = beam.Pipeline()
    cfg = FilterConfig(str(cands / "*.parquet"), str(adv), "unused")
    adversarial_filter.build_pipeline(p, cfg, metas, "GPU", hints)
    hinted = [name for name, _ in _transforms_with_hints(p)]
    assert hinted and all(n.startswith("AdversarialFilter/RunInference/") for n in hinted)
    assert any(n.startswith("AdversarialFilter/RunInference/BeamML_RunInference/")
               for n in hinted)
