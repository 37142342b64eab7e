"""DropDuplicateQueries: within a passage, one query per exact query text (the smallest
id); the others are rejected `duplicate_query_in_passage`. One GroupByKey on
(passage_id, query text): a call holds the copies of one query."""
import apache_beam as beam

from transforms.core.accounting import Count, StepFn, accounted, reject
from transforms.finalize.splits import dedup_queries

STEP = "dedupe"


class KeepFirstQuery(StepFn):
    step = STEP

    def units(self, item) -> int:
        return 0          # counted in apply: the group is an iterable

    def apply(self, item):
        _, rows = item
        kept, dropped = dedup_queries(rows)
        n = len(kept) + len(dropped)
        yield Count(STEP, "in", n)
        yield Count(STEP, "max_group", n)
        yield from kept
        for row in dropped:
            yield reject(STEP, "duplicate_query_in_passage", article_id=row["article_id"],
                         record_id=row["id"], detail=f"duplicate of {kept[0]['id']}")


class DropDuplicateQueries(beam.PTransform):
    """Rows -> accounted result: main (kept rows), rejected, counts."""

    def expand(self, rows):
        grouped = (rows
                   | "KeyByPassageQuery" >> beam.Map(lambda r: ((r["passage_id"], r["query"]), r))
                   | "GroupSameQuery" >> beam.GroupByKey())
        return accounted(grouped, "KeepFirst", KeepFirstQuery())
