"""Build cost: the in-process choice for small local runs, and the profiling harness's
bookkeeping (benchmarks/build_cost.py, build_probe.py). Timings live in benchmarks/, never
here."""
import pytest

from transforms.core import stage


@pytest.mark.fast
def test_small_local_inputs_run_in_process_and_workers_flag_wins():
    workers, why = stage.auto_workers("generate", 28, None)
    assert workers == 1 and "in-process" in why and "--workers" in why
    assert stage.auto_workers("generate", 270, None) == (None, None)
    assert stage.auto_workers("generate", None, 2) == (2, None)          # size unknown
    # the model changes the cost per row: transformer folds always get their workers
    assert stage.auto_workers("train_folds", 498, 2, "lexical")[0] == 1
    assert stage.auto_workers("train_folds", 498, 2, "transformer") == (2, None)
    assert stage.auto_workers("adversarial_filter", 498, None, "transformer") == (None, None)
    assert stage.auto_workers("finalize", 140, None)[0] == 1
    assert stage.auto_workers("no_such_stage", 1, None) == (None, None)


@pytest.mark.fast
def test_in_process_threshold_only_for_local_runners():
    assert stage.is_local(()) and stage.is_local(("--runner=DirectRunner",))
    assert not stage.is_local(("--runner=DataflowRunner",))
    opts = stage.pipeline_options((), 1).get_all_options()
    assert opts["direct_running_mode"] == "in_memory" and opts["direct_num_workers"] == 1


@pytest.mark.fast
def test_profile_steps_are_grouped_by_stage_and_name():
    from benchmarks.build_cost import group_steps, step_of
    assert step_of("generate", "CurateArticles/AnnotateEntities/ParDo(AnnotateFn)") == "annotate"
    assert step_of("generate", "CurateArticles/Clean") == "clean"
    assert step_of("generate", "ReadArticles/ParseParts") == "read"
    assert step_of("train_folds", "TrainFolds/TrainFold") == "train"
    assert step_of("adversarial_filter", "AdversarialFilter/RunInference/BeamML_RunInference") \
        == "score"
    assert step_of("finalize", "Hardness/ScoreReader/RunInference") == "hardness_reader"
    assert step_of("finalize", "WriteExports/WritePart") == "exports"
    assert step_of("finalize", "Something/Else") == "other"
    assert group_steps("finalize", {"Table1/A": 1500, "Table1/B": 500}) == {"table1": 2.0}


@pytest.mark.fast
def test_probe_reads_beam_varint_payloads():
    from benchmarks.build_probe import _varint
    assert _varint(b"\x00") == 0 and _varint(b"\x03") == 3
    assert _varint(b"\xc4\x18") == 0x44 + (0x18 << 7)
