"""Human validation stage (paper section 3.4): export HITs, give workers their links, serve
the HITs, ingest the answers.

  export  --filtered DIR/filtered --output DIR/hits [--per_hit N] [--gold_share S]
          MTurk batch CSV + task page, Label Studio tasks, gold HITs, Prolific code
  workers add NAME... --db DB [--base_url URL] [--role worker|admin|study]
          one personal link per worker (with its secret token); `workers list`, `revoke`
  serve   --hits DIR/hits --db annotations.sqlite [--host 127.0.0.1] [--port P]
          the HIT pages for workers holding a token; answers stored in SQLite
  ingest  --results RESULTS.csv|annotations.sqlite|labelstudio.json --output DIR/validated
          worker checks (first answer per query, gold accuracy), one verdict per triple
"""
import argparse
import csv
import logging
import sqlite3
import sys

from transforms.core import config as C
from transforms.human_filtering import worker_quality as Q
from transforms.human_filtering.fields import FieldError, UserError

LOG = logging.getLogger(__name__)
QUALITY = list(C.leaves(Q.QualityConfig))


def _serve_leaves() -> list:
    from transforms.human_filtering.app import ServeConfig
    return list(C.leaves(ServeConfig))


def _dashed(parser, leaves_) -> None:
    """The dashed spellings of underscore flags still work (hidden from --help)."""
    for leaf in leaves_:
        if "_" in leaf.flag:
            kind = {"action": argparse.BooleanOptionalAction} if leaf.type is bool \
                else {"type": leaf.type}
            parser.add_argument("--" + leaf.flag.replace("_", "-"), dest=leaf.flag,
                                default=argparse.SUPPRESS, help=argparse.SUPPRESS, **kind)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="record-human-validation", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("export", help="write the HITs: MTurk, Label Studio, the local server")
    p.add_argument("--filtered", required=True,
                   help="DIR/filtered (reads kept/*.parquet) or a dir of candidate Parquet")
    p.add_argument("--output", required=True, help="DIR/hits")
    p.add_argument("--per_hit", "--per-hit", type=int, default=1, help="triples per HIT (paper: 1)")
    p.add_argument("--limit", type=int, default=None, help="export only the first N triples")
    p.add_argument("--gold_share", type=float, default=0.0,
                   help="share of the triples that become gold HITs (known answers), mixed "
                        "into each worker's queue at that rate (default 0; 0.1 is usual)")
    p.add_argument("--gold_ids", default=None,
                   help="file of query ids (one a line) to use as the gold HITs instead")
    p.add_argument("--prolific_completion_code", default=None,
                   help="the Prolific study's completion code: a finished participant is "
                        "sent to its completion link")

    p = sub.add_parser("workers", help="personal links: add, list, revoke")
    wsub = p.add_subparsers(dest="action", required=True)
    w = wsub.add_parser("add", help="create workers and print one link each")
    w.add_argument("names", nargs="+", metavar="NAME")
    w.add_argument("--db", required=True, help="the annotation database serve uses")
    w.add_argument("--base_url", default="http://127.0.0.1:8000",
                   help="where workers reach `serve` (default http://127.0.0.1:8000)")
    w.add_argument("--role", choices=("worker", "admin", "study"), default="worker",
                   help="admin: the requester's views; study: a Prolific study link")
    for action in ("list", "revoke"):
        w = wsub.add_parser(action, help=action + " workers")
        if action == "revoke":
            w.add_argument("names", nargs="+", metavar="NAME")
        w.add_argument("--db", required=True)

    p = sub.add_parser("serve", help="serve the HITs to workers holding a token")
    p.add_argument("--hits", required=True, help="DIR/hits written by export")
    p.add_argument("--db", required=True, help="SQLite file the answers go to")
    p.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000)
    C.add_flags(p, _serve_leaves(), "serving")

    p = sub.add_parser("ingest", help="check workers and validate triples")
    p.add_argument("--results", required=True,
                   help="MTurk results CSV, annotations.sqlite, or a Label Studio JSON export")
    p.add_argument("--output", required=True, help="DIR/validated")
    p.add_argument("--hits", default=None, help="DIR/hits (needed for a Label Studio export)")
    C.add_flags(p, QUALITY, "worker quality (the paper's numbers are the defaults)")
    _dashed(p, QUALITY)
    return parser


def _workers(args):
    from transforms.human_filtering import tokens
    if args.action == "add":
        made = tokens.add(args.db, args.names, args.role)
        for name, token in made:
            print("%s\t%s" % (name, tokens.link(args.base_url, args.role, token)))
        return made
    if args.action == "revoke":
        done = tokens.revoke(args.db, args.names)
        print("revoked: %s" % " ".join(done))
        return done
    rows = tokens.listing(args.db)
    print("worker_id\trole\tanswers\tcreated_at\trevoked_at")
    for r in rows:
        print("%s\t%s\t%d\t%s\t%s" % (r["worker_id"], r["role"], r["answers"],
                                      r["created_at"], r["revoked_at"] or "-"))
    return rows


def _serve(args):
    from transforms.human_filtering.app import ServeConfig
    from transforms.human_filtering.server import Server
    cfg = C.override(ServeConfig(), _serve_leaves(), C.given(args, _serve_leaves()))
    server = Server(args.hits, args.db, args.host, args.port, cfg)
    print("serving %d HITs on %s/ (Ctrl-C to stop); give workers their links with "
          "`workers add NAME --db %s`" % (len(server.store.hits), server.url, args.db),
          flush=True)
    server.serve_forever()


def run(argv=None):
    args = _parser().parse_args(argv)
    if args.command == "export":
        from transforms.human_filtering.export import export
        return export(args.filtered, args.output, args.per_hit, args.limit, args.gold_share,
                      args.gold_ids, args.prolific_completion_code)
    if args.command == "ingest":
        from transforms.human_filtering.ingest import ingest
        cfg = C.override(Q.QualityConfig(), QUALITY, C.given(args, QUALITY))
        return ingest(args.results, args.output, cfg, args.hits)
    if args.command == "workers":
        return _workers(args)
    return _serve(args)


def main():
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        run(sys.argv[1:])
    except (UserError, FieldError, OSError, sqlite3.DatabaseError, csv.Error, ValueError,
            RecursionError) as err:   # bad input: one line, never a traceback
        raise SystemExit("error: %s" % err) from None
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
