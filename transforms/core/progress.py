"""Progress inside a stage: workers report, the command shows it.

Workers: every accounted step (`StepFn`) sends its running `in`/`out` counts as a log record
`@progress <step> <in> <out>` at most every `EVERY_S` seconds per DoFn instance. Local
runners forward worker logs to the launching process (multi-process) or log in it
(in-process); on Dataflow they land in the job's logs.

Command: `Display` picks those records out of the logging stream (they are never printed
as log lines), adds them up per step, and shows one status line: on a terminal a tqdm line
refreshed at least every 10 s with rate and ETA against the pre-flight's total; elsewhere
(CI, a pipe) one summary line when the stage ends.

Inside one long element (a fold's training): `Ticker` logs a plain INFO line at the first
step, then at most every `TICK_S` seconds, and at the last: done of total, rate, time left.
"""
import logging
import re
import sys
import threading
import time
from typing import Optional

EVERY_S = 2.0
TICK_S = 10.0
MARK = "@progress"
_RECORD = re.compile(r"@progress (\S+) (\d+) (\d+)")
log = logging.getLogger("progress")


class Reporter:
    """Worker side: rate-limited running counts of one step."""

    def __init__(self, step: str):
        self.step = step
        self.n_in = self.n_out = 0
        self._last = time.monotonic()

    def add(self, n_in: int, n_out: int, force: bool = False):
        self.n_in += n_in
        self.n_out += n_out
        now = time.monotonic()
        if (force or now - self._last >= EVERY_S) and (self.n_in or self.n_out):
            log.info("%s %s %d %d", MARK, self.step, self.n_in, self.n_out)
            self.n_in = self.n_out = 0
            self._last = now


class _Catch(logging.Filter):
    """Takes @progress records out of the stream and hands them to the display."""

    def __init__(self, display):
        super().__init__()
        self.display = display

    def filter(self, record):
        try:
            text = record.getMessage()
        except Exception:  # noqa: BLE001 - a malformed record is not ours
            return True
        if MARK not in text:
            return True
        found = _RECORD.search(text.replace('\\"', '"'))
        if found:
            self.display.add(found.group(1), int(found.group(2)), int(found.group(3)))
        return False


class Display:
    """Command side: one status line for a stage (see the module docstring).

    `lead`: (step, unit, total) of the step the line follows; `shown`: other steps
    ({step: label}) shown with their `out` counts."""

    def __init__(self, stage: str, lead: tuple, shown: Optional[dict] = None,
                 stream=None, tty: Optional[bool] = None, every_s: float = 10.0):
        self.stage, self.lead, self.shown = stage, lead, shown or {}
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.every_s = every_s
        self.counts = {}
        self.started = time.monotonic()
        self._lock = threading.Lock()
        self._bar = None
        self._filter = _Catch(self)
        self._stop = threading.Event()
        self._thread = None

    # -- input
    def add(self, step, n_in, n_out):
        with self._lock:
            c = self.counts.setdefault(step, [0, 0])
            c[0] += n_in
            c[1] += n_out

    # -- lifecycle
    def __enter__(self):
        # in-process runners log the workers' records here: make sure they are made at all
        self._level = log.level
        if not log.isEnabledFor(logging.INFO):
            log.setLevel(logging.INFO)
        log.addFilter(self._filter)
        for name in ("", "apache_beam.runners.portability.local_job_service",
                     "apache_beam.runners.worker.sdk_worker"):
            logging.getLogger(name).addFilter(self._filter)
        for handler in logging.getLogger().handlers:
            handler.addFilter(self._filter)
        if self.tty:
            from tqdm import tqdm
            step, unit, total = self.lead
            self._bar = tqdm(total=total, unit=f" {unit}", desc=self.stage, file=self.stream,
                             dynamic_ncols=True, mininterval=1.0, leave=True)
            self._thread = threading.Thread(target=self._refresh, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=2)
        log.removeFilter(self._filter)
        log.setLevel(self._level)
        for name in ("", "apache_beam.runners.portability.local_job_service",
                     "apache_beam.runners.worker.sdk_worker"):
            logging.getLogger(name).removeFilter(self._filter)
        for handler in logging.getLogger().handlers:
            handler.removeFilter(self._filter)
        if self._bar is not None:
            self._update_bar()
            self._bar.close()
        elif exc[0] is None:
            print(self.summary(), file=self.stream, flush=True)
        return False

    # -- rendering
    def _refresh(self):
        while not self._stop.wait(min(self.every_s, 1.0)):
            self._update_bar()

    def _update_bar(self):
        step, _, _ = self.lead
        with self._lock:
            done = self.counts.get(step, [0, 0])[0]
            extra = {label: self.counts.get(s, [0, 0])[1] for s, label in self.shown.items()}
        bar = self._bar
        bar.n = done
        bar.set_postfix_str(", ".join(f"{label} {n:,}" for label, n in extra.items()),
                            refresh=False)
        bar.refresh()

    def summary(self) -> str:
        step, unit, total = self.lead
        elapsed = time.monotonic() - self.started
        done = self.counts.get(step, [0, 0])[0]
        # a total read from the first MB of a big file is an estimate: say so when it missed
        of = (f" of {total:,}" if done == total else f" (about {total:,} expected)") \
            if total else ""
        parts = [f"{self.stage}: {done:,} {unit}" + of]
        parts += [f"{label} {self.counts.get(s, [0, 0])[1]:,}" for s, label in self.shown.items()]
        rate = done / elapsed if elapsed > 0 else 0.0
        return ", ".join(parts) + f" in {elapsed:.1f} s ({rate:.1f} {unit}/s)"


def clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}h{s % 3600 // 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"


class Ticker:
    """Progress inside one long unit of work as log lines (see the module docstring):
    `update(done, items)` after each step; `items` (examples) give the rate."""

    def __init__(self, label: str, total: int, unit: str = "steps", items: str = "examples",
                 every_s: float = TICK_S, logger: Optional[logging.Logger] = None,
                 now=time.monotonic):
        self.label, self.total, self.unit, self.items = label, total, unit, items
        self.every_s, self.log, self.now = every_s, logger or log, now
        self.started = self.last = now()
        self.n_items = 0

    def update(self, done: int, items: int = 0, extra=None) -> Optional[str]:
        """Count one step; returns the line when one was logged. `extra`: a callable giving
        more text, called only when a line is logged (say a loss that needs a device sync)."""
        self.n_items += items
        t = self.now()
        if not (done == 1 or done >= self.total or t - self.last >= self.every_s):
            return None
        self.last, elapsed = t, max(t - self.started, 1e-9)
        left = (self.total - done) * elapsed / done if done else 0.0
        line = (f"{self.label}: {self.unit[:-1] if self.unit.endswith('s') else self.unit} "
                f"{done}/{self.total} ({100 * done / max(self.total, 1):.0f}%), "
                f"{self.n_items / elapsed:.1f} {self.items}/s, "
                f"{clock(elapsed)} elapsed, {clock(left)} left" + (f", {extra()}" if extra else ""))
        self.log.info("%s", line)
        return line
