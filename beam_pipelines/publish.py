"""Check a released dataset folder and upload it to the Hugging Face hub.

    python -m beam_pipelines.publish DIR/dataset OWNER/NAME [--token T] [--private] [--dry_run]
        [--allow_unknown_license]

Refuses (one line) unless `validate` passes, the card's YAML parses with the hub's fields
and train/validation/test configs, its license is not `unknown` (unless
--allow_unknown_license), and no internal file is in the folder; then uploads
exactly the released files with `HfApi.upload_folder` (token: --token or HF_TOKEN).
`--dry_run` lists what would go up. See transforms/finalize/publish/upload.py.
"""
from beam_pipelines import common


def build_parser():
    p = common.parser(__doc__.split("\n")[0])
    p.add_argument("dataset", help="the released DIR/dataset")
    p.add_argument("repo_id", help="the hub dataset repository, owner/name")
    p.add_argument("--token", default=None, help="Hugging Face token (default: $HF_TOKEN)")
    p.add_argument("--private", action="store_true", help="create the repository private")
    p.add_argument("--dry_run", action="store_true",
                   help="check the folder and list what would be uploaded; upload nothing")
    p.add_argument("--allow_unknown_license", action="store_true",
                   help="publish a card whose license is 'unknown' (refused by default: set "
                        "it with finalize's --license)")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds each request to the hub may wait for an answer (default: 60)")
    return p


def run(argv=None) -> dict:
    from transforms.finalize.publish import upload as publish
    args = build_parser().parse_args(argv)
    if not 0 < args.timeout < float("inf"):
        raise common.InputError(f"--timeout {args.timeout}: expected a positive number of seconds")
    plan = publish.publish(args.dataset, args.repo_id, args.token, args.private, args.dry_run,
                           args.allow_unknown_license, args.timeout)
    if args.dry_run:
        for name in plan["files"]:
            print(name)
        print(f"dry run: {len(plan['files'])} files, {plan['bytes']:,} bytes would go to "
              f"datasets/{args.repo_id}")
    return plan


def main():
    common.run_main(run, "publish")


if __name__ == "__main__":
    main()
