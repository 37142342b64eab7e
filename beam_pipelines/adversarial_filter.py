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
from beam_pipelines.command import StageCommand
from transforms.stages import BY_NAME


def add_paths(p):
    p.add_argument("--candidates", required=True, help="DIR/candidates (local or gs://)")
    p.add_argument("--adversary", required=True, help="DIR/adversary written by train_folds")
    p.add_argument("--output", required=True, help="DIR/filtered")


def paths(args) -> dict:
    return {"candidates": args.candidates, "adversary": args.adversary, "output": args.output}


COMMAND = StageCommand(BY_NAME["adversarial_filter"], __doc__, add_paths, paths)
build_parser, config_from_args, graph, run, main = COMMAND.entry_points()

if __name__ == "__main__":
    main()
