"""Checks shared by the server, the CLI and ingest: ids, numbers and free text.

`FieldError` is a bad field of a request (the server answers 400 with its message);
`UserError` is bad input on the command line (one line, no traceback).
"""
import re
import unicodedata

#: Printable ids: letters, digits and `_ . : @ -`, starting with a letter or digit (so never
#: a spreadsheet formula), at most 128 characters.
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}")
#: Worker names the requester picks: the same, at most 64 characters, no `:` (kept for
#: the `study:participant` ids of Prolific).
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}")
FEEDBACK_MAX = 2000
ANSWER_MAX = 1000


class FieldError(ValueError):
    """A malformed request field: the reason goes back with a 400."""


class UserError(ValueError):
    """Bad command-line input: reported as one line."""


def shown(value, limit: int = 60) -> str:
    """A short, log-safe rendering of a bad value (never the whole of a 10 MB field)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "...(%d chars)" % len(value)


def check_id(value: str, what: str, blank_ok: bool = False) -> str:
    if value == "" and blank_ok:
        return value
    if not _ID.fullmatch(value or ""):
        raise FieldError("%s must be a printable id ([A-Za-z0-9_.:@-], at most 128 "
                         "characters), got %s" % (what, shown(value)))
    return value


def check_name(value: str) -> str:
    """A worker name given to `workers add`."""
    if not _NAME.fullmatch(value or ""):
        raise UserError("worker name %s: use 1-64 letters, digits, '_', '.', '@' or '-', "
                        "starting with a letter or digit" % shown(value))
    return value


def parse_int(value: str, what: str, lo: int, hi: int, blank_ok: bool = False):
    if value == "" and blank_ok:
        return None
    if not re.fullmatch(r"[0-9]{1,12}", value or ""):
        raise FieldError("%s must be a whole number, got %s" % (what, shown(value)))
    number = int(value)
    if not lo <= number <= hi:
        raise FieldError("%s must be between %d and %d, got %d" % (what, lo, hi, number))
    return number


def _controls(text: str, keep: str = "") -> list:
    return [c for c in text if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn")
            and c not in keep]


def check_text(value: str, what: str, max_chars: int, multiline: bool = False) -> str:
    """Free text: at most `max_chars`, no control characters (tab and newlines allowed in
    multi-line text)."""
    if len(value) > max_chars:
        raise FieldError("%s is %d characters, at most %d are allowed"
                         % (what, len(value), max_chars))
    bad = _controls(value, "\t\r\n" if multiline else "")
    if bad:
        raise FieldError("%s contains control character %s" % (what, shown(bad[0])))
    return value


def truthy(value) -> bool:
    return str(value or "").strip().lower() in ("on", "true", "1", "yes")


def as_int(value):
    """An int, or None for blanks and junk (lenient: for ingest of third-party exports)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
