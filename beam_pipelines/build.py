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
from transforms.compose import SECTIONS, compose, load_toml, to_toml
from transforms.core import config as C
from transforms.core.resources import add_gpu_args, gpu_hints
from transforms.stages import BY_NAME, STAGE_NAMES, BuildConfig


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


def config_from_args(args) -> BuildConfig:
    toml = load_toml(args.config) if args.config else {}
    return compose(args, toml, args.config or "flags", inputs_with_origins)


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
    if config.paths.results:
        from transforms.core.preflight import check_remote
        check_remote(config.paths.results)
        from transforms.core.io_utils import glob
        if not glob(config.paths.results):
            raise common.InputError(f"--results {config.paths.results}: no such file")
    generate = BY_NAME["generate"]
    return generate.preflight(generate.config_in_build(config, config.paths.output))


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
