"""The hardness report's 95% intervals (transforms/finalize/report/bootstrap.py): the Poisson
bootstrap against the textbook interval of a proportion, its determinism, and the same
result from a Beam combine with any bundling as from one pass."""
import math

import apache_beam as beam
import pytest
from apache_beam.testing.test_pipeline import TestPipeline as BeamPipeline
from apache_beam.testing.util import assert_that, equal_to

from transforms.finalize.report import bootstrap


def _hits(n, every):
    return {f"q{i:05d}": (float(i % every == 0),) for i in range(n)}


@pytest.mark.fast
@pytest.mark.parametrize("n,every", [(400, 4), (1000, 2), (120, 3)])
def test_interval_of_a_proportion_matches_the_normal_approximation(n, every):
    got = bootstrap.interval(_hits(n, every))
    p = sum(1 for i in range(n) if i % every == 0) / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    (lo, hi), = got["ci"]
    assert got["n"] == n and got["mean"] == [round(p, 4)]
    assert abs(lo - (p - half)) < 0.25 * half and abs(hi - (p + half)) < 0.25 * half


@pytest.mark.fast
def test_weights_are_fixed_by_the_query_id_and_the_interval_by_the_data():
    assert (bootstrap.weights("q1") == bootstrap.weights("q1")).all()
    assert (bootstrap.weights("q1") != bootstrap.weights("q2")).any()
    assert bootstrap.weights("q1").mean() == pytest.approx(1.0, abs=0.1)
    data = _hits(200, 3)
    assert bootstrap.interval(data) == bootstrap.interval(dict(reversed(list(data.items()))))
    one = bootstrap.interval({"a": (1.0,)})
    assert one["ci"] == [[1.0, 1.0]] and bootstrap.interval({})["n"] == 0
    assert not bootstrap.readable(29) and bootstrap.readable(30)


def test_the_beam_combine_equals_the_single_pass_whatever_the_bundles():
    data = {f"q{i:04d}": (float(i % 3 == 0), (i % 7) / 7) for i in range(300)}
    want = bootstrap.interval(data)
    items = [("cell", (q, v)) for q, v in sorted(data.items())]
    with BeamPipeline() as p:
        a = (p | "A" >> beam.Create(items[:137]))
        b = (p | "B" >> beam.Create(items[137:][::-1]))
        got = ((a, b) | beam.Flatten() | beam.Reshuffle()
               | beam.CombinePerKey(bootstrap.BootstrapMean()))
        assert_that(got, equal_to([("cell", want)]))
