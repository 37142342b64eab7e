"""Size limits every layout shares (issue 28): a short field (id, URL, title, date,
publisher, origin) longer than its limit is no such field but a payload, and a Parquet or
Arrow row is measured as its JSON line would be against `--max_record_mb`."""
from typing import Optional

from transforms.core.rules import rejected_row
from transforms.ingestion import STAGE
from transforms.ingestion.articles import Article

#: the most characters a short field may hold, in every layout: longer is no id, URL or
#: title but a payload (a 30 MB `url` cell once reached the explorer page whole)
FIELD_LIMITS = (("article_id", 1024), ("url", 8192), ("title", 4096), ("date", 256),
                ("source", 256), ("origin", 256))


def oversized_field(article: Article) -> Optional[dict]:
    """A rejected row (`field_too_large:<field>`) when a short field is longer than
    FIELD_LIMITS allows, else None."""
    for name, limit in FIELD_LIMITS:
        value = getattr(article, name)
        if isinstance(value, str) and len(value) > limit:
            field = "id" if name == "article_id" else name
            return rejected_row(STAGE, f"field_too_large:{field}", source_file=article.source_file,
                                article_id=None if name == "article_id" else article.article_id,
                                detail=f"`{field}` holds {len(value):,} characters > {limit:,}")
    return None


def row_sizes(batch) -> list:
    """Bytes each row of a record batch holds (every column: text and binary cells by
    their length, lists by their values), as a JSON line of the row would at least."""
    import pyarrow as pa
    import pyarrow.compute as pc
    sizes = [0] * batch.num_rows
    for column in batch.columns:
        values, owner = column, None
        while pa.types.is_list(values.type) or pa.types.is_large_list(values.type):
            parents = pc.list_parent_indices(values)
            owner = parents if owner is None else pc.take(owner, parents)
            values = pc.list_flatten(values)
        if not (pa.types.is_string(values.type) or pa.types.is_large_string(values.type)
                or pa.types.is_binary(values.type) or pa.types.is_large_binary(values.type)):
            continue
        lengths = pc.fill_null(pc.binary_length(values), 0).to_pylist()
        rows = owner.to_pylist() if owner is not None else range(len(lengths))
        for row, n in zip(rows, lengths):
            sizes[row] += n
    return sizes
