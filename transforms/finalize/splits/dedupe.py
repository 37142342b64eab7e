"""DropDuplicateQueries: within a passage, one query per exact query text (the smallest
id); the others are rejected `duplicate_query_in_passage` (row_rules.DEDUPE_RULES). One
GroupByKey on (passage_id, query text): a call holds the copies of one query."""
import apache_beam as beam

from transforms.core.accounting import Count, RuleStep, accounted
from transforms.finalize.row_rules import DEDUPE_RULES, Copies
from transforms.finalize.splits.rules import dedup_queries

STEP = "dedupe"


class KeepFirstQuery(RuleStep):
    step, rules = STEP, DEDUPE_RULES

    def units(self, item) -> int:
        return 0          # counted in apply: the group is an iterable

    def apply(self, item):
        _, rows = item
        kept, dropped = dedup_queries(rows)
        copies = kept + dropped
        yield Count(STEP, "in", len(copies))
        yield Count(STEP, "max_group", len(copies))
        for i, row in enumerate(copies):
            yield self.judge(row, Copies(copies[0]["id"], i))


class DropDuplicateQueries(beam.PTransform):
    """Rows -> accounted result: main (kept rows), rejected, counts."""

    def expand(self, rows):
        grouped = (rows
                   | "KeyByPassageQuery" >> beam.Map(lambda r: ((r["passage_id"], r["query"]), r))
                   | "GroupSameQuery" >> beam.GroupByKey())
        return accounted(grouped, "KeepFirst", KeepFirstQuery())
