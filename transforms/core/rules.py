"""One rule convention for every stage (DataTrove's filter shape).

A rule is a named pure check with the reason its rejected rows carry:

    Rule("min_tokens", "under_{min_tokens}_tokens", lambda s, ctx, c: s.n_tokens >= c.min_tokens)

`check(record, context, config)` returns True to keep the record, False to reject it, or
(False, detail) to reject it with a detail for the rejected row. The reason is formatted
with the fields of the config and of the context (a dataclass, NamedTuple or dict), so
"not_validated_for_{split}" names the split the context holds. A stage holds its rules
in a named table (a tuple, applied in order); `first_rejection` reports the first that
fails, `rejections` every one that fails (item flags). A pure function that can reject
returns its result or a `Reject`; the step that applies it (accounting.RuleStep) writes
the Reject as its row of DIR/rejected (`rejected_row`). No Beam here: rules are
unit-tested as plain functions.
"""
import dataclasses
from typing import Any, Callable, Mapping, NamedTuple, Optional


class Reject(NamedTuple):
    """Why a record goes no further: the rule, the reason string, and a detail."""
    rule: str
    reason: str
    detail: Optional[str] = None


class Rule(NamedTuple):
    name: str
    reason: str          # formatted with the config's and context's fields (module docstring)
    check: Callable      # (record, context, config) -> bool | (bool, detail)


def _fields(obj) -> dict:
    if obj is None:
        return {}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    if hasattr(obj, "_asdict"):
        return obj._asdict()
    if isinstance(obj, Mapping):
        return dict(obj)
    return {}


def reason_of(rule: Rule, context: Any = None, config: Any = None) -> str:
    """The rule's reason with its `{field}`s filled from the context and the config."""
    if "{" not in rule.reason:
        return rule.reason
    return rule.reason.format(**{**_fields(context), **_fields(config)})


def verdict(rule: Rule, record, context: Any = None, config: Any = None) -> Optional[Reject]:
    """None when `rule` keeps the record, else its Reject."""
    result = rule.check(record, context, config)
    detail = None
    if isinstance(result, tuple):
        result, detail = result
    if result:
        return None
    return Reject(rule.name, reason_of(rule, context, config), detail)


def first_rejection(rules, record, context: Any = None, config: Any = None) -> Optional[Reject]:
    """The Reject of the first rule in the table that fails, or None when all keep."""
    for rule in rules:
        rejected = verdict(rule, record, context, config)
        if rejected is not None:
            return rejected
    return None


def rejections(rules, record, context: Any = None, config: Any = None) -> list:
    """The Reject of every rule in the table that fails, in table order."""
    out = []
    for rule in rules:
        rejected = verdict(rule, record, context, config)
        if rejected is not None:
            out.append(rejected)
    return out


def is_rejected(result) -> bool:
    """Whether a rule-applying function's result is a Reject (not the record it made)."""
    return isinstance(result, Reject)


def rejected_row(stage, reason, article_id=None, record_id=None, source_file=None, detail=None):
    """One row of DIR/rejected. `detail` is truncated so a 5 MB article cannot bloat it."""
    if detail is not None and len(detail) > 500:
        detail = detail[:500] + "..."
    return {"stage": stage, "reason": reason, "article_id": article_id,
            "record_id": record_id, "source_file": source_file, "detail": detail}
