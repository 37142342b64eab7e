"""Prolific: the study URL carries PROLIFIC_PID, STUDY_ID and SESSION_ID, and a finished
participant is sent to the study's completion link (its code is a flag of `export`).
"""
import re
import urllib.parse

from transforms.human_filtering.fields import UserError

COMPLETION_URL = "https://app.prolific.com/submissions/complete?cc=%s"
_CODE = re.compile(r"[A-Za-z0-9_-]{1,64}")


def check_code(code: str | None) -> str | None:
    """A completion code as Prolific shows it (letters and digits), or None."""
    if code is None:
        return None
    if not _CODE.fullmatch(code):
        raise UserError("--prolific_completion_code must be letters, digits, '_' or '-' "
                        "(the code Prolific shows for the study), got %r" % code[:80])
    return code


def completion_url(code: str) -> str:
    return COMPLETION_URL % urllib.parse.quote(code, safe="")
