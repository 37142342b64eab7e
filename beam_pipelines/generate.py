"""Generation job: news articles -> ReCoRD-style cloze candidates (paper sections 3.1-3.2).

    python -m beam_pipelines.generate --input PATTERN [--input PATTERN ...] \
        [--origin NAME ...] --output DIR [settings] [Beam options]

Writes DIR/candidates/*.parquet, DIR/rejected/*.parquet, DIR/articles/*.parquet and
DIR/stats/generate.json (see docs/dataset-contract.md). With no --input it runs on the
bundled sample corpus.
"""
import argparse

from beam_pipelines import common
from transforms.core import config as C
from transforms.generation.stage import GenerateSettings

SETTINGS = tuple(C.leaves(GenerateSettings))


def add_path_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--input", action="append", default=[],
                   help=".story, .jsonl/.json, .csv, .parquet, .arrow, .html, .warc or .txt "
                        "files (.gz too): a path or glob, local or gs://, or a folder written "
                        "by datasets' save_to_disk; repeatable (default: the bundled sample "
                        "corpus). Per-input settings after '::', e.g. 'data/*.csv::source="
                        "dailymail,text=story,summary=abstract' (keys: source, origin, id, "
                        "text, summary, title, url, date; see docs/ingest.md)")
    p.add_argument("--origin", action="append", default=[],
                   help="corpus partition of the matching --input (public, crawled); one value "
                        "applies to all inputs; auto: crawled for .html/.warc, else public "
                        "(default: auto)")


def build_parser() -> argparse.ArgumentParser:
    p = common.parser(__doc__.split("\n")[0])
    add_path_flags(p)
    p.add_argument("--output", required=True, help="the run directory (local or gs://)")
    common.add_workers_flag(p)
    C.add_flags(p, SETTINGS, "generation settings (the paper's numbers are the defaults)")
    return p


def inputs_with_origins(patterns, origins) -> tuple:
    """(InputSpec, ...): each --input (a string, or a config file's [[input]] table) with
    its settings; --origin applies where an input does not set its own."""
    from transforms.ingestion.specs import SpecError, from_toml
    patterns = patterns or common.sample_inputs()
    if not origins:
        origins = [""]
    if len(origins) == 1:
        origins = origins * len(patterns)
    if len(origins) != len(patterns):
        raise common.InputError(f"--origin given {len(origins)} times for {len(patterns)} "
                                "--input patterns: give one per input, or one for all")
    try:
        return tuple(from_toml(p, "--input", "" if o == "auto" else o)
                     for p, o in zip(patterns, origins))
    except SpecError as err:
        raise common.InputError(str(err)) from None


def config_from_args(args):
    from transforms.generation.stage import GenerateConfig, GeneratePaths
    settings = C.override(GenerateSettings(), SETTINGS, C.given(args, SETTINGS))
    paths = GeneratePaths(inputs_with_origins(args.input, args.origin), args.output)
    return GenerateConfig(paths, settings)


def graph(p, argv, build_args=None):
    """The job's graph on pipeline `p`, without running it (the runners' --dry_run)."""
    from transforms.generation import stage
    args, _ = common.parse(build_parser(), argv)
    stage.graph(p, config_from_args(args))
    return args


def run(argv=None) -> dict:
    """Pre-flight, then the job; returns the stats dict it wrote."""
    from transforms.core.stage import Runtime
    from transforms.generation import stage
    args, beam_args = common.parse(build_parser(), argv)
    config = config_from_args(args)
    files, total = preflight(config)
    return stage.run(config, Runtime(beam_args=beam_args, workers=args.workers), files, total)


def preflight(config):
    """Inputs listed and the output checked before any pipeline starts; returns the files
    the job reads ([InputFile], capped for --limit) and the records expected."""
    from transforms.core.preflight import check_writable
    from transforms.ingestion import inputs
    listed = inputs.list_inputs(config.paths.inputs)
    check_writable(config.paths.output)
    limit = config.settings.read.limit
    if limit is not None:
        files = inputs.limit_files(listed, limit)
        return files, limit
    total, _ = inputs.estimate_records(listed)
    return inputs.listed_files(listed), total


def main():
    common.run_main(run, "generate")


if __name__ == "__main__":
    main()
