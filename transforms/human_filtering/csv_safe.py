"""CSV outputs a requester can open in a spreadsheet without running a worker's formula.

Worker ids, answers and feedback come from workers. A cell that starts with `=`, `+`,
`-` or `@` (or with tab or CR, which some spreadsheets skip before reading a formula) is
prefixed with `'` (OWASP's advice for CSV injection), and control characters are
stripped from every text cell. Numbers and booleans we computed are written as they are.
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
