"""CSV outputs a requester can open in a spreadsheet without running a worker's formula.

Worker ids, answers and feedback come from workers. A cell that starts with `=`, `+`,
`-` or `@` (or with tab or CR, which some spreadsheets skip before reading a formula) is
prefixed with `'` (OWASP's advice for CSV injection), and control characters are
stripped from every text cell. Numbers and booleans we computed are written as they are.

`hits.csv` (the MTurk batch input, read back by `serve` and `ingest`) must keep every value:
`escape_cell` prefixes `'` to a cell that starts with a formula character or with `'`
(so `unescape_cell` gives the value back exactly), and an HTML cell (`*_html`, which the HIT
page shows as markup) instead starts with the character reference of its first character
(`&#61;` for `=`), which a browser shows as that character.
"""
import csv
import io
import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    if not isinstance(value, str):
        return value
    cleaned = _CONTROL.sub("", value)
    if value.startswith(_FORMULA_START) or cleaned.startswith(_FORMULA_START):
        return "'" + cleaned
    return cleaned


def escape_cell(value, html: bool = False):
    """A hits.csv cell no spreadsheet reads as a formula, nothing lost (see the module)."""
    if not isinstance(value, str) or not value.startswith(_FORMULA_START + ("'",)):
        return value
    if html:
        return "&#%d;%s" % (ord(value[0]), value[1:]) if value[0] != "'" else value
    return "'" + value


def unescape_cell(value):
    """The value `escape_cell` was given (an HTML cell is kept as written: same page)."""
    return value[1:] if isinstance(value, str) and value.startswith("'") else value


def escape_row(row: dict) -> dict:
    return {k: escape_cell(v, html="_html" in k) for k, v in row.items()}


def unescape_row(row: dict) -> dict:
    return {k: v if "_html" in k else unescape_cell(v) for k, v in row.items()}


def safe_row(row: dict) -> dict:
    return {k: safe_cell(v) for k, v in row.items()}


def write_csv(fs, path: str, rows, columns) -> int:
    """Write `rows` (dicts) with `columns` through an fsspec filesystem; returns the count."""
    n = 0
    with fs.open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow(safe_row(row))
            n += 1
    return n


def csv_text(rows, columns) -> str:
    """The same as one string (the server's results export)."""
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        writer.writerow(safe_row(row))
    return out.getvalue()
