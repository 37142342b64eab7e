"""The stage status line (transforms/core/progress.py) counts what a real pipeline did."""
import io
import logging

import apache_beam as beam
from apache_beam.options.pipeline_options import PipelineOptions
import pytest

from transforms.core.accounting import StepFn, accounted
from transforms.core.progress import Display, log

pytestmark = pytest.mark.fast   # unit tests: `python -m pytest -q -m fast`


class KeepEven(StepFn):
    step = "even"

    def apply(self, n):
        if n % 2 == 0:
            yield n


def _run(display):
    with display:
        with beam.Pipeline(options=PipelineOptions(["--runner", "DirectRunner"])) as p:
            accounted(p | beam.Create(range(50)), "Even", KeepEven())


def test_off_a_terminal_one_summary_line_with_the_real_counts():
    # the default logging level (WARNING) must not hide the workers' records
    level = log.level
    stream = io.StringIO()
    _run(Display("demo", ("even", "numbers", 50), {"even": "kept"}, stream=stream, tty=False))
    line = stream.getvalue()
    assert line.count("\n") == 1
    assert line.startswith("demo: 50 numbers of 50, kept 25 in "), line
    assert log.level == level            # the logger is left as it was found


def test_progress_records_are_never_printed_as_log_lines(caplog):
    stream = io.StringIO()
    with caplog.at_level(logging.INFO):
        _run(Display("demo", ("even", "numbers", 50), stream=stream, tty=False))
    assert "@progress" not in caplog.text
    assert stream.getvalue().startswith("demo: 50 numbers of 50 in ")
