"""Human-validation verdicts (paper section 3.4) joined to the kept queries by id.

Verdicts are read as a PCollection (`validated/*.parquet` with `id` and `valid_for`, or
`validated.jsonl`) and joined by key (CoGroupByKey): never embedded in the graph, so the
job graph stays the same size whatever the number of verdicts. A call holds one query id
with its verdicts.

| valid_for | may land in     | otherwise                                  |
|-----------|-----------------|--------------------------------------------|
| dev_test  | train, dev, test|                                            |
| train     | train           | `not_validated_for_dev|test` (split step)  |
| none      | nowhere         | rejected `failed_human_validation`         |
| (missing) | nowhere         | rejected `not_human_validated`             |

Verdicts with another value, or an id with two different verdicts, are counted
(`invalid_verdicts`, `conflicting_verdicts`) and fail the stage; kept queries with no
verdict fail it too unless `partial_validation` (counted inside the pipeline).
"""
import json
from typing import Optional

import apache_beam as beam

from transforms.core import io_utils
from transforms.core.accounting import Count, RuleStep, StepFn, Uncounted, accounted
from transforms.finalize.row_rules import VALIDATION_RULES, Verdicts
from transforms.finalize.splits.keyed import join
from transforms.finalize.splits.rules import VALID_FOR

STEP = "human_validation"
COLUMNS = ("id", "valid_for")


def verdict_source(path: str, listing: bool = True) -> tuple:
    """("parquet" | "jsonl", pattern) of a verdict folder or file. A folder holds
    `*.parquet`, `validated/*.parquet` or `validated.jsonl`; `listing=False` (dry runs,
    where the folder does not exist yet) takes the contract's `*.parquet`."""
    if path.endswith(".jsonl"):
        return "jsonl", path
    if path.endswith(".parquet"):
        return "parquet", path
    if listing:
        for pattern in (io_utils.join(path, "*.parquet"),
                        io_utils.join(path, "validated", "*.parquet")):
            if io_utils.glob(pattern):
                return "parquet", pattern
        jsonl = io_utils.join(path, "validated.jsonl")
        if io_utils.glob(jsonl):
            return "jsonl", jsonl
    return "parquet", io_utils.join(path, "*.parquet")


def check_source(path: str) -> tuple:
    """The verdict source after checking it exists and (Parquet) has both columns, from
    the files' footers only; raises FileNotFoundError / ValueError with one line."""
    import fsspec
    import pyarrow.parquet as pq
    kind, pattern = verdict_source(path)
    files = io_utils.glob(pattern)
    if not files:
        raise FileNotFoundError(f"--validated {path}: no *.parquet, validated/*.parquet or "
                                "validated.jsonl there")
    if kind == "parquet":
        for file in files:
            with fsspec.open(file, "rb") as f:
                names = pq.read_schema(f).names
            missing = sorted(set(COLUMNS) - set(names))
            if missing:
                raise ValueError(f"{file}: missing column(s) {missing}; has {names}")
    return kind, pattern


def parse_line(line: str) -> Optional[tuple]:
    """(id, valid_for) of one validated.jsonl line; None for a blank line; raises
    ValueError for anything else that is not a verdict."""
    if not line.strip():
        return None
    obj = json.loads(line)
    if not isinstance(obj, dict) or "id" not in obj or "valid_for" not in obj:
        raise ValueError("needs keys 'id' and 'valid_for'")
    return obj["id"], obj["valid_for"]


class CheckVerdictFn(StepFn):
    """A raw verdict (a Parquet row or a jsonl line) -> (id, valid_for); anything else is
    counted as `invalid_verdicts` (the stage then fails)."""
    step = STEP

    def __init__(self, kind: str):
        self.kind = kind

    def units(self, element) -> int:
        return 0

    def apply(self, element):
        try:
            if self.kind == "jsonl":
                pair = parse_line(element)
                if pair is None:
                    return
            else:
                pair = (element["id"], element["valid_for"])
        except ValueError:
            yield Count(STEP, "invalid_verdicts", 1)
            return
        qid, valid_for = pair
        if not isinstance(qid, str) or not qid or valid_for not in VALID_FOR:
            yield Count(STEP, "invalid_verdicts", 1)
            return
        yield Count(STEP, "verdicts", 1)
        yield Uncounted((qid, valid_for))


class ReadVerdicts(beam.PTransform):
    """{"main": (query id, valid_for), "counts": ...} from a verdict source."""

    def __init__(self, kind: str, pattern: str):
        super().__init__()
        self.kind, self.pattern = kind, pattern

    def expand(self, p):
        if self.kind == "jsonl":
            raw = p | "ReadVerdictLines" >> beam.io.ReadFromText(self.pattern, validate=False)
        else:
            raw = p | "ReadVerdictRows" >> beam.io.ReadFromParquet(
                self.pattern, columns=list(COLUMNS), validate=False)
        return accounted(raw, "CheckVerdicts", CheckVerdictFn(self.kind))


class ApplyVerdictFn(RuleStep):
    """(id, {rows, verdicts}) -> each row tagged `_valid_for`, or rejected
    (row_rules.VALIDATION_RULES)."""
    step, rules = STEP, VALIDATION_RULES

    def units(self, item) -> int:
        return 0

    def apply(self, item):
        _, parts = item
        rows, verdicts = list(parts["rows"]), list(parts["verdicts"])
        yield Count(STEP, "max_group", len(rows) + len(verdicts))
        if not rows:
            yield Count(STEP, "verdicts_without_query", 1)
            return
        yield Count(STEP, "in", len(rows))
        values = sorted(set(verdicts))
        if len(values) > 1:
            yield Count(STEP, "conflicting_verdicts", 1)
        context = Verdicts(tuple(values))
        for row in rows:
            why = self.verdict(row, context)
            if why is not None:
                yield self.rejected(why, row)
            else:
                yield Count(STEP, f"valid_for_{values[0]}", 1)
                yield dict(row, _valid_for=values[0])


class AllDevTestFn(StepFn):
    """Without verdicts every query counts as valid for dev/test (and so for train)."""
    step = STEP

    def apply(self, row):
        yield dict(row, _valid_for="dev_test")


class ApplyHumanValidation(beam.PTransform):
    """Rows -> {"main": rows with `_valid_for`, "rejected", "counts"} (module docstring).
    `source`: (kind, pattern) of the verdicts, or None when there are none."""

    def __init__(self, source: Optional[tuple]):
        super().__init__()
        self.source = source

    def expand(self, rows):
        from transforms.core.accounting import COUNTS, REJECTED
        if self.source is None:
            out = accounted(rows, "AllDevTest", AllDevTestFn())
            return {"main": out.main, REJECTED: out[REJECTED], COUNTS: out[COUNTS]}
        verdicts = rows.pipeline | "ReadVerdicts" >> ReadVerdicts(*self.source)
        keyed = rows | "KeyById" >> beam.Map(lambda r: (r["id"], r))
        applied = accounted(join("JoinVerdicts", rows=keyed, verdicts=verdicts.main),
                            "ApplyVerdicts", ApplyVerdictFn())
        counts = (verdicts[COUNTS], applied[COUNTS]) | "VerdictCounts" >> beam.Flatten()
        return {"main": applied.main, REJECTED: applied[REJECTED], COUNTS: counts}
