"""Bytes to clean text, before anything is split (dirty input, issue-tested):

- control characters (every C0/C1 control but `\\n` and `\\t`, NUL included) are removed
  wherever they occur, in files and inside JSON strings alike;
- line endings are normalised (CRLF, lone CR, any mix) to `\\n`;
- a file whose first bytes are mostly NUL / control bytes is not text: `binary_file`.
"""
import re
from typing import Optional, Tuple

from transforms.core.rules import rejected_row

_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufeff]")
_NEWLINES = re.compile(r"\r\n?")
BINARY_SHARE = 0.10      # of the first 8 KB: more control bytes than this is not text
_HEAD = 8192


def normalise_text(text: str) -> Tuple[str, int]:
    """(text with `\\n` line ends and no control characters, characters removed)."""
    text = _NEWLINES.sub("\n", text)
    cleaned, n = _CONTROL.subn("", text)
    return cleaned, n


def looks_binary(data: bytes) -> bool:
    head = data[:_HEAD]
    if not head:
        return False
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 13))
    return controls > BINARY_SHARE * len(head)


def decode(data: bytes, path: str, stage: str = "read"):
    """(text, control characters removed, None) or (None, 0, rejected row)."""
    if looks_binary(data):
        return None, 0, rejected_row(stage, "binary_file", source_file=path,
                                     detail="mostly control bytes: not a text file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        return None, 0, rejected_row(stage, "invalid_utf8", source_file=path,
                                     detail=f"byte {err.start}: {err.reason}")
    text, removed = normalise_text(text)
    return text, removed, None


def clean_field(value: Optional[str]) -> Tuple[Optional[str], int]:
    """A string field of a record (JSON, CSV, Parquet) with control characters removed."""
    if value is None:
        return None, 0
    return normalise_text(value)
