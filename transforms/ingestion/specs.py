"""Per-input settings (issue 19 item 3): the publisher, origin and column names of each input.

On the command line an input may carry them after `::`, and in a `build --config` file an
`[[input]]` table holds them:

    --input 'data/mail/*.csv::source=dailymail,text=story,summary=abstract'

    [[input]]
    path = "data/mail/*.csv"
    source = "dailymail"
    origin = "public"
    columns = { text = "story", summary = "abstract" }

`source`: the publisher of every record that does not name its own (a record's `source`
column wins; with neither, curation infers it from the URL or the text); `origin`: the
corpus partition (as `--origin`); a field name (`id`, `text`, `summary`, `title`, `url`,
`date`) = the column that holds it. `summary` is the highlights: a list of strings, or one
string with one highlight a line (as Hugging Face's `cnn_dailymail` holds them). A setting
given twice, two fields on one column, or a field on the column another field reads by
default (`summary=url`: URLs released as highlights) is refused with one line.
"""
import re
from typing import NamedTuple, Optional

#: field -> the columns read when no mapping names one (first present wins)
DEFAULT_COLUMNS = {"id": ("id",), "text": ("article", "text"), "summary": ("highlights",),
                   "title": ("title",), "url": ("url",), "date": ("date",)}
FIELDS = tuple(DEFAULT_COLUMNS)
ALIASES = {"article": "text", "highlights": "summary"}
KEYS = ("source", "origin") + FIELDS
_OPTIONS = re.compile(r"^[A-Za-z_]\w*\s*=")


class SpecError(ValueError):
    """A per-input setting that cannot be used (the message is one line for the user)."""


class InputSpec(NamedTuple):
    """One input: a path or glob (or a `datasets` folder) and its settings."""
    pattern: str
    origin: str = ""        # '' = by file type (crawled for .html/.warc, else public)
    source: str = ""        # '' = from each record, else inferred
    columns: tuple = ()     # ((field, column), ...) sorted; () = the default columns

    def options(self) -> dict:
        """The settings given (for display and fingerprints); {} when none."""
        out = {"origin": self.origin} if self.origin else {}
        if self.source:
            out["source"] = self.source
        out.update(self.columns)
        return out


def _field(key: str, where: str) -> str:
    key = ALIASES.get(key, key)
    if key not in FIELDS:
        raise SpecError(f"{where}: unknown column field {key!r} (fields: {', '.join(FIELDS)})")
    return key


def make_spec(pattern: str, origin: str = "", source: str = "", columns=None,
              where: str = "--input") -> InputSpec:
    columns = dict(columns or {})
    mapped = {}
    for key, column in columns.items():
        if not isinstance(column, str) or not column.strip():
            raise SpecError(f"{where}: column for {key!r} must be a non-empty name")
        field = _field(key, where)
        if field in mapped:
            raise SpecError(f"{where}: the {field} column is given twice ({key}=...); give "
                            "each field once")
        mapped[field] = column.strip()
    check_columns_distinct(mapped, where)
    for name, value in (("origin", origin), ("source", source)):
        if value is not None and not isinstance(value, str):
            raise SpecError(f"{where}: {name} must be a string, got {value!r}")
    origin = "" if origin == "auto" else origin
    return InputSpec(pattern, origin or "", source or "", tuple(sorted(mapped.items())))


def check_columns_distinct(mapped: dict, where: str) -> None:
    """One column feeds one field: two fields mapped to one column, or a field mapped to
    the column another field reads by default (`summary=url` would release each URL as a
    highlight), are refused with SpecError."""
    by_column = {}
    for field, column in sorted(mapped.items()):
        if column in by_column:
            raise SpecError(f"{where}: column {column!r} is mapped to both {by_column[column]} "
                            f"and {field}; one column feeds one field")
        by_column[column] = field
    for field, column in sorted(mapped.items()):
        for other, defaults in DEFAULT_COLUMNS.items():
            if other != field and other not in mapped and column in defaults:
                raise SpecError(f"{where}: {field}={column} maps the {field} to the column "
                                f"the {other} is read from, so {column!r} would be read as "
                                f"both; map the {other} to another column too (e.g. "
                                f"{other}=...), or the {field} to its own column")


def parse_input(text: str, origin: str = "") -> InputSpec:
    """`PATH` or `PATH::key=value,...` (see the module docstring); `origin`: --origin's."""
    head, sep, tail = text.rpartition("::")
    if not sep or not _OPTIONS.match(tail.strip()):
        return make_spec(text, origin)     # a plain path (fsspec's own `::` chains too)
    where = f"--input {text}"
    values, columns, seen = {"origin": origin}, {}, set()
    for item in tail.split(","):
        key, eq, value = (s.strip() for s in item.partition("="))
        if not eq or not value:
            raise SpecError(f"{where}: expected key=value, got {item.strip()!r}")
        name = ALIASES.get(key, key)
        if name in seen:
            raise SpecError(f"{where}: {name} is given twice; give each setting once")
        seen.add(name)
        if key in ("source", "origin"):
            values[key] = value
        elif ALIASES.get(key, key) in FIELDS:
            columns[key] = value
        else:
            raise SpecError(f"{where}: unknown setting {key!r} (settings: {', '.join(KEYS)})")
    return make_spec(head, values["origin"], values.get("source", ""), columns, where)


def from_toml(item, where: str, origin: str = "") -> InputSpec:
    """One `input` entry of a config file: a string (as on the command line) or a table."""
    if isinstance(item, str):
        return parse_input(item, origin)
    if not isinstance(item, dict):
        raise SpecError(f"{where}: an input is a path or a table, got {item!r}")
    unknown = sorted(set(item) - {"path", "source", "origin", "columns"})
    if unknown:
        raise SpecError(f"{where}: unknown key(s) {', '.join(unknown)} in [[input]] "
                        "(keys: path, source, origin, columns)")
    if not isinstance(item.get("path"), str):
        raise SpecError(f"{where}: [[input]] needs path = \"...\"")
    if not isinstance(item.get("columns", {}), dict):
        raise SpecError(f"{where}: columns must be a table, e.g. {{ text = \"story\" }}")
    return make_spec(item["path"], item.get("origin") or origin, item.get("source") or "",
                     item.get("columns"), f"{where} [[input]] {item['path']}")


def check_top_level(toml: dict, where: str) -> None:
    """A `build --config` file's top-level `input`, `origin`, `output` and `results` have
    the types they need (`input = 5` is no path), or SpecError naming the key."""
    for key in ("input", "origin"):
        value = toml.get(key)
        if value is None or isinstance(value, str):
            continue
        if not isinstance(value, list):
            raise SpecError(f"{where}: {key} must be a string or a list, got {value!r}")
        allowed = (str, dict) if key == "input" else (str,)
        bad = [v for v in value if not isinstance(v, allowed)]
        if bad:
            what = "a path or an [[input]] table" if key == "input" else "a string"
            raise SpecError(f"{where}: each {key} must be {what}, got {bad[0]!r}")
    for key in ("output", "results"):
        value = toml.get(key)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise SpecError(f"{where}: {key} must be a path (a non-empty string), got {value!r}")


def as_spec(item) -> InputSpec:
    """An InputSpec from an InputSpec or a (pattern, origin) pair."""
    if isinstance(item, InputSpec):
        return item
    if isinstance(item, str):
        return InputSpec(item)
    return InputSpec(*item)


def format_input(spec: InputSpec) -> str:
    """The command-line form of a spec (`PATH::key=value,...`)."""
    options = spec.options()
    if not options:
        return spec.pattern
    return spec.pattern + "::" + ",".join(f"{k}={v}" for k, v in options.items())


def column_for(columns: tuple, field: str, present) -> Optional[str]:
    """The column a field is read from: the mapped one, else the first default present."""
    for key, column in columns:
        if key == field:
            return column
    return next((c for c in DEFAULT_COLUMNS[field] if c in present), None)


def columns_problem(columns, mapping: Optional[InputSpec], missing_reason: str):
    """(reason, detail) when a file's columns (a CSV header) cannot give articles, else
    None: a mapped column the file lacks (`unknown_column`, naming the file's columns), or
    no text, summary or id/url column (`missing_reason`)."""
    columns = list(columns or [])
    mapped = mapping.columns if mapping else ()
    problem = unknown_columns(mapped, columns)
    if problem:
        return "unknown_column", problem
    missing = [column_for(mapped, f, columns) or DEFAULT_COLUMNS[f][0]
               for f in ("text", "summary")]
    missing = [c for c in missing if c not in columns]
    if not (column_for(mapped, "id", columns) or column_for(mapped, "url", columns)):
        missing.append("id")
    return (missing_reason, f"missing {missing}; found {sorted(columns)}") if missing else None


def unknown_columns(columns: tuple, present) -> Optional[str]:
    """A one-line problem when a mapped column is not among a file's columns, else None."""
    present = list(present)
    missing = [f"{field}={column}" for field, column in columns if column not in present]
    if missing:
        return (f"mapped column(s) not in the file: {', '.join(missing)}; the file's "
                f"columns: {', '.join(map(str, present))}")
    return None
