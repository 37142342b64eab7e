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
    assert stage.auto_workers("finalize", 681, None) == (None, None)      # 8x: workers win
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


def _real_articles(corpus_dir, n=20):
    from benchmarks import corpus
    from transforms.curation.clean import CleanConfig, clean_article
    arts = corpus.read_articles([str(corpus_dir / "cnndm_test250.jsonl")])[:n]
    return [a for a in (clean_article(a, CleanConfig()) for a in arts) if not isinstance(a, dict)]


def test_text_keys_merge_only_articles_with_the_same_words(corpus_dir):
    """generate's distinct_text groups hold true duplicates: a changed word, figure or
    paragraph gives another key; only case, punctuation and spacing are normalised away."""
    from transforms.curation.curate import text_key
    arts = _real_articles(corpus_dir)
    assert len({text_key(a) for a in arts}) == len(arts)
    a = arts[0]
    body = list(a.paragraphs)
    first = body[0].split()
    same = [a.with_(article_id="x", paragraphs=tuple(p.upper() for p in body)),
            a.with_(article_id="y", paragraphs=tuple("  " + p.replace(",", "") for p in body))]
    assert all(text_key(s) == text_key(a) for s in same)
    changed = [a.with_(paragraphs=(" ".join(first[:-1] + ["different"]),) + tuple(body[1:])),
               a.with_(paragraphs=(body[0] + " 1",) + tuple(body[1:])),
               a.with_(paragraphs=tuple(body) + ("One more paragraph of news.",))]
    assert len({text_key(c) for c in changed} | {text_key(a)}) == 4


def test_benchmark_replicas_stay_distinct_after_cleaning(corpus_dir, tmp_path):
    """The replicated corpus of the scale benchmarks: every copy survives cleaning with its
    own text key (if cleaning dropped the copy marker, copies would merge, as the issue saw)."""
    from benchmarks import corpus
    from transforms.curation.curate import text_key
    pattern = corpus.write_replicated([str(corpus_dir / "cnndm_test250.jsonl")], 3, tmp_path)
    arts = corpus.clean_articles(corpus.read_articles([pattern]))
    assert len(arts) == 3 * len(_real_articles(corpus_dir, 250))
    assert len({text_key(a) for a in arts}) == len(arts)


@pytest.mark.fast
def test_projection_scales_with_the_measured_rates_and_caps_the_reader():
    from benchmarks import projection as P
    rates = {"generate": 100.0, "train_folds": 40.0, "adversarial_filter": 10.0,
             "finalize": 150.0, "_run": "4", "_reader_share": 0.8}
    one, two = P.project(rates, 170_000), P.project(rates, 340_000)
    assert one["candidates"] == 756_500
    assert one["cpu_hours"]["generate"] == pytest.approx(100 * 170 / 3600, abs=0.01)
    assert two["cpu_hours"]["generate"] == pytest.approx(2 * one["cpu_hours"]["generate"], 0.01)
    # the reader is capped: finalize grows with the non-reader work only
    fin = lambda r: r["cpu_hours"]["finalize"] - P.READER_CAP_CANDIDATES * P.READER_TEXTS \
        * P.READER_S_PER_TEXT / 3600  # noqa: E731
    assert fin(two) == pytest.approx(2 * fin(one), 0.01)
    assert one["lexical"]["cost_usd"] < one["transformer_t4"]["fast"]["cost_usd"] \
        < one["transformer_cpu"]["cost_usd"]
