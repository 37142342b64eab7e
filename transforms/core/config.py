"""Frozen settings dataclasses as the one source of a stage's knobs.

A stage's settings are a frozen dataclass (sections may nest); each leaf field is declared
with `setting(default, help)`, so the same declaration gives:
- the command-line flag (`--<flag>`, help text, one default shown) of the stage command and
  of `build`;
- the key of the `[stage]` table of a `build --config run.toml` file;
- the fingerprint the completion markers record (every field, defaults included).

Light on purpose: importing it pulls in no Beam, spaCy or torch, so `--help` stays fast.
"""
import argparse
import dataclasses
import hashlib
import json
import math
import typing
from typing import Any, Callable, Iterator, Optional

_MISSING = dataclasses.MISSING


def setting(default=_MISSING, help: str = "", *, flag: Optional[str] = None,
            parse: Optional[Callable] = None, choices=None, show: Optional[str] = None,
            default_factory=_MISSING, cli: bool = True):
    """A settings field. `flag`: the flag/TOML name (default: the field name); `parse`:
    converts the flag's string; `show`: how the default reads in --help; `cli=False`: a
    field set only by the program (still fingerprinted)."""
    meta = {"help": help, "flag": flag, "parse": parse, "choices": choices, "show": show,
            "cli": cli}
    if default_factory is not _MISSING:
        return dataclasses.field(default_factory=default_factory, metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


@dataclasses.dataclass(frozen=True)
class Leaf:
    """One leaf setting: where it sits in the dataclass tree and how it is spelled."""
    path: tuple          # field names from the root settings object
    flag: str
    type: Any
    default: Any
    help: str
    parse: Optional[Callable]
    choices: Any
    show: Optional[str]


def _is_settings(tp) -> bool:
    return isinstance(tp, type) and dataclasses.is_dataclass(tp)


def _default_of(f: dataclasses.Field):
    if f.default is not _MISSING:
        return f.default
    if f.default_factory is not _MISSING:   # type: ignore[misc]
        return f.default_factory()          # type: ignore[misc]
    return _MISSING


def leaves(cls, prefix: tuple = ()) -> Iterator[Leaf]:
    """Every command-line leaf of a settings dataclass, depth first in declaration order."""
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        tp = hints[f.name]
        meta = f.metadata
        if not meta.get("cli", True):
            continue
        if _is_settings(tp):
            yield from leaves(tp, prefix + (f.name,))
            continue
        yield Leaf(prefix + (f.name,), meta.get("flag") or f.name, tp, _default_of(f),
                   meta.get("help", ""), meta.get("parse"), meta.get("choices"),
                   meta.get("show"))


def _scalar_type(tp):
    """(python type, optional?) of a leaf annotation."""
    args = typing.get_args(tp)
    if typing.get_origin(tp) is typing.Union and type(None) in args:
        inner = [a for a in args if a is not type(None)]
        return (inner[0] if len(inner) == 1 else str), True
    return tp, False


def _shown(leaf: Leaf) -> str:
    if leaf.show is not None:
        return leaf.show
    d = leaf.default
    if d is None:
        return "unset"
    if isinstance(d, bool):
        return "on" if d else "off"
    if isinstance(d, tuple):
        return ",".join(map(str, d)) or "none"
    return str(d)


def finite_float(value) -> float:
    """A float flag or TOML value: NaN and infinities are refused (`nan` once turned the
    near-duplicate clustering off without a word: every comparison with NaN is false)."""
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {value!r}") from None
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {value!r}")
    return number


def _csv(value: str) -> tuple:
    return tuple(v.strip() for v in value.split(",") if v.strip())


def _parser_for(leaf: Leaf):
    if leaf.parse:
        return leaf.parse
    tp, _ = _scalar_type(leaf.type)
    origin = typing.get_origin(tp) or tp
    if origin is tuple:
        return _csv
    if tp is float:
        return finite_float
    if tp in (int, str):
        return tp
    return str


def add_flags(parser: argparse.ArgumentParser, leaves_: list, title: Optional[str] = None,
              seen: Optional[set] = None) -> None:
    """Add one flag per leaf; values stay unset (SUPPRESS) unless given, so callers can tell
    overrides from defaults. A flag already in `seen` is skipped (shared by two stages)."""
    group = parser.add_argument_group(title) if title else parser
    for leaf in leaves_:
        if seen is not None:
            if leaf.flag in seen:
                continue
            seen.add(leaf.flag)
        text = f"{leaf.help} (default: {_shown(leaf)})" if leaf.help else f"(default: {_shown(leaf)})"
        text = text.replace("%", "%%")
        tp, _ = _scalar_type(leaf.type)
        if tp is bool:
            group.add_argument(f"--{leaf.flag}", action=argparse.BooleanOptionalAction,
                               default=argparse.SUPPRESS, help=text)
        else:
            group.add_argument(f"--{leaf.flag}", type=_parser_for(leaf), choices=leaf.choices,
                               default=argparse.SUPPRESS, help=text, metavar=_metavar(leaf))


def _metavar(leaf: Leaf) -> str:
    tp, _ = _scalar_type(leaf.type)
    if leaf.choices:
        return "{" + ",".join(map(str, leaf.choices)) + "}"
    return {int: "N", float: "X"}.get(tp, "VALUE")


def given(namespace: argparse.Namespace, leaves_: list) -> dict:
    """{flag: value} of the leaves set on the command line."""
    return {leaf.flag: getattr(namespace, leaf.flag) for leaf in leaves_
            if hasattr(namespace, leaf.flag)}


def _replace_path(obj, path: tuple, value):
    if len(path) == 1:
        return dataclasses.replace(obj, **{path[0]: value})
    child = getattr(obj, path[0])
    return dataclasses.replace(obj, **{path[0]: _replace_path(child, path[1:], value)})


def coerce(leaf: Leaf, value, where: str):
    """A TOML (or JSON) value checked and converted to the leaf's type."""
    tp, optional = _scalar_type(leaf.type)
    if value is None:
        if optional:
            return None
        raise ValueError(f"{where}: {leaf.flag} cannot be empty")
    if isinstance(value, str) and (leaf.parse or typing.get_origin(tp) is tuple):
        return _parser_for(leaf)(value)
    if leaf.parse and not isinstance(value, (list, tuple, dict)):
        return leaf.parse(str(value))
    origin = typing.get_origin(tp) or tp
    if origin is tuple:
        if isinstance(value, dict):
            return tuple(sorted(value.items()))
        if not isinstance(value, (list, tuple)):
            raise ValueError(f"{where}: {leaf.flag} must be a list, got {value!r}")
        return tuple(tuple(v) if isinstance(v, list) else v for v in value)
    if tp is bool:
        if not isinstance(value, bool):
            raise ValueError(f"{where}: {leaf.flag} must be true or false, got {value!r}")
        return value
    if tp is float and isinstance(value, (int, float)) and not isinstance(value, bool):
        if not math.isfinite(value):
            raise ValueError(f"{where}: {leaf.flag} must be a finite number, got {value!r}")
        value = float(value)
    if tp in (int, float, str) and not isinstance(value, tp) or isinstance(value, bool) and tp is not bool:
        raise ValueError(f"{where}: {leaf.flag} must be {tp.__name__}, got {value!r}")
    if leaf.choices and value not in leaf.choices:
        raise ValueError(f"{where}: {leaf.flag} must be one of {list(leaf.choices)}, got {value!r}")
    return value


def override(obj, leaves_: list, values: dict, where: str = "flags"):
    """A copy of settings `obj` with `values` ({flag: value}) applied; unknown flags raise."""
    by_flag = {leaf.flag: leaf for leaf in leaves_}
    unknown = sorted(set(values) - set(by_flag))
    if unknown:
        raise ValueError(f"{where}: unknown setting(s) {', '.join(unknown)}")
    for flag, value in values.items():
        leaf = by_flag[flag]
        obj = _replace_path(obj, leaf.path, coerce(leaf, value, where))
    return obj


def value_at(obj, leaf: Leaf):
    for name in leaf.path:
        obj = getattr(obj, name)
    return obj


def flat(obj, leaves_: list) -> dict:
    """{flag: value} of every leaf of `obj`, in declaration order."""
    return {leaf.flag: value_at(obj, leaf) for leaf in leaves_}


def as_dict(obj) -> dict:
    """Every field of a settings object (nested), JSON-friendly: the fingerprint's input."""
    def plain(v):
        if dataclasses.is_dataclass(v):
            return {f.name: plain(getattr(v, f.name)) for f in dataclasses.fields(v)}
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        if isinstance(v, dict):
            return {str(k): plain(x) for k, x in sorted(v.items())}
        return v
    return plain(obj)


def digest(obj) -> str:
    """A stable hash of every field of `obj`, defaults included."""
    blob = json.dumps(as_dict(obj), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def toml_value(value) -> str:
    """One value in TOML syntax (the subset settings use)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, (list, tuple)) and len(v) == 2 for v in value):
            return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value) + " }"
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(str(value))
