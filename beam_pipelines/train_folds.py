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
from beam_pipelines.command import StageCommand
from transforms.stages import BY_NAME


def add_paths(p):
    p.add_argument("--candidates", required=True, help="DIR/candidates (local or gs://)")
    p.add_argument("--output", required=True, help="DIR/adversary")


def paths(args) -> dict:
    return {"candidates": args.candidates, "output": args.output}


COMMAND = StageCommand(BY_NAME["train_folds"], __doc__, add_paths, paths,
                       workers_help="one per fold, at most one per core")
build_parser, config_from_args, graph, run, main = COMMAND.entry_points()

if __name__ == "__main__":
    main()
