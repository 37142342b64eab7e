"""The read stage's record rules (the transforms/core/rules.py convention): what a JSON
line, CSV or TSV row, or Parquet or Arrow row must hold to become an Article
(`readers.article_from_record` applies them; its rejected row names the rule's reason).

| table          | judges                           | reasons                                  |
|----------------|----------------------------------|------------------------------------------|
| `RECORD_RULES` | the record as read               | record_not_an_object, lone_surrogate, bad_field:id |
| `FIELD_RULES`  | the record once its id is known  | missing_field:id, missing_field:article, bad_field:article, missing_field:highlights, bad_field:highlights |

The context (`Where`) is the record's place in its file and, for `FIELD_RULES`, its id
(an `id`, else the SHA-1 of its `url`). Pure functions; no Beam.
"""
from typing import NamedTuple, Optional

from transforms.core.rules import Rule
from transforms.ingestion.text import has_lone_surrogate


class Where(NamedTuple):
    """Where a record is ("line 7", "row 3") and its article id once known."""
    where: str
    article_id: Optional[str] = None


def surrogate_field(record: dict) -> Optional[str]:
    """The first field holding a lone surrogate (a string or a list of strings), or None."""
    for key, value in record.items():
        values = value if isinstance(value, (list, tuple)) else (value,)
        if any(isinstance(v, str) and has_lone_surrogate(v) for v in values):
            return str(key).encode("utf-8", "backslashreplace").decode()
    return None


def body_field(record: dict):
    """The article text: `article`, else `text` (None when neither is there)."""
    body = record.get("article")
    return record.get("text") if body is None else body


def highlights_field(value):
    """A tuple of highlight strings, or None when the field is not text."""
    if isinstance(value, str):
        return tuple(h.strip() for h in value.split("\n") if h.strip())
    if isinstance(value, (list, tuple)):
        if not all(isinstance(h, str) for h in value):
            return None
        return tuple(h.strip() for h in value if h.strip())
    return None


def _no_surrogate(record: dict, ctx: Where):
    bad = surrogate_field(record)
    return not bad or (False, f"{ctx.where}: `{bad}` holds a lone surrogate (not UTF-8 text)")


def _id_type(record: dict, ctx: Where):
    raw = record.get("id")
    return (raw is None or isinstance(raw, (int, float, str)) and not isinstance(raw, bool)
            or (False, f"{ctx.where}: `id` is {type(raw).__name__}, not a string or number"))


RECORD_RULES = (
    Rule("an_object", "record_not_an_object",
         lambda r, ctx, c: isinstance(r, dict) or (False, ctx.where)),
    Rule("no_lone_surrogate", "lone_surrogate", lambda r, ctx, c: _no_surrogate(r, ctx)),
    Rule("id_type", "bad_field:id", lambda r, ctx, c: _id_type(r, ctx)),
)

FIELD_RULES = (
    Rule("has_id", "missing_field:id", lambda r, ctx, c: ctx.article_id is not None
         or (False, f"{ctx.where}: needs `id` (or `url`)")),
    Rule("has_article", "missing_field:article", lambda r, ctx, c: body_field(r) is not None
         or (False, f"{ctx.where}: needs `article` or `text`")),
    Rule("article_text", "bad_field:article", lambda r, ctx, c: isinstance(body_field(r), str)
         or (False, f"{ctx.where}: `article` is not a string")),
    Rule("has_highlights", "missing_field:highlights",
         lambda r, ctx, c: "highlights" in r or (False, ctx.where)),
    Rule("highlights_text", "bad_field:highlights",
         lambda r, ctx, c: highlights_field(r["highlights"]) is not None
         or (False, f"{ctx.where}: not a string or a list of strings")),
)
