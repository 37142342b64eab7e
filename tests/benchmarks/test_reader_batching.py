"""benchmarks/reader_batching.py's pure parts: how passages are cut into encode calls, and
how two ways of scoring are compared (no timing: benchmarks are not timed tests)."""
import numpy as np
import pytest

from benchmarks.reader_batching import chunked, compare


@pytest.mark.fast
def test_chunks_cover_every_passage_once_in_order():
    groups = list(range(19))
    assert chunked(groups, 1) == [[g] for g in groups]
    assert [len(c) for c in chunked(groups, 8)] == [8, 8, 3]
    shifted = chunked(groups, 8, 4)
    assert [len(c) for c in shifted] == [4, 8, 7]          # other batch mates than above
    for chunks in (chunked(groups, 8), shifted):
        assert [g for c in chunks for g in c] == groups
    assert chunked([], 8) == []


@pytest.mark.fast
def test_compare_counts_changed_predictions_and_the_largest_score_gap():
    base = (["a", "b", None], [np.array([0.5, 0.2]), np.array([0.1]), None])
    same = (["a", "b", None], [np.array([0.5, 0.2]), np.array([0.1]), None])
    other = (["a", "c", None], [np.array([0.5, 0.25]), np.array([0.1]), None])
    assert compare(base, same) == {"changed_predictions": 0, "max_abs_score_diff": 0.0}
    got = compare(base, other)
    assert got["changed_predictions"] == 1
    assert got["max_abs_score_diff"] == pytest.approx(0.05)
