"""A build's configuration composed: the defaults (the paper's numbers), then the
`--config` TOML file, then flags; and written back as TOML (`build --print_config`).
`beam_pipelines/build.py` parses the flags and calls `compose`."""
import argparse
import dataclasses
from typing import Callable

from transforms.core import config as C
from transforms.core.preflight import InputError
from transforms.stages import (
    STAGE_NAMES,
    STAGES,
    BuildConfig,
    BuildPaths,
    BuildSettings,
    shared_conflicts,
)

#: (stage name, leaves of its settings) in pipeline order.
SECTIONS = tuple((s.name, tuple(C.leaves(s.settings))) for s in STAGES)


def flag_owners() -> dict:
    """{flag: [stage, ...]}: a flag several stages declare applies to all of them."""
    owners = {}
    for name, leaves in SECTIONS:
        for leaf in leaves:
            owners.setdefault(leaf.flag, []).append(name)
    return owners


def load_toml(path: str) -> dict:
    import tomllib
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise InputError(f"--config {path}: no such file") from None
    except tomllib.TOMLDecodeError as err:
        raise InputError(f"--config {path}: not valid TOML: {err}") from None


TOP_KEYS = ("input", "origin", "output", "results")


def compose(args: argparse.Namespace, toml: dict, where: str,
            inputs_of: Callable) -> BuildConfig:
    """Defaults, then the TOML file, then flags; `inputs_of(patterns, origins)` makes the
    input specs (the command's: its default is the bundled sample corpus)."""
    unknown = sorted(set(k for k, v in toml.items() if not isinstance(v, dict))
                     - set(TOP_KEYS)) + sorted(
        k for k, v in toml.items() if isinstance(v, dict) and k not in STAGE_NAMES)
    if unknown:
        raise InputError(f"{where}: unknown key(s) {', '.join(unknown)} (top level: "
                                f"{', '.join(TOP_KEYS)}; tables: {', '.join(STAGE_NAMES)})")
    from transforms.ingestion.specs import SpecError, check_top_level
    try:
        check_top_level(toml, where)
    except SpecError as err:
        raise InputError(str(err)) from None
    settings = BuildSettings()
    for name, leaves in SECTIONS:
        table = toml.get(name, {})
        try:
            section = C.override(getattr(settings, name), leaves, table, f"{where} [{name}]")
        except ValueError as err:
            raise InputError(str(err)) from None
        settings = _with(settings, name, section)
    owners = flag_owners()
    for name, leaves in SECTIONS:
        given = {flag: v for flag, v in C.given(args, leaves).items() if name in owners[flag]}
        if given:
            settings = _with(settings, name, C.override(getattr(settings, name), leaves, given))
    conflicts = shared_conflicts(settings)
    if conflicts:
        raise InputError(f"{where}: " + "; ".join(conflicts))
    inputs = args.input or _as_list(toml.get("input"))
    origins = args.origin or _as_list(toml.get("origin"))
    output = args.output or toml.get("output")
    if not output and not getattr(args, "print_config", False):
        raise InputError("--output is required (or `output = ...` in --config)")
    results = args.results or toml.get("results") or None
    return BuildConfig(BuildPaths(inputs_of(inputs, origins), output, results), settings)


def _with(settings, name, section):
    return dataclasses.replace(settings, **{name: section})


def _as_list(value):
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def to_toml(config: BuildConfig) -> str:
    """The effective configuration as a TOML file `--config` reads back."""
    from transforms.ingestion.specs import as_spec
    paths = config.paths
    specs = [as_spec(i) for i in paths.inputs]
    tables = any(s.source or s.columns for s in specs)
    lines = ["# effective configuration: defaults, then --config, then flags"]
    if not tables:
        lines += [f"input = {C.toml_value([s.pattern for s in specs])}",
                  f"origin = {C.toml_value([s.origin or 'auto' for s in specs])}"]
    lines.append(f"output = {C.toml_value(paths.output)}" if paths.output
                 else "# output = (required: a folder or gs:// URL)")
    lines.append(f"results = {C.toml_value(paths.results)}" if paths.results
                 else "# results = (none)")
    for spec in specs if tables else ():
        lines += ["", "[[input]]", f"path = {C.toml_value(spec.pattern)}",
                  f"origin = {C.toml_value(spec.origin or 'auto')}"]
        if spec.source:
            lines.append(f"source = {C.toml_value(spec.source)}")
        if spec.columns:
            lines.append(f"columns = {C.toml_value(spec.columns)}")
    for name, leaves in SECTIONS:
        lines += ["", f"[{name}]"]
        section = getattr(config.settings, name)
        for leaf in leaves:
            value = C.value_at(section, leaf)
            lines.append(f"{leaf.flag} = {C.toml_value(value)}" if value is not None
                         else f"# {leaf.flag} = (unset)")
    return "\n".join(lines) + "\n"


