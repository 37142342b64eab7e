"""Turn the adversarially filtered candidates into the released dataset (paper section 3.4).

    python -m beam_pipelines.finalize --filtered DIR/filtered --output DIR/dataset \
        [--validated DIR/validated] [--run_dir DIR] [split policy flags] [Beam options]

kept queries -> drop duplicate queries -> human validation -> article groups -> splits ->
Parquet shards, ReCoRD JSON, SuperGLUE jsonl, article fates, stats.json (one funnel from
files read to released queries), dataset card. Written under `<output>.tmp` and moved into
place only when every check holds. See docs/finalize.md.
"""
from beam_pipelines import common
from transforms.core import config as C
from transforms.finalize.config import FinalizeConfig, FinalizePaths, FinalizeSettings

SETTINGS = tuple(C.leaves(FinalizeSettings))


def build_parser():
    p = common.parser(__doc__.split("\n")[0])
    p.add_argument("--filtered", required=True, help="DIR/filtered (reads kept/ and stats/)")
    p.add_argument("--output", required=True, help="DIR/dataset")
    p.add_argument("--validated", default=None,
                   help="human-validation verdicts: a folder of *.parquet (or "
                        "validated/*.parquet, validated.jsonl) with id and valid_for")
    p.add_argument("--run_dir", default=None,
                   help="DIR holding stats/generate.json and articles/ (default: the parent "
                        "of --filtered)")
    common.add_workers_flag(p)
    C.add_flags(p, SETTINGS, "finalize settings (the released layout's defaults)")
    return p


def config_from_args(args) -> FinalizeConfig:
    try:
        settings = C.override(FinalizeSettings(), SETTINGS, C.given(args, SETTINGS))
    except ValueError as err:
        raise common.InputError(str(err)) from None
    return FinalizeConfig(FinalizePaths(args.filtered, args.output, args.validated,
                                        args.run_dir), settings)


def graph(p, argv, build_args=None):
    """The job's graph on pipeline `p`, without running it or reading any input (the
    runners' --dry_run)."""
    args, _ = common.parse(build_parser(), argv)
    from transforms.finalize import stage
    stage.graph(p, config_from_args(args))
    return args


def run(argv=None) -> dict:
    """Check the inputs, run the job; returns the stats.json it wrote."""
    args, beam_args = common.parse(build_parser(), argv)
    from transforms.core.stage import Runtime
    from transforms.finalize import stage
    return stage.run(config_from_args(args), Runtime(beam_args=beam_args, workers=args.workers))


def main():
    common.run_main(run, "finalize")


if __name__ == "__main__":
    main()
