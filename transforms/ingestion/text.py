"""Bytes to clean text, before anything is split (text hygiene at the door, issue 22).

Every reader's text goes through here:
- line endings are normalised (CRLF, lone CR, any mix) to `\\n`;
- mojibake (UTF-8 read as Windows-1252 or Latin-1: "â€™" for "’") is repaired by ftfy,
  conservatively (`fix_encoding` alone; real corpus text comes back unchanged);
- HTML character references left in text ("&#163;1.8m", "pass&#233;", "AT&amp;T") are
  decoded, in every layout: only a complete reference with its semicolon ("M&S", "&B"
  stay), at most `ENTITY_ROUNDS` rounds ("&amp;#163;" is "£"); an inverted question mark
  inside a word ("Blair&#191;s": a curly apostrophe lost on the way) is the apostrophe;
- control characters (every C0/C1 control but `\\n` and `\\t`, NUL included) are removed;
- format characters (Unicode Cf: bidi controls such as U+202E, zero-width space/joiners,
  word joiner, BOM, soft hyphen), private-use (Co) and unassigned (Cn) code points are
  removed, so "Man\\u200bchester" reads "Manchester", never "Man chester";
- a lone surrogate (an escaped `\\ud800` in JSON, or undecodable bytes) cannot be written as
  UTF-8: the record is rejected (`lone_surrogate`, or `invalid_utf8`), never the job;
- a file whose first bytes are mostly NUL / control bytes is not text: `binary_file`.

`hygiene_problem(text)` is the same rule as a check (for fields that must be refused, not
cleaned: the annotation server's form fields).
"""
import functools
import html
import html.entities
import re
import unicodedata
from typing import NamedTuple, Optional, Tuple

from transforms.core.rules import rejected_row

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")   # C0/C1 but \t and \n (\r is gone)
_NEWLINES = re.compile(r"\r\n?")
_NON_ASCII = re.compile("[^\x00-\x7f]+")
_MOJIBAKE_HINT = re.compile("[\u00c2-\u00f4]")   # a UTF-8 lead byte read as Latin-1/Windows-1252
_REMOVED_CATEGORIES = ("Cf", "Co", "Cn")
# a complete character reference: numeric, hex, or a name, always with its semicolon
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
ENTITY_ROUNDS = 3        # "&amp;amp;#163;": escaped twice over, no more
_LOST_APOSTROPHE = re.compile(r"(?<=[^\W\d_])¿(?=[^\W\d_])")   # never inside a word in Spanish
BINARY_SHARE = 0.10      # of the first 8 KB: more control bytes than this is not text
_HEAD = 8192


@functools.lru_cache(maxsize=1)
def _ftfy_config():
    import ftfy
    return ftfy.TextFixerConfig(
        unescape_html=False, remove_terminal_escapes=False, fix_encoding=True,
        restore_byte_a0=False, replace_lossy_sequences=False, decode_inconsistent_utf8=False,
        fix_c1_controls=False, fix_latin_ligatures=False, fix_character_width=False,
        uncurl_quotes=False, fix_line_breaks=False, fix_surrogates=False,
        remove_control_chars=False, normalization=None, explain=False)


def fix_mojibake(text: str) -> Tuple[str, bool]:
    """(text with mojibake repaired, whether anything changed). Only text holding a UTF-8
    lead byte read as Latin-1 / Windows-1252 (U+00C2-U+00F4) can be such mojibake."""
    if text.isascii() or not _MOJIBAKE_HINT.search(text):
        return text, False
    import ftfy
    fixed = ftfy.fix_text(text, _ftfy_config())
    return fixed, fixed != text


def decode_entities(text: str) -> Tuple[str, int]:
    """(text with its HTML character references decoded and lost apostrophes restored,
    references decoded); a name HTML does not know ("&foo;") is left as written."""
    decoded = 0

    def one(match):
        nonlocal decoded
        ref = match.group()
        if ref[1] == "#":
            out = html.unescape(ref)
        else:           # a whole name only: html.unescape reads "&notaname;" as "¬aname;"
            out = html.entities.html5.get(ref[1:], ref)
        decoded += out != ref
        return out

    for _ in range(ENTITY_ROUNDS if "&" in text else 0):
        before = decoded
        text = _ENTITY.sub(one, text)
        if decoded == before:
            break
    return (_LOST_APOSTROPHE.sub("’", text) if "¿" in text else text), decoded


def has_lone_surrogate(text: str) -> bool:
    if text.isascii():
        return False
    try:
        text.encode("utf-8")   # C speed; only a surrogate cannot be encoded
    except UnicodeEncodeError:
        return True
    return False


def _visible(text: str) -> bool:
    """True when no character but tab and newline is in Unicode's C* (or Z* but space)."""
    return text.replace("\n", " ").replace("\t", " ").isprintable()


def _drop_unseen(text: str) -> Tuple[str, int]:
    removed = 0

    def keep(match):
        nonlocal removed
        run = match.group()
        kept = "".join(c for c in run if unicodedata.category(c) not in _REMOVED_CATEGORIES)
        removed += len(run) - len(kept)
        return kept

    return _NON_ASCII.sub(keep, text), removed


def scrub(text: str) -> Tuple[str, int, int]:
    """(text without control and format characters, controls removed, format removed)."""
    text, controls = _CONTROL.subn("", text)
    if text.isascii() or _visible(text):
        return text, controls, 0
    text, formats = _drop_unseen(text)
    return text, controls, formats


def normalise_text(text: str) -> Tuple[str, int]:
    """(text with `\\n` line ends and no control/format characters, characters removed)."""
    text, controls, formats = scrub(_NEWLINES.sub("\n", text))
    return text, controls + formats


def clean_prose(text: str, counter=None, repair: bool = True) -> str:
    """Article text: line ends, mojibake (when `repair`), HTML character references,
    control and format characters; `counter` counts `mojibake_repaired`,
    `html_entities_decoded`, `control_chars_removed`, `format_chars_removed`.
    The caller has rejected lone surrogates first."""
    text = _NEWLINES.sub("\n", text)
    repaired = False
    if repair:
        text, repaired = fix_mojibake(text)
    text, entities = decode_entities(text)
    text, controls, formats = scrub(text)
    if counter is not None:
        for key, n in (("mojibake_repaired", int(repaired)), ("html_entities_decoded", entities),
                       ("control_chars_removed", controls),
                       ("format_chars_removed", formats)):
            if n:
                counter[key] += n
    return text


class Problem(NamedTuple):
    reason: str     # lone_surrogate, control_character, format_character, ...
    detail: str     # "U+202E at 3"


_NAMES = {"Cs": "lone_surrogate", "Cc": "control_character", "Cf": "format_character",
          "Co": "private_use_character", "Cn": "unassigned_character"}


def hygiene_problem(text: str, multiline: bool = False) -> Optional[Problem]:
    """The first character a clean field may not hold (Unicode C*: controls, format
    characters such as bidi overrides and zero-width marks, surrogates, private use,
    unassigned), or None. Tab and newline are allowed when `multiline`."""
    allowed = "\t\n" if multiline else ""
    if (_visible(text) if multiline else text.isprintable()):
        return None
    for i, ch in enumerate(text):
        if ch.isprintable() or ch in allowed:
            continue
        category = unicodedata.category(ch)
        if category in _NAMES:
            return Problem(_NAMES[category], f"U+{ord(ch):04X} at {i}")
    return None


def looks_binary(data: bytes) -> bool:
    head = data[:_HEAD]
    if not head:
        return False
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 13))
    return controls > BINARY_SHARE * len(head)


def decode(data: bytes, path: str, stage: str = "read", counter=None):
    """(text, control characters removed, None) or (None, 0, rejected row); with `counter`
    the text is also repaired of mojibake and the removals counted by kind."""
    if looks_binary(data):
        return None, 0, rejected_row(stage, "binary_file", source_file=path,
                                     detail="mostly control bytes: not a text file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        return None, 0, rejected_row(stage, "invalid_utf8", source_file=path,
                                     detail=f"byte {err.start}: {err.reason}")
    if counter is not None:
        return clean_prose(text, counter), 0, None
    text, removed = normalise_text(text)
    return text, removed, None


def clean_field(value: Optional[str]) -> Tuple[Optional[str], int]:
    """A string field of a record (JSON, CSV, Parquet) with control characters removed."""
    if value is None:
        return None, 0
    return normalise_text(value)
