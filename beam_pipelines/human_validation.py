"""Human validation stage (paper section 3.4): export HITs, give workers their links, serve
the HITs, ingest the answers.

  export  --filtered DIR/filtered --output DIR/hits [--per_hit N] [--gold_share S]
          MTurk batch CSV + task page, Label Studio tasks, gold HITs, Prolific code
  workers add NAME... --db DB [--base_url URL] [--role worker|admin|study]
          one personal link per worker (with its secret token); `workers list`, `revoke`
  participants import --db DB --study NAME --export prolific_export.csv
          the Prolific participants a study link accepts (and ingest counts one by one)
  serve   --hits DIR/hits --db annotations.sqlite [--host 127.0.0.1] [--port P]
          the HIT pages for workers holding a token; answers stored in SQLite; a worker
          may answer only the HIT served to them, within --assignments and --hits_per_worker
          --show_model_answer: model in the loop (the adversary's answer, after the worker's)
  ingest  --results RESULTS.csv|annotations.sqlite|labelstudio.json --output DIR/validated
          worker checks (first answer per query, gold accuracy), one verdict per triple
  simulate --hits DIR/hits --db annotations.sqlite [--url http://127.0.0.1:PORT]
          seeded simulated workers answer through the running server (a study rehearsal)
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
DEFAULT_PORT = 8000
QUALITY = list(C.leaves(Q.QualityConfig))


def _serve_leaves() -> list:
    from transforms.human_filtering.app import ServeConfig
    return list(C.leaves(ServeConfig))


def _sim_leaves() -> list:
    from transforms.human_filtering.simulate import SimConfig
    return list(C.leaves(SimConfig))


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
    w.add_argument("--base_url", default=None,
                   help="where workers reach `serve` (default: the address `serve` last "
                        "listened on with this --db, else http://127.0.0.1:%d)" % DEFAULT_PORT)
    w.add_argument("--role", choices=("worker", "admin", "study"), default="worker",
                   help="admin: the requester's views; study: a Prolific study link")
    for action in ("list", "revoke"):
        w = wsub.add_parser(action, help=action + " workers")
        if action == "revoke":
            w.add_argument("names", nargs="+", metavar="NAME")
        w.add_argument("--db", required=True)

    p = sub.add_parser("participants", help="Prolific: the participants a study link accepts")
    psub = p.add_subparsers(dest="action", required=True)
    w = psub.add_parser("import", help="load a study's participants from Prolific's export "
                                       "(CSV with a 'Participant id' column)")
    w.add_argument("--db", required=True)
    w.add_argument("--study", required=True, help="the study link's name (workers add "
                                                  "NAME --role study)")
    w.add_argument("--export", required=True, help="Prolific's submissions export, CSV")

    p = sub.add_parser("serve", help="serve the HITs to workers holding a token")
    p.add_argument("--hits", required=True, help="DIR/hits written by export")
    p.add_argument("--db", required=True, help="SQLite file the answers go to")
    p.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help="port (default %d; 0 picks a free one)" % DEFAULT_PORT)
    C.add_flags(p, _serve_leaves(), "serving")

    p = sub.add_parser("ingest", help="check workers and validate triples")
    p.add_argument("--results", required=True,
                   help="MTurk results CSV, annotations.sqlite, or a Label Studio JSON export")
    p.add_argument("--output", required=True, help="DIR/validated")
    p.add_argument("--hits", default=None,
                   help="DIR/hits the results answer (needed for an MTurk CSV or a Label "
                        "Studio export: rows are checked against these HITs)")
    C.add_flags(p, QUALITY, "worker quality (the paper's numbers are the defaults)")
    _dashed(p, QUALITY)

    p = sub.add_parser("simulate", help="rehearse a study: seeded simulated workers answer "
                                        "through a running `serve` on 127.0.0.1")
    p.add_argument("--hits", required=True, help="DIR/hits the server serves")
    p.add_argument("--db", required=True, help="the server's database (the simulated "
                                               "workers and their tokens are added to it)")
    p.add_argument("--url", default=None, help="the server (default: where `serve` last "
                                               "listened with this --db); 127.0.0.1 only")
    p.add_argument("--workers", type=int, default=6, help="simulated workers (default 6)")
    p.add_argument("--prefix", default="sim", help="their names: PREFIX-01, PREFIX-02, ...")
    p.add_argument("--truth", default=None, help="write what each simulated answer was "
                                                 "meant to be here (JSON lines)")
    C.add_flags(p, _sim_leaves(), "simulated workers")
    return parser


def _workers(args):
    from transforms.human_filtering import tokens
    if args.action == "add":
        from transforms.human_filtering import db as D
        base_url = args.base_url or D.get_meta(args.db, "base_url")
        made = tokens.add(args.db, args.names, args.role)
        if base_url is None:
            base_url = "http://127.0.0.1:%d" % DEFAULT_PORT
            print("note: serve has not run with --db %s yet: the links assume %s (pass "
                  "--base_url if it will listen elsewhere)" % (args.db, base_url), file=sys.stderr)
        for name, token in made:
            print("%s\t%s" % (name, tokens.link(base_url, args.role, token)))
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
    from transforms.human_filtering import db as D
    D.set_meta(args.db, "base_url", server.url)
    print("serving %d HITs on %s/ (Ctrl-C to stop); give workers their links with "
          "`workers add NAME --db %s`" % (len(server.store.hits), server.url, args.db),
          flush=True)
    server.serve_forever()


def _simulate(args):
    import json

    from transforms.human_filtering import db as D
    from transforms.human_filtering import simulate, tokens
    cfg = C.override(simulate.SimConfig(), _sim_leaves(), C.given(args, _sim_leaves())).check()
    url = args.url or D.get_meta(args.db, "base_url")
    if not url:
        raise UserError("no --url, and `serve` has not run with --db %s" % args.db)
    if not 1 <= args.workers <= 1000:
        raise UserError("--workers must be 1 to 1000, got %d" % args.workers)
    simulate.Client(url)                      # 127.0.0.1 only: checked before any worker is made
    names = ["%s-%02d" % (args.prefix, i) for i in range(1, args.workers + 1)]
    truth = simulate.run_study(url, args.hits, dict(tokens.add(args.db, names)), cfg)
    if args.truth:
        with open(args.truth, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(t, ensure_ascii=False, sort_keys=True) + "\n" for t in truth)
    right = sum(t["right"] for t in truth)
    print("%d simulated workers posted %d answers (%d right: %.1f%%) to %s" % (
        len(names), len(truth), right, 100.0 * right / max(len(truth), 1), url))
    return truth


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
    if args.command == "simulate":
        return _simulate(args)
    if args.command == "participants":
        from transforms.human_filtering.prolific import import_participants
        n = import_participants(args.db, args.study, args.export)
        print("%s: %d participant(s) known; ids not on the list are refused" % (args.study, n))
        return n
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
