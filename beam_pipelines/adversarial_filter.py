"""Score every candidate with the reader of its own fold and/or AFLite and keep those no
adversary answers (paper section 3.3: SAN answered 68% of the triples; only the rest were
kept).

    python -m beam_pipelines.adversarial_filter --candidates DIR/candidates \
        --adversary DIR/adversary --output DIR/filtered [--adversary_kind kfold+aflite|kfold|aflite]
        [--accelerator_type ...] [Beam options]

Writes DIR/filtered/scored/*.parquet (every candidate with adversary_prediction and
adversary_correct, both null where it failed to score), kept/*.parquet (adversary_correct
== False, then through the release rules: docs/adversary.md), errors/*.parquet (id, fold,
error), rejected/*.parquet and stats/adversarial_filter.json. A fold model that does not load, or errors above
--max_error_share (default 0), fail the command with one line.
"""
from beam_pipelines import common
from transforms.core import config as C
from transforms.core.resources import add_gpu_args, gpu_hints
from transforms.machine_filtering.config import FilterConfig, FilterPaths, FilterSettings

SETTINGS = tuple(C.leaves(FilterSettings))


def build_parser():
    p = common.parser(__doc__.split("\n")[0])
    p.add_argument("--candidates", required=True, help="DIR/candidates (local or gs://)")
    p.add_argument("--adversary", required=True, help="DIR/adversary written by train_folds")
    p.add_argument("--output", required=True, help="DIR/filtered")
    common.add_workers_flag(p)
    C.add_flags(p, SETTINGS, "filter settings")
    add_gpu_args(p)
    return p


def config_from_args(args) -> FilterConfig:
    settings = C.override(FilterSettings(), SETTINGS, C.given(args, SETTINGS))
    return FilterConfig(FilterPaths(args.candidates, args.adversary, args.output), settings)


def graph(p, argv, build_args=None):
    """Build the graph on `p` without running it (runners' --dry_run). The fold models do
    not exist yet then: the plan has one handler per fold of `build_args` (model, folds)."""
    from transforms.machine_filtering import filter_stage
    args, _ = common.parse(build_parser(), argv)
    config = config_from_args(args)
    model = getattr(build_args, "model", "lexical")
    folds = getattr(build_args, "folds", 5)
    metas = [{"fold": f, "folds": folds, "model": model, "model_params": {},
              "checkpoint": "model.pt"} for f in range(folds) if config.settings.uses_kfold()]
    hints = gpu_hints(args)
    filter_stage.graph(p, config, metas, filter_stage.handler_device(config.settings.device,
                                                                     hints),
                       hints, check_files=False)
    return args


def run(argv=None) -> dict:
    from transforms.core.stage import Runtime
    from transforms.machine_filtering import filter_stage
    args, beam_args = common.parse(build_parser(), argv)
    runtime = Runtime(beam_args, args.workers, tuple(gpu_hints(args).items()))
    return filter_stage.run(config_from_args(args), runtime)


def main():
    common.run_main(run, "adversarial_filter")


if __name__ == "__main__":
    main()
