"""Check a released dataset against docs/dataset-contract.md.

    python -m beam_pipelines.validate DIR/dataset [--max_violations 20] [--expect FINGERPRINT]

Checks every file against the sha256 in `_MANIFEST.json` (an entry without one is a
violation), the release fingerprint (the card's, and `--expect`'s), every row invariant,
the absence of leakage across splits (ids, passages, articles, passage texts, URLs,
near-duplicate clusters), the split policy's origins, stats.json, the ReCoRD JSON and
SuperGLUE exports field by field against the shards, and the lm_eval and explorer files.
A file it cannot read is a violation, never a traceback. Exits 1 naming the first
violations, 0 when clean (transforms/finalize/publish/validation.py).
"""
import logging
import sys

from transforms.finalize.publish.validation import (  # noqa: F401
    REQUIRED_FILES,
    check_manifest,
    check_near_dup_clusters,
    check_release,
    first_violations,
    release_fingerprint,
)

_check_near_dup_clusters = check_near_dup_clusters   # the name older tests use


def build_parser():
    from beam_pipelines.common import Parser
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", help="DIR/dataset")
    parser.add_argument("--max_violations", type=int, default=20,
                        help="how many violations to list (at least 1)")
    parser.add_argument("--expect", default=None, metavar="FINGERPRINT",
                        help="the release fingerprint you expect (the card's `sha256:...`, "
                             "as `build` printed it)")
    return parser


def run(argv=None, facts: dict = None) -> list:
    """The first `--max_violations` violations; an empty list means the dataset is valid.
    `facts` receives the release `fingerprint`."""
    args = build_parser().parse_args(argv)
    if args.max_violations < 1:
        raise SystemExit(f"error: --max_violations must be at least 1, got "
                         f"{args.max_violations} (see --help)")
    return first_violations(args.dataset, args.max_violations, args.expect, facts)


def main():
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    facts = {}
    violations = run(facts=facts)
    if violations:
        print(f"INVALID: first {len(violations)} violation(s):", file=sys.stderr)
        for v in violations:
            print(f"  {v}", file=sys.stderr)
        sys.exit(1)
    print(f"OK: every contract invariant holds; release fingerprint "
          f"sha256:{facts.get('fingerprint')}")


if __name__ == "__main__":
    main()
