"""Smoke test of the benchmark harness (benchmarks/): it measures and reports, on a tiny
input. No timing assertions: speed targets live in `python -m benchmarks.run`."""
import glob
import math

import pytest

from benchmarks import corpus, generation


@pytest.fixture(scope="module")
def three_stories(corpus_dir):
    files = sorted(glob.glob(str(corpus_dir / "cnn_stories" / "*.story")))[:3]
    assert len(files) == 3
    return files


def test_generation_benchmark_measures_a_ratio(three_stories, tmp_path, annotator):
    r = generation.measure_generation(three_stories, reps=1, workers=(1,), work_dir=tmp_path,
                                      nlp=annotator.nlp, calibrate=False, log=lambda m: None)
    assert r["articles"] == 3 and r["words"] > 0 and r["texts"] > 3
    (run,) = r["runs"]
    assert run["bare"]["docs"] == r["texts"]
    job = run["jobs"]["1"]
    assert job["annotated"] == 3, "the job annotated the articles the bare loop saw"
    for key in ("job_s", "process_s", "cpu_s", "peak_tree_rss_mb", "peak_proc_hwm_mb"):
        assert generation.is_positive_finite(job[key]), (key, job[key])
    s = r["summary"]
    assert s["all_annotated"]
    ratio = s["single_vs_ceiling"]
    assert isinstance(ratio, float) and math.isfinite(ratio) and ratio > 0
    assert "multi_vs_single" not in s


def test_replicated_corpus_has_fresh_ids_and_text_that_differs_per_copy(corpus_dir, tmp_path):
    """Copy 2 is copy 1 with fresh ids, URLs and one short last paragraph, so the job's
    duplicate-text and duplicate-URL steps keep every copy."""
    from transforms.curation.curate import text_key, url_key
    inputs = corpus.real_inputs(corpus_dir)
    one = corpus.clean_articles(corpus.read_articles(inputs))
    pattern = corpus.write_replicated(inputs, 2, tmp_path)
    two = corpus.clean_articles(corpus.read_articles([pattern]))
    assert len(two) == 2 * len(one)
    assert len({a.article_id for a in two}) == len(two)
    assert len({text_key(a) for a in two}) == len(two)
    assert len({url_key(a.url) for a in two if a.url}) == len([a for a in two if a.url])
    copies = [a for a in two if a.article_id.endswith("-r2")]
    assert all("Copy 2." in a.paragraphs for a in copies)
    originals = {a.article_id: a for a in one}
    for a in copies:   # one-paragraph articles get the marker last (their credit line stays)
        original = originals[a.article_id[:-len("-r2")]]
        kept = [t for t in a.paragraphs if t != "Copy 2."]
        if len(original.paragraphs) > 1:
            assert kept == list(original.paragraphs), a.article_id
        else:
            assert kept[0].startswith(original.paragraphs[0][:200]), a.article_id