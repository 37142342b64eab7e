"""adversarial_filter on the real-corpus candidates with the lexical adversary: RunInference
fed per-fold batches without a GroupByKey (TestPipeline: every candidate scored by its own
fold's reader, batches bounded), outputs and funnel, agreement with training's held-out
evaluation, determinism, and the failure policy (an unloadable fold model, errors above
--max_error_share, dead letters: nothing dropped silently)."""
import json
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import torch

from beam_pipelines import adversarial_filter
from models import reader_module
from models.batching import score_loop
from models.checkpoints import fold_dir, load_adversary, load_fold_model
from models.features import candidates
from models.handlers import fold_model_handler
from models.hardness import answer_is_most_frequent
from tests.machine_filtering.test_train_folds import (
    _transforms_with_hints,
    build_candidates,
    build_lexical_adversary,
)
from transforms.core.hashing import fold_of
from transforms.core.schema import CANDIDATE_SCHEMA, SCORED_SCHEMA
from transforms.core.stage import StageFailed
from transforms.machine_filtering.config import FilterSettings
from transforms.machine_filtering.decide import per_fold
from transforms.machine_filtering.scoring import (
    ERROR_SCHEMA,
    ScoreWithAdversary,
    assign_fold,
)


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
    """The filter with the k-fold readers alone (this file tests their RunInference path;
    tests/machine_filtering/test_aflite_filter.py tests AFLite and the default, both together)."""
    kind = () if "--adversary_kind" in extra else ("--adversary_kind", "kfold")
    return adversarial_filter.run(["--candidates", str(cands), "--adversary", str(adv),
                                   "--output", str(out), *kind, *extra])


@pytest.fixture(scope="module")
def mixed(adversary, tmp_path_factory):
    """The candidates plus two bad rows, as a folder with its manifest."""
    from transforms.core import manifest
    cands, adv = adversary
    folder = tmp_path_factory.mktemp("mixed")
    for f in cands.glob("*.parquet"):
        shutil.copy(f, folder / f.name)
    good = read(cands)
    pq.write_table(pa.Table.from_pylist(bad_rows(good[0]), schema=CANDIDATE_SCHEMA),
                   folder / "bad.parquet")
    manifest.write(str(folder))
    return folder, good


@pytest.fixture(scope="module")
def filtered(adversary, mixed, tmp_path_factory):
    """Filtered by the k-fold readers alone with 2 worker processes, allowing the two bad
    rows (0.5% of the input)."""
    folder, good = mixed
    _, adv = adversary
    out = tmp_path_factory.mktemp("filtered")
    stats = run_filter(folder, adv, out, "--workers", "2", "--max_error_share", "0.01")
    return good, adv, out, stats


def test_runinference_without_groupbykey_scores_each_query_with_its_fold_reader(adversary):
    """ScoreWithAdversary on TestPipeline: batches of one fold from GroupIntoBatches with a
    sharded key (no GroupByKey on the fold), at most max_batch_size queries each; every
    prediction equals the plain loop's with the query's own fold model."""
    import apache_beam as beam
    from apache_beam.testing.test_pipeline import TestPipeline
    from apache_beam.testing.util import assert_that, equal_to

    from transforms.core.accounting import SumCounts
    cands, adv = adversary
    rows = sorted(read(cands), key=lambda r: r["id"])[:150]
    metas = load_adversary(str(adv))
    expected = {}
    for m in metas:
        mine = [r for r in rows if fold_of(r["article_id"], 5) == m["fold"]]
        fz = reader_module("lexical").load_featurizer(fold_dir(str(adv), m["fold"]), m)
        scores = score_loop(load_fold_model(str(adv), m), [fz(r)[1] for r in mine])
        expected.update((r["id"], candidates(r)[int(torch.argmax(s))].text)
                        for r, s in zip(mine, scores))
    p = TestPipeline()
    scored, errors, counts = (p | beam.Create(rows) | beam.Map(assign_fold, 5)
                              | ScoreWithAdversary(str(adv), FilterSettings(max_batch_size=8),
                                                   metas, "CPU"))
    assert_that(scored | beam.Map(lambda r: (r["id"], r["adversary_prediction"])),
                equal_to(sorted(expected.items())), label="Predictions")
    assert_that(errors, equal_to([]), label="NoErrors")
    assert_that(counts | beam.CombineGlobally(SumCounts())
                | beam.Map(lambda c: 0 < c["adversary.max_group"] <= 8
                           and c["adversary.max_rows_in_memory"] == c["adversary.max_group"]),
                equal_to([True]), label="BatchesBounded")
    p.run().wait_until_finish()
    names = [t.unique_name for t in p.to_runner_api().components.transforms.values()]
    assert any(n.startswith("AdversarialFilter/BatchByFold") or "/BatchByFold" in n
               for n in names)
    assert not any("GroupByFold" in n for n in names)


def test_every_candidate_is_scored_or_errored_and_counted(filtered):
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
    rejected_rows = read(out / "rejected")
    rejected = {r["record_id"]: r["reason"] for r in rejected_rows if r["stage"] == "adversary"}
    released_out = {r["record_id"]: r for r in rejected_rows if r["stage"] == "release"}
    balanced_out = {r["record_id"]: r for r in rejected_rows if r["stage"] == "balance"}
    left = [r for r in scored if r["id"] not in rejected]      # what the adversary left
    assert sorted(r["id"] for r in kept) == sorted(
        r["id"] for r in left if r["id"] not in released_out and r["id"] not in balanced_out)
    for r in scored:           # the adversary drops exactly what it answered
        assert (rejected.get(r["id"]) == "answered_by_adversary") == r["adversary_correct"]
    assert sum(r["adversary_correct"] for r in left) == stats["summary"]["readmitted"]
    # the drop sampler runs last, on what the release rules kept, and drops only those
    assert not set(balanced_out) & set(released_out) and not set(balanced_out) & set(rejected)
    assert {r["reason"] for r in balanced_out.values()} <= {"dropped_for_balance"}
    assert all(r["detail"].startswith("stratum ") for r in balanced_out.values())
    balance = stats["stages"]["balance"]
    assert balance["in"] == stats["stages"]["release"]["out"] == len(left) - len(released_out)
    assert balance["out"] == len(kept) and balance["rejected"] == len(balanced_out)
    # the release rules: every rejection has its reason and a detail, counted by reason
    assert {r["reason"] for r in released_out.values()} <= {
        "answer_in_query", "copied_context", "only_compatible_entity", "article_agreement",
        "shared_role_word", "restates_passage", "sibling_query", "list_line",
        "restates_words", "neighbour_word", "capital_rival", "incomplete_answers", "only_entity_of_label",
        "answer_form", "place_rival", "coordinated_rival", "publisher_answer", "only_country",
        "only_of_kind", "only_real_person", "dateline_answer"}
    assert all(r["detail"] for r in released_out.values()) and released_out
    release = stats["stages"]["release"]
    assert release["in"] == stats["stages"]["adversary"]["out"] == len(left)
    assert release["rejected"] == len(released_out)
    assert sum(release["reasons"].values()) == len(released_out)
    sentences = {r["id"].rsplit("-", 1)[0] for r in kept}
    assert len(sentences) == len(kept)          # one released query per source sentence
    for r in scored:
        assert r["adversary_prediction"] in {c.text for c in candidates(r)}
        assert r["adversary_correct"] == (
            r["adversary_prediction"] in {a["text"] for a in r["answers"]})
        assert r["fold"] == fold_of(r["article_id"], 5)
    t = stats["summary"]
    assert (t["in"], t["scored"], t["errors"]) == (len(good) + 2, len(good), 2)
    assert t["kept"] == len(kept) and t["adversary_kept"] + t["dropped"] == t["scored"]
    assert t["release_kept"] + t["release_rejected"] == t["adversary_kept"]
    assert t["kept"] + t["dropped_for_balance"] == t["release_kept"]
    assert 0 < t["max_group"]["batch"] <= 64 and t["max_rows_in_memory"] <= 64
    assert stats["gaps"] == []
    reasons = dict(stats["stages"]["adversary"]["reasons"])
    assert reasons == {"answered_by_adversary": t["dropped"], "scoring_error": 2}
    assert balance["reasons"] == ({"dropped_for_balance": t["dropped_for_balance"]}
                                  if t["dropped_for_balance"] else {})
    shares = t["most_frequent_share"]        # the drop sampler's window (0.27-0.43)
    assert 0.27 <= shares["kept"] <= 0.43 and shares["dropped"] is not None
    mf = sum(map(answer_is_most_frequent, kept))  # measured on kept/ itself: by construction
    assert shares["kept"] == round(mf / len(kept), 4)
    assert t["readmitted"] == t["kept_answered"] == 0     # it never keeps an answered query
    assert json.loads((out / "stats" / "adversarial_filter.json").read_text()) == stats
    for folder in ("scored", "kept", "errors", "rejected", "stats"):
        assert (out / folder / "_MANIFEST.json").exists()


def test_runinference_agrees_with_training_heldout_evaluation(filtered):
    """RunInference with the fold's checkpoint drops exactly the queries the training-time
    evaluation answered (the fold's held-out accuracy)."""
    _, adv, _, stats = filtered
    folds = per_fold(stats)
    for meta in load_adversary(str(adv)):
        per = folds[meta["fold"]]
        assert per["answered"] == round(meta["heldout_accuracy"] * meta["heldout_n"])
        assert per["scored"] == meta["heldout_n"]
        assert per["in"] == per["scored"] + per["errors"]


def test_same_input_gives_same_predictions_whatever_the_batches(adversary, filtered, tmp_path):
    cands, adv = adversary
    _, _, out, _ = filtered
    run_filter(cands, adv, tmp_path / "again", "--workers", "1", "--max_batch_size", "7")
    first = {r["id"]: r["adversary_prediction"] for r in read(out / "scored")
             if not r["id"].startswith("bad-")}
    again = {r["id"]: r["adversary_prediction"] for r in read(tmp_path / "again" / "scored")}
    assert first == again
    stats = json.loads((tmp_path / "again" / "stats" / "adversarial_filter.json").read_text())
    assert stats["summary"]["max_group"]["batch"] <= 7


def test_errors_above_max_error_share_fail_the_stage_naming_the_first(adversary, mixed,
                                                                      tmp_path):
    folder, good = mixed
    _, adv = adversary
    with pytest.raises(StageFailed) as err:
        run_filter(folder, adv, tmp_path / "out", "--workers", "1")
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"adversarial_filter: 2 of {len(good) + 2} candidates failed")
    assert "> max_error_share 0.0" in message
    assert "first: bad-no-entities: no candidate entities in passage" in message
    # written for inspection, but no manifest: no later stage takes it as finished
    assert len(read(tmp_path / "out" / "errors")) == 2
    assert not list((tmp_path / "out").glob("*/_MANIFEST.json"))


def test_an_unloadable_fold_model_fails_before_anything_is_written(adversary, tmp_path):
    cands, adv = adversary
    broken = tmp_path / "adversary"
    shutil.copytree(adv, broken)
    (broken / "fold-1" / "model.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(StageFailed) as err:
        run_filter(cands, broken, tmp_path / "out", "--workers", "1")
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"adversarial_filter: fold 1 model {broken}/fold-1/model.pt "
                              "cannot be loaded (")
    assert message.endswith("rerun train_folds")
    assert not (tmp_path / "out").exists()
    (broken / "fold-3" / "metadata.json").write_text("{truncated")
    with pytest.raises(StageFailed, match=r"adversary .* is incomplete or damaged "
                                          r"\(ValueError: .*fold-3/metadata.json is not "
                                          r"valid JSON"):
        run_filter(cands, broken, tmp_path / "out", "--workers", "1")
    assert not (tmp_path / "out").exists()


def test_a_fold_model_lost_after_the_check_sends_its_queries_to_errors(adversary, tmp_path):
    """Defence in depth: a checkpoint that breaks once the stage has started (the workers
    load it themselves) fails only its fold's queries, each an error row with the reason."""
    import apache_beam as beam
    from apache_beam.testing.test_pipeline import TestPipeline
    from apache_beam.testing.util import assert_that, equal_to
    cands, adv = adversary
    broken = tmp_path / "adversary"
    shutil.copytree(adv, broken)
    (broken / "fold-1" / "model.pt").write_bytes(b"not a checkpoint")
    rows = sorted(read(cands), key=lambda r: r["id"])[:80]
    metas = load_adversary(str(broken))
    fold1 = sorted(r["id"] for r in rows if fold_of(r["article_id"], 5) == 1)
    assert fold1
    with TestPipeline() as p:
        scored, errors, _ = (p | beam.Create(rows) | beam.Map(assign_fold, 5)
                             | ScoreWithAdversary(str(broken), FilterSettings(), metas, "CPU"))
        assert_that(errors | beam.Map(lambda e: (e["id"], e["fold"], e["error"].startswith(
            "inference failed: ") and "fold-1/model.pt failed to load" in e["error"])),
            equal_to([(i, 1, True) for i in fold1]), label="Fold1Errors")
        assert_that(scored | beam.Map(lambda r: (r["adversary_correct"] is None,
                                                 r["fold"] == 1)) | beam.combiners.Count.PerElement()
                    | beam.Filter(lambda kv: kv[0][0] != kv[0][1]), equal_to([]),
                    label="OnlyFold1Unscored")


def test_runinference_dead_letters_become_error_rows(adversary):
    """A batch RunInference itself fails on (here a value that is not an array) reaches
    with_exception_handling()'s dead letters and is written as error rows."""
    import apache_beam as beam
    from apache_beam.ml.inference.base import RunInference
    from apache_beam.testing.test_pipeline import TestPipeline
    from apache_beam.testing.util import assert_that, equal_to

    from transforms.machine_filtering.scoring import error_row, failed_batch_rows
    _, adv = adversary
    handler = fold_model_handler(str(adv), load_adversary(str(adv)), "CPU", prebatched=True)
    with TestPipeline() as p:
        _, dead = (p
                   | beam.Create([[("fold0", ({"id": "q1", "fold": 0}, {"n_cand": "x"}))]])
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
    assert h._max_models_per_worker_hint == 3 and not h.should_skip_batching()
    assert sorted(h._key_to_id_map) == [f"fold{i}" for i in range(5)]
    assert fold_model_handler(str(adv), metas, "CPU", prebatched=True).should_skip_batching()


def test_gpu_hints_sit_on_runinference_only(adversary):
    import apache_beam as beam

    from transforms.machine_filtering import filter_stage
    from transforms.machine_filtering.config import FilterConfig, FilterPaths
    cands, adv = adversary
    metas = load_adversary(str(adv))
    hints = {"accelerator": "type:nvidia-tesla-t4;count:1;install-nvidia-driver"}
    p = beam.Pipeline()
    cfg = FilterConfig(FilterPaths(str(cands), str(adv), "unused"))
    filter_stage.graph(p, cfg, metas, "GPU", hints)
    hinted = [name for name, _ in _transforms_with_hints(p)]
    assert hinted and all(n.startswith("AdversarialFilter/RunInference/") for n in hinted)
    assert any(n.startswith("AdversarialFilter/RunInference/BeamML_RunInference/")
               for n in hinted)
