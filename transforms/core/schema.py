"""Arrow schemas of the dataset contract (`docs/dataset-contract.md`).

Every Parquet file the project writes uses one of these, passed explicitly to
`beam.io.WriteToParquet`, so readers never depend on schema inference.
"""
import pyarrow as pa

ENTITY = pa.struct([
    ("start", pa.int32()),
    ("end", pa.int32()),
    ("text", pa.string()),
    ("label", pa.string()),
])
ANSWER = pa.struct([
    ("start", pa.int32()),
    ("end", pa.int32()),
    ("text", pa.string()),
])

_QUERY_FIELDS = [
    pa.field("id", pa.string(), nullable=False),
    pa.field("passage_id", pa.string(), nullable=False),
    pa.field("article_id", pa.string(), nullable=False),
    pa.field("source", pa.string(), nullable=False),
    pa.field("origin", pa.string(), nullable=False),
    pa.field("url", pa.string(), nullable=True),
    pa.field("passage", pa.string(), nullable=False),
    pa.field("entities", pa.list_(ENTITY), nullable=False),
    pa.field("query", pa.string(), nullable=False),
    pa.field("answers", pa.list_(ANSWER), nullable=False),
]

#: Rows of DIR/candidates: every generated cloze triple, with its fold.
CANDIDATE_SCHEMA = pa.schema(_QUERY_FIELDS + [pa.field("fold", pa.int32(), nullable=False)])

#: Candidates once scored by the adversary (DIR/filtered/scored and /kept).
SCORED_SCHEMA = pa.schema(list(CANDIDATE_SCHEMA) + [
    pa.field("adversary_prediction", pa.string(), nullable=True),
    pa.field("adversary_correct", pa.bool_(), nullable=True),
])

#: Rows of the released dataset (DIR/dataset/<split>-*.parquet).
DATASET_SCHEMA = pa.schema(_QUERY_FIELDS + [pa.field("split", pa.string(), nullable=False)])

#: Rows of DIR/rejected: one per dropped file / article / sentence / query.
REJECTED_SCHEMA = pa.schema([
    pa.field("stage", pa.string(), nullable=False),
    pa.field("reason", pa.string(), nullable=False),
    pa.field("article_id", pa.string(), nullable=True),
    pa.field("record_id", pa.string(), nullable=True),
    pa.field("source_file", pa.string(), nullable=True),
    pa.field("detail", pa.string(), nullable=True),
])


def rejected_row(stage, reason, article_id=None, record_id=None, source_file=None, detail=None):
    """One row of DIR/rejected. `detail` is truncated so a 5 MB article cannot bloat it."""
    if detail is not None and len(detail) > 500:
        detail = detail[:500] + "..."
    return {"stage": stage, "reason": reason, "article_id": article_id,
            "record_id": record_id, "source_file": source_file, "detail": detail}
