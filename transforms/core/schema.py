"""Arrow schemas of the dataset contract (`docs/dataset-contract.md`).

Every Parquet file the project writes uses one of these, passed explicitly to
`beam.io.WriteToParquet`, so readers never depend on schema inference.
"""
import pyarrow as pa

from transforms.core.rules import rejected_row  # noqa: F401 - the row of REJECTED_SCHEMA

# Row groups of the Parquet files stages hand to each other: a reader (Beam's ParquetSource,
# pyarrow) holds one whole row group at once, so they stay small whatever the corpus size:
# about 1 MB of Arrow data, checked every 256 rows (WriteToParquet's defaults, 64 MB and
# 1,000 rows, put 4,444 candidates in one row group at 8x the real corpus).
ROW_GROUP = {"row_group_buffer_size": 1 << 20, "record_batch_size": 256}

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

#: Rows of DIR/candidates: every generated cloze triple, with its fold and the mention text
#: the placeholder replaced (null where unknown; the release rule `answer_form` reads it;
#: not a released column).
CANDIDATE_SCHEMA = pa.schema(_QUERY_FIELDS + [pa.field("fold", pa.int32(), nullable=False),
                                              pa.field("mention", pa.string(), nullable=True)])

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



#: Rows of DIR/articles (generate): where each input article stopped, or its candidates.
GENERATION_FATE_SCHEMA = pa.schema([
    pa.field("article_id", pa.string(), nullable=True),
    pa.field("record_id", pa.string(), nullable=True),     # file and place, without an id
    pa.field("source_file", pa.string(), nullable=True),
    pa.field("origin", pa.string(), nullable=True),
    pa.field("stage", pa.string(), nullable=True),         # null: the article gave queries
    pa.field("reason", pa.string(), nullable=True),
    pa.field("candidates", pa.int32(), nullable=False),
    # MinHash signature of the whole article (finalize's near-duplicate clustering); null
    # when the article gave no candidate
    pa.field("minhash", pa.list_(pa.int64()), nullable=True),
])

#: Rows of DIR/dataset/articles (finalize): every input article's fate, to the release.
ARTICLE_FATE_SCHEMA = pa.schema([f for f in GENERATION_FATE_SCHEMA if f.name != "minhash"] + [
    pa.field("kept", pa.int32(), nullable=False),          # candidates the adversary kept
    pa.field("released", pa.int32(), nullable=False),      # queries in the released splits
    pa.field("split", pa.string(), nullable=True),
    # smallest article id of its near-duplicate cluster; null when it has no near-duplicate
    pa.field("near_dup_cluster", pa.string(), nullable=True),
])
