"""Train the k fold readers of the adversarial filter (paper section 3.3).

    python -m beam_pipelines.train_folds --candidates DIR/candidates --output DIR/adversary \
        --model {lexical,transformer} [--folds 5] [--accelerator_type nvidia-tesla-t4] \
        [settings] [Beam options]

Every candidate is featurized once into Parquet shards; then one element per fold, so k
workers train in parallel, each streaming the shards through a shuffle buffer
(--shuffle_buffer rows at most); each writes DIR/adversary/fold-<i>/ (model.pt,
metadata.json, the tokenizer for `transformer`), then DIR/adversary/stats/train_folds.json
(held-out accuracy, the funnel, max_rows_in_memory, max_group).
"""
from beam_pipelines import common
from transforms.core import config as C
from transforms.core.resources import add_gpu_args, gpu_hints
from transforms.machine_filtering.config import TrainConfig, TrainPaths, TrainSettings

SETTINGS = tuple(C.leaves(TrainSettings))


def build_parser():
    p = common.parser(__doc__.split("\n")[0])
    p.add_argument("--candidates", required=True, help="DIR/candidates (local or gs://)")
    p.add_argument("--output", required=True, help="DIR/adversary")
    common.add_workers_flag(p, "one per fold, at most one per core")
    C.add_flags(p, SETTINGS, "training settings")
    add_gpu_args(p)
    return p


def config_from_args(args) -> TrainConfig:
    settings = C.override(TrainSettings(), SETTINGS, C.given(args, SETTINGS))
    return TrainConfig(TrainPaths(args.candidates, args.output), settings)


def graph(p, argv, build_args=None):
    """Build the graph on `p` without running it (runners' --dry_run)."""
    from transforms.machine_filtering import train_stage
    args, _ = common.parse(build_parser(), argv)
    train_stage.graph(p, config_from_args(args), gpu_hints(args))
    return args


def run(argv=None) -> dict:
    from transforms.core.stage import Runtime
    from transforms.machine_filtering import train_stage
    args, beam_args = common.parse(build_parser(), argv)
    runtime = Runtime(beam_args, args.workers, tuple(gpu_hints(args).items()))
    return train_stage.run(config_from_args(args), runtime)


def main():
    common.run_main(run, "train_folds")


if __name__ == "__main__":
    main()
