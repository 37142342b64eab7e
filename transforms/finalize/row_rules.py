"""Finalize's rejections as rule tables (the transforms/core/rules.py convention), one per
step, each judging one query row with what its step knows of it (the context):

| table              | step             | context     | reasons                              |
|--------------------|------------------|-------------|--------------------------------------|
| `DEDUPE_RULES`     | dedupe           | `Copies`    | duplicate_query_in_passage           |
| `VALIDATION_RULES` | human_validation | `Verdicts`  | conflicting_verdicts, not_human_validated, failed_human_validation |
| `SPLIT_RULES`      | split            | `Placement` | the group's (bridge, origin, quota), not_validated_for_<split> |

The placement of article groups (splits.py, quota.py) is an algorithm, not a rule: a
group it leaves out carries its reason in `Placement`, and `SPLIT_RULES` rejects the
group's rows with it. Pure functions; no Beam.
"""
from typing import NamedTuple, Optional

from transforms.core.rules import Rule
from transforms.finalize.splits.rules import is_bridge_group, validation_allows


class Copies(NamedTuple):
    """A row among the rows of one passage with one query text, in id order."""
    first: str           # the id kept (the smallest)
    position: int        # the row's place among them


DEDUPE_RULES = (
    Rule("first_copy", "duplicate_query_in_passage",
         lambda row, ctx, c: ctx.position == 0 or (False, f"duplicate of {ctx.first}")),
)


class Verdicts(NamedTuple):
    """The distinct human-validation verdicts of a query's id, sorted."""
    values: tuple


VALIDATION_RULES = (
    Rule("one_verdict", "conflicting_verdicts",
         lambda row, ctx, c: len(ctx.values) <= 1 or (False, ",".join(ctx.values))),
    Rule("validated", "not_human_validated", lambda row, ctx, c: bool(ctx.values)),
    Rule("passed_validation", "failed_human_validation",
         lambda row, ctx, c: ctx.values[0] != "none"),
)


class Placement(NamedTuple):
    """Where the row's article group was placed."""
    split: Optional[str]          # None: nowhere
    reason: Optional[str] = None  # why nowhere
    key: Optional[str] = None     # the article group


def group_detail(key) -> str:
    if key is not None and is_bridge_group(key):
        return ("a near-duplicate of articles of different stories (a bridge between their "
                "clusters): released, it would join them or leak one into another split")
    return f"article group {key}"


SPLIT_RULES = (
    Rule("placed", "{reason}",
         lambda row, ctx, c: ctx.split is not None or (False, group_detail(ctx.key))),
    Rule("validated_for_split", "not_validated_for_{split}",
         lambda row, ctx, c: validation_allows(row["_valid_for"], ctx.split)
         or (False, f"valid_for={row['_valid_for']}")),
)
