"""Turn the adversarially filtered candidates into the released dataset (paper section 3.4).

    python -m beam_pipelines.finalize --filtered DIR/filtered --output DIR/dataset \
        [--validated DIR/validated] [--run_dir DIR] [split policy flags] [Beam options]

kept queries -> drop duplicate queries -> human validation -> article groups -> splits ->
Parquet shards, ReCoRD JSON, SuperGLUE jsonl, article fates, stats.json (one funnel from
files read to released queries), dataset card. Written under `<output>.tmp` and moved into
place only when every check holds. See docs/finalize.md.
"""
from beam_pipelines.command import StageCommand
from transforms.stages import BY_NAME


def add_paths(p):
    p.add_argument("--filtered", required=True, help="DIR/filtered (reads kept/ and stats/)")
    p.add_argument("--output", required=True, help="DIR/dataset")
    p.add_argument("--validated", default=None,
                   help="human-validation verdicts: a folder of *.parquet (or "
                        "validated/*.parquet, validated.jsonl) with id and valid_for")
    p.add_argument("--run_dir", default=None,
                   help="DIR holding stats/generate.json and articles/ (default: the parent "
                        "of --filtered)")


def paths(args) -> dict:
    return {"filtered": args.filtered, "output": args.output, "validated": args.validated,
            "run_dir": args.run_dir}


COMMAND = StageCommand(BY_NAME["finalize"], __doc__, add_paths, paths)
build_parser, config_from_args, graph, run, main = COMMAND.entry_points()

if __name__ == "__main__":
    main()
