"""One command from corpus to released dataset, resumable.

    python -m beam_pipelines.build [--input PATTERN ...] --output DIR [--config run.toml] \
        [any stage setting, e.g. --min_entities 5 --model transformer --paper_split_policy] \
        [--results RESULTS] [--force STAGE] [--overwrite] [--limit N] [--print_config] \
        [Beam options, e.g. --runner DataflowRunner ...]

Runs generate -> train_folds -> adversarial_filter -> [human_validation ingest] -> finalize
(transforms/stages.py). Settings come from the defaults (the paper's numbers), then the
`--config` TOML file, then flags; `--print_config` prints the result as TOML and exits.
Each stage writes under DIR/.staging/<stage>/, is moved into place when it ends, and gets a
completion marker DIR/_build/<stage>.json with its fingerprint (transforms/builder.py).
"""
import argparse
import sys

from beam_pipelines import common
from beam_pipelines.generate import add_path_flags, inputs_with_origins
from transforms.core import config as C
from transforms.core.resources import add_gpu_args, gpu_hints
from transforms.stages import (STAGE_NAMES, STAGES, BuildConfig, BuildPaths, BuildSettings,
                               shared_conflicts)

#: (stage name, leaves of its settings) in pipeline order.
SECTIONS = tuple((s.name, tuple(C.leaves(type(s.settings(BuildSettings()))))) for s in STAGES)


def flag_owners() -> dict:
    """{flag: [stage, ...]}: a flag several stages declare applies to all of them."""
    owners = {}
    for name, leaves in SECTIONS:
        for leaf in leaves:
            owners.setdefault(leaf.flag, []).append(name)
    return owners


def build_parser() -> argparse.ArgumentParser:
    p = common.parser(__doc__.split("\n")[0])
    add_path_flags(p)
    p.add_argument("--output", help="the run folder (local or gs://); required unless given "
                                    "in --config")
    p.add_argument("--results", default=None,
                   help="human-validation results (MTurk CSV or annotations.sqlite) to "
                        "ingest before finalize")
    p.add_argument("--config", default=None, help="TOML file of settings: top-level input, "
                   "origin, output, results (or [[input]] tables with path, source, origin, "
                   "columns); one [stage] table per stage (see --print_config)")
    p.add_argument("--print_config", action="store_true",
                   help="print the effective configuration as TOML and exit")
    p.add_argument("--force", action="append", default=[], choices=STAGE_NAMES,
                   help="rerun this stage and every stage after it (repeatable)")
    p.add_argument("--overwrite", action="store_true",
                   help="rebuild a run folder that holds a run with other inputs or settings "
                        "(outputs tied to the old query ids are moved aside, not deleted)")
    common.add_workers_flag(p)
    seen = set()
    for name, leaves in SECTIONS:
        C.add_flags(p, leaves, f"{name} settings", seen)
    add_gpu_args(p)
    return p


def load_toml(path: str) -> dict:
    import tomllib
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise common.InputError(f"--config {path}: no such file") from None
    except tomllib.TOMLDecodeError as err:
        raise common.InputError(f"--config {path}: not valid TOML: {err}") from None


TOP_KEYS = ("input", "origin", "output", "results")


def compose(args, toml: dict, where: str) -> BuildConfig:
    """Defaults, then the TOML file, then flags."""
    unknown = sorted(set(k for k, v in toml.items() if not isinstance(v, dict))
                     - set(TOP_KEYS)) + sorted(
        k for k, v in toml.items() if isinstance(v, dict) and k not in STAGE_NAMES)
    if unknown:
        raise common.InputError(f"{where}: unknown key(s) {', '.join(unknown)} (top level: "
                                f"{', '.join(TOP_KEYS)}; tables: {', '.join(STAGE_NAMES)})")
    from transforms.ingestion.specs import SpecError, check_top_level
    try:
        check_top_level(toml, where)
    except SpecError as err:
        raise common.InputError(str(err)) from None
    settings = BuildSettings()
    for name, leaves in SECTIONS:
        table = toml.get(name, {})
        try:
            section = C.override(getattr(settings, name), leaves, table, f"{where} [{name}]")
        except ValueError as err:
            raise common.InputError(str(err)) from None
        settings = _with(settings, name, section)
    owners = flag_owners()
    for name, leaves in SECTIONS:
        given = {flag: v for flag, v in C.given(args, leaves).items() if name in owners[flag]}
        if given:
            settings = _with(settings, name, C.override(getattr(settings, name), leaves, given))
    conflicts = shared_conflicts(settings)
    if conflicts:
        raise common.InputError(f"{where}: " + "; ".join(conflicts))
    inputs = args.input or _as_list(toml.get("input"))
    origins = args.origin or _as_list(toml.get("origin"))
    output = args.output or toml.get("output")
    if not output and not getattr(args, "print_config", False):
        raise common.InputError("--output is required (or `output = ...` in --config)")
    results = args.results or toml.get("results") or None
    return BuildConfig(BuildPaths(inputs_with_origins(inputs, origins), output, results),
                       settings)


def _with(settings, name, section):
    import dataclasses
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


def config_from_args(args) -> BuildConfig:
    toml = load_toml(args.config) if args.config else {}
    return compose(args, toml, args.config or "flags")


def run(argv=None) -> dict:
    """Pre-flight, then every stage that is not already complete; returns the markers."""
    from transforms.builder import Builder
    from transforms.core.rundir import LockedError
    from transforms.core.stage import Runtime
    args, beam_args = common.parse(build_parser(), argv)
    config = config_from_args(args)
    if args.print_config:
        sys.stdout.write(to_toml(config))
        return {}
    extra = preflight(config)
    runtime = Runtime(beam_args, args.workers, tuple(gpu_hints(args).items()))
    builder = Builder(config, runtime, args.force, args.overwrite, extra)
    try:
        builder.run_dir.lock("build")
    except LockedError as err:
        raise common.InputError(str(err)) from None
    common.on_exit(builder.run_dir.unlock)
    try:
        markers = builder.run()
    finally:
        builder.run_dir.unlock()
    report(config)
    return markers


def preflight(config: BuildConfig) -> dict:
    """Inputs listed, output writable, before any pipeline starts (generate's checks)."""
    from beam_pipelines.generate import preflight as generate_preflight
    from transforms.generation.stage import GenerateConfig, GeneratePaths
    if config.paths.results:
        from transforms.core.preflight import check_remote
        check_remote(config.paths.results)
        from transforms.core.io_utils import glob
        if not glob(config.paths.results):
            raise common.InputError(f"--results {config.paths.results}: no such file")
    files, total = generate_preflight(GenerateConfig(
        GeneratePaths(config.paths.inputs, config.paths.output), config.settings.generate))
    return {"files": files, "total": total}


def report(config: BuildConfig) -> None:
    import logging
    from transforms.core.io_utils import join, read_json
    log = logging.getLogger("build")
    dataset = join(config.paths.output, "dataset")
    try:
        stats = read_json(join(dataset, "stats.json"))
        sizes = ", ".join(f"{s} {stats['table1'][s]['queries']}" for s in ("train", "dev", "test"))
    except Exception:  # noqa: BLE001 - the summary is a courtesy
        sizes = "see stats.json"
    log.info("build: dataset in %s (%s); read a few queries: python -m beam_pipelines.preview "
             "%s", dataset, sizes, config.paths.output)
    from transforms.finalize.exports.fingerprint import on_card
    print(f"release fingerprint {on_card(dataset)} (check a copy with python -m "
          f"beam_pipelines.validate DIR/dataset --expect FINGERPRINT)", flush=True)


def main():
    common.run_main(run, "build")


if __name__ == "__main__":
    main()
