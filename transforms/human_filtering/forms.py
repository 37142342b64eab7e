"""The submitted page, parsed and checked field by field (pure functions).

`parse_form` turns the raw body into a dict (strict UTF-8, no repeated or unknown field);
`answers` checks every field against the HIT the page showed: each answer must be one
of its clickable entities, offsets and text both. Anything wrong raises FieldError with
the reason the server sends back in its 400.
"""
import urllib.parse

from transforms.human_filtering import hits as H
from transforms.human_filtering.fields import (
    ANSWER_MAX,
    FEEDBACK_MAX,
    FieldError,
    check_id,
    check_text,
    parse_int,
    shown,
)
from transforms.human_filtering.store import Answer
from transforms.human_filtering.tokens import PROLIFIC_PARAMS, TOKEN_MAX

#: Fields of the page besides its tasks. `worker_id` is accepted for old pages and never
#: used: the worker is the token's.
PAGE_FIELDS = ("token", "hit_ref", "assignmentId", "worker_id", "time_spent_ms") \
    + PROLIFIC_PARAMS
TIME_MAX_MS = 7 * 24 * 3600 * 1000


def parse_form(body: bytes, per_hit: int, allowed: set | None = None) -> dict:
    """{field: value} of an application/x-www-form-urlencoded body (`allowed`: the fields
    a form may have; default: the HIT page's)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as err:
        raise FieldError("the body is not UTF-8 (byte %d)" % err.start) from None
    allowed = allowed or set(PAGE_FIELDS) | {f + s for s in H.slot_suffixes(per_hit)
                                             for f in H.ANSWER_FIELDS}
    try:
        pairs = urllib.parse.parse_qsl(text, keep_blank_values=True, strict_parsing=bool(text),
                                       errors="strict", max_num_fields=len(allowed))
    except UnicodeDecodeError:
        raise FieldError("a field is not UTF-8 once percent-decoded") from None
    except ValueError as err:
        raise FieldError("not a form body: %s" % err) from None
    form = {}
    for key, value in pairs:
        if key not in allowed:
            raise FieldError("unknown field %s" % shown(key))
        if key in form:
            raise FieldError("field %s is given twice" % key)
        form[key] = value
    return form


def token_of(form: dict) -> str:
    token = form.get("token", "")
    if len(token) > TOKEN_MAX:
        raise FieldError("token is longer than %d characters" % TOKEN_MAX)
    return token


def answers(form: dict, hit, per_hit: int) -> list:
    """[store.Answer] of a HIT's page, every field checked."""
    for key in ("assignmentId", "worker_id") + PROLIFIC_PARAMS:
        check_id(form.get(key, ""), key, blank_ok=True)
    out = []
    for sfx, task in zip(H.slot_suffixes(per_hit), hit.tasks):
        if form.get("query_id" + sfx) != task.query_id:
            raise FieldError("query_id%s %s is not the query of %s" % (
                sfx, shown(form.get("query_id" + sfx)), hit.ref))
        # no character check: the answer must equal one of the HIT's entities, whatever
        # they hold (an entity the page shows is always answerable)
        text = form.get("answer" + sfx, "")
        if len(text) > ANSWER_MAX:
            raise FieldError("answer%s is %d characters, at most %d are allowed"
                             % (sfx, len(text), ANSWER_MAX))
        if not text:
            raise FieldError("no answer for query_id%s: click an entity" % sfx)
        start = parse_int(form.get("answer_start" + sfx, ""), "answer_start" + sfx, 0, 10**9)
        end = parse_int(form.get("answer_end" + sfx, ""), "answer_end" + sfx, 0, 10**9)
        if not H.is_entity(text, start, end, task.spans):
            raise FieldError("answer%s %s [%d, %d) is not one of the entities of %s" % (
                sfx, shown(text), start, end, hit.ref))
        flag = form.get("ambiguous" + sfx, "")
        if flag not in ("", "on"):
            raise FieldError("ambiguous%s must be 'on' or empty, got %s" % (sfx, shown(flag)))
        feedback = check_text(form.get("feedback" + sfx, ""), "feedback" + sfx, FEEDBACK_MAX,
                              multiline=True)
        out.append(Answer(task.query_id, text, start, end, flag == "on", feedback))
    return out


def time_spent(form: dict):
    return parse_int(form.get("time_spent_ms", ""), "time_spent_ms", 0, TIME_MAX_MS,
                     blank_ok=True)
