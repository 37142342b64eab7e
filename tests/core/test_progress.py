"""The stage status line (transforms/core/progress.py) counts what a real pipeline did."""
import io
import logging

import apache_beam as beam
import pytest
from apache_beam.options.pipeline_options import PipelineOptions

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


def test_ticker_logs_the_first_step_then_every_interval_and_the_last(caplog):
    """Inside one long element (a fold's training): steps done of the total, the rate and the
    time left, at the first step, at most every `every_s` seconds, and at the end."""
    from transforms.core.progress import Ticker
    now = [0.0]
    ticker = Ticker("fold 1/5", 10, every_s=10.0, now=lambda: now[0])
    lines = []
    with caplog.at_level(logging.INFO, logger="progress"):
        for step in range(1, 11):
            now[0] += 4.0                                  # 4 s and 8 examples per step
            lines.append(ticker.update(step, 8, lambda: "loss 1.0"))
    logged = [line for line in lines if line]
    assert [lines.index(x) + 1 for x in logged] == [1, 4, 7, 10]
    assert logged[0] == ("fold 1/5: step 1/10 (10%), 2.0 examples/s, 0m04s elapsed, "
                         "0m36s left, loss 1.0")
    assert logged[-1].startswith("fold 1/5: step 10/10 (100%), 2.0 examples/s, 0m40s elapsed, "
                                 "0m00s left")
    assert [r.getMessage() for r in caplog.records] == logged


def test_an_estimated_total_that_missed_is_not_printed_as_the_total():
    # a JSON-lines file over 1 MB gets its total scaled from its first MB: 381 records
    # read against 373 expected must not read "381 records of 373"
    stream = io.StringIO()
    _run(Display("demo", ("even", "numbers", 47), stream=stream, tty=False))
    assert stream.getvalue().startswith("demo: 50 numbers (about 47 expected) in "), \
        stream.getvalue()
