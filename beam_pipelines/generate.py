"""Generation job: news articles -> ReCoRD-style cloze candidates (paper sections 3.1-3.2).

    python -m beam_pipelines.generate --input PATTERN [--input PATTERN ...] \
        [--origin NAME ...] --output DIR [settings] [Beam options]

Writes DIR/candidates/*.parquet, DIR/rejected/*.parquet, DIR/articles/*.parquet and
DIR/stats/generate.json (see docs/dataset-contract.md). With no --input it runs on the
bundled sample corpus.
"""
import argparse

from beam_pipelines import common
from beam_pipelines.command import StageCommand
from transforms.stages import BY_NAME


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


def add_paths(p: argparse.ArgumentParser) -> None:
    add_path_flags(p)
    p.add_argument("--output", required=True, help="the run directory (local or gs://)")


def paths(args) -> dict:
    return {"inputs": inputs_with_origins(args.input, args.origin), "output": args.output}


COMMAND = StageCommand(BY_NAME["generate"], __doc__, add_paths, paths)
build_parser, config_from_args, graph, run, main = COMMAND.entry_points()

if __name__ == "__main__":
    main()
