"""Read a release before trusting it: a reproducible random sample of released queries
to label, and the labels read back onto the dataset card.

    python -m beam_pipelines.audit RUN [--sample 40] [--seed 0] [--out DIR]
    python -m beam_pipelines.audit RUN --labels FILE

RUN is a run folder (its release in RUN/dataset) or a release folder itself. The first
form prints the sample as a Markdown sheet (passage with the answers in bold, query,
answers, entity labels, automated flags) and writes it, with a labels template, to
RUN/audit/ (or --out): the same release and seed always give the same items. The second
records a filled labels file (CSV `id,label[,notes]` or JSON lines; labels good,
artefact, wrong_answers, trivial, ambiguous) in RUN/audit/labels.json and puts the
measured item quality, with its n and 95% intervals, into the release's stats.json and
card (the manifest is rewritten; finalize applies the same labels when it reruns). See
docs/audit.md.
"""
import sys

from beam_pipelines.common import parser, run_main


def parse_args(argv):
    ap = parser(__doc__.split("\n\n")[0])
    ap.add_argument("run", help="a run folder (with dataset/) or a release folder")
    ap.add_argument("--sample", type=int, default=40, help="queries to draw (default: 40)")
    ap.add_argument("--seed", type=int, default=0, help="the draw's seed (default: 0)")
    ap.add_argument("--labels", default=None, help="a filled labels file to record")
    ap.add_argument("--out", default=None, help="where the sheet goes (default: RUN/audit)")
    args = ap.parse_args(argv)
    if args.sample < 1:
        ap.error("--sample must be at least 1")
    return args


def run(argv=None) -> str:
    """Draw and write the sample, or record the labels; returns what the command prints."""
    args = parse_args(argv)
    from transforms.audit.audit import locate, main_labels, main_sample
    run_dir, dataset = locate(args.run)
    if args.labels:
        return main_labels(run_dir, dataset, args.labels)
    return main_sample(run_dir, dataset, args.sample, args.seed, args.out)


def main():
    run_main(lambda: print(run(sys.argv[1:])), "audit")


if __name__ == "__main__":
    main()
