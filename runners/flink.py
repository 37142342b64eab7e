"""Run the whole job (`beam_pipelines.build`) on Apache Flink.

    python -m runners.flink [--flink_master [local] | HOST:PORT] \
        [--environment_type LOOPBACK|EXTERNAL|DOCKER|PROCESS] [--environment_config C] \
        [--parallelism 2] [--restarts N (embedded Flink)] \
        [--flink_job_server_jar JAR | --job_server_beam_version V] [--dry_run] \
        -- --input '/data/stories/*.story' --output /data/run

Beam's Flink job server (`runners/flink_jobserver.py`: fetched with Maven from Maven Central,
or the jar given) is started once for the whole build; every stage is a Flink job it
submits, to an embedded Flink (`[local]`, a MiniCluster inside the job server) or to the
JobManager at HOST:PORT (its REST port). The Python SDK workers run in the environment
`--environment_type` names: LOOPBACK (threads of this command: local runs and task managers
on this machine), PROCESS (processes each task manager starts, `runners/sdk_worker.sh`
unless `--environment_config` gives another boot command), EXTERNAL (a worker pool beside
each task manager, `--environment_config HOST:PORT`) or DOCKER (the project's image).
Resource hints are ignored by Flink; give the task managers with GPUs to the job instead.
"""
import argparse
import logging
import re
import tempfile

from beam_pipelines import common
from runners.dataflow import split_argv
from runners.launch import launch

ENVIRONMENTS = ("LOOPBACK", "EXTERNAL", "DOCKER", "PROCESS")
LOCAL = ("[local]", "[auto]")
ENVIRONMENT_CACHE_MS = 60_000
log = logging.getLogger("runners")


def build_parser():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--flink_master", default="[local]",
                   help="JobManager REST address HOST:PORT; [local] (default) or [auto]: an "
                        "embedded Flink")
    p.add_argument("--flink_version", default=None,
                   help="Flink release line of the job server (default 1.19)")
    p.add_argument("--environment_type", default=None, choices=ENVIRONMENTS,
                   help="where the Python workers run (default: LOOPBACK with [local], "
                        "DOCKER with a cluster)")
    p.add_argument("--environment_config", default=None,
                   help="DOCKER: image; PROCESS: JSON with a boot command (default: "
                        "runners/sdk_worker.sh); EXTERNAL: host:port")
    p.add_argument("--parallelism", type=int, default=None)
    p.add_argument("--max_parallelism", type=int, default=None)
    p.add_argument("--restarts", type=int, default=None,
                   help="the embedded Flink restarts a failed task this many times, 2 s "
                        "apart (default: none; a cluster follows its own restart-strategy)")
    p.add_argument("--flink_job_server_jar", default=None,
                   help="a Beam Flink job server jar (default: fetched with Maven)")
    p.add_argument("--job_server_beam_version", default=None,
                   help="Beam release of the job server Maven fetches (default: the "
                        "installed Beam)")
    p.add_argument("--dry_run", action="store_true",
                   help="build and validate every stage's graph, print it, submit nothing")
    return p


def environment(args) -> str:
    if args.environment_type:
        return args.environment_type
    return "LOOPBACK" if args.flink_master in LOCAL else "DOCKER"


def environment_config(args):
    """PROCESS without a config: runners/sdk_worker.sh run by this Python (task managers on
    machines where the project lies at the same path)."""
    if environment(args) == "PROCESS" and not args.environment_config:
        import sys

        from runners.sdk_worker import environment_config as process_config
        return process_config(sys.executable)
    return args.environment_config


def flink_argv(args) -> list:
    argv = ["--runner=FlinkRunner", f"--flink_master={args.flink_master}",
            f"--environment_type={environment(args)}"]
    config = environment_config(args)
    if config is not None:
        argv.append(f"--environment_config={config}")
    for name in ("flink_version", "parallelism", "max_parallelism"):
        if getattr(args, name) is not None:
            argv.append(f"--{name}={getattr(args, name)}")
    if environment(args) != "LOOPBACK":
        # keep a worker for the job's next task: by default each task of a batch job starts
        # and stops its own (a Python start-up, imports and model loads, per task)
        argv.append(f"--environment_cache_millis={ENVIRONMENT_CACHE_MS}")
    return argv


def restart_conf(args) -> dict:
    """The embedded Flink's restart strategy, for every job of the build. (A cluster's jobs
    follow the cluster's configuration whatever the job server's says, and Beam's own
    --number_of_execution_retries reaches the job but a batch job ignores it: measured on
    Flink 1.19, "Recovery is suppressed by NoRestartBackoffTimeStrategy".)"""
    if args.restarts is None:
        return {}
    if args.restarts == 0:
        return {"restart-strategy.type": "none"}
    return {"restart-strategy.type": "fixed-delay",
            "restart-strategy.fixed-delay.attempts": args.restarts,
            "restart-strategy.fixed-delay.delay": "2 s"}


def validate(args) -> list:
    errors = []
    master = args.flink_master
    if master not in LOCAL and not re.fullmatch(r"[\w.-]+:\d+", master):
        errors.append(f"--flink_master must be HOST:PORT, [auto] or [local]; got {master!r}")
    if environment(args) == "EXTERNAL" and not args.environment_config:
        errors.append(f"--environment_type {environment(args)} needs --environment_config")
    for name in ("parallelism", "max_parallelism"):
        value = getattr(args, name)
        if value is not None and value < 1:
            errors.append(f"--{name} must be at least 1")
    if args.restarts is not None and args.restarts < 0:
        errors.append("--restarts must be 0 or more")
    if args.restarts is not None and master not in LOCAL:
        errors.append("--restarts applies to an embedded Flink only: a cluster's jobs restart "
                      "as its own configuration says (restart-strategy.type: fixed-delay, "
                      "restart-strategy.fixed-delay.attempts: N)")
    return errors


def job_server_jar(args) -> str:
    from runners import flink_jobserver as js
    if args.flink_job_server_jar:
        return args.flink_job_server_jar
    try:
        return js.job_server_jar(args.flink_version or js.DEFAULT_FLINK,
                                 args.job_server_beam_version)
    except js.NotServed as err:
        raise common.InputError(f"{err}. Give --flink_job_server_jar JAR, or "
                                "--job_server_beam_version 2.62.0 (the newest Beam whose "
                                "Flink runner Maven served here; see docs/usage.md)") from None
    except RuntimeError as err:
        raise common.InputError(str(err)) from None


def quiet_loopback_hangups():
    """LOOPBACK workers run in this process, so what a local runner's worker processes log
    (and `common.setup_logging` filters) lands here. When Flink releases a worker's channels
    at the end of a task, Beam's worker threads report the cancelled gRPC streams as errors,
    with tracebacks, though nothing failed: drop exactly those (status CANCELLED), and
    Beam's INFO lines on the root logger; every other warning and error still shows."""
    import threading

    import grpc

    def cancelled(exc) -> bool:
        return isinstance(exc, grpc.RpcError) and getattr(exc, "code", None) is not None \
            and exc.code() == grpc.StatusCode.CANCELLED

    class Hangups(logging.Filter):
        def filter(self, record):
            return not (record.exc_info and cancelled(record.exc_info[1]))

    logging.getLogger("apache_beam.runners.worker.data_plane").addFilter(Hangups())
    for handler in logging.getLogger().handlers:   # Beam's INFO chatter on the root logger
        handler.addFilter(lambda r: r.name != "root" or r.levelno >= logging.WARNING)
    previous = threading.excepthook

    def hook(args):
        if not cancelled(args.exc_value):
            previous(args)

    threading.excepthook = hook


def run(argv=None):
    launcher_argv, build_argv = split_argv(argv)
    args, extra = build_parser().parse_known_args(launcher_argv)
    build_argv = extra + build_argv
    runner_argv = flink_argv(args)
    errors = validate(args)
    if errors or args.dry_run:
        return launch("Flink", errors, runner_argv, build_argv, args.dry_run)
    from runners.flink_jobserver import JobServer
    jar = job_server_jar(args)
    server = JobServer(jar, args.flink_master, tempfile.mkdtemp(prefix="flink-job-server-"),
                       flink_conf=restart_conf(args))
    remove = common.on_exit(server.stop)
    try:
        log.info("Flink: starting Beam's job server (%s) for %s", jar.rsplit("/", 1)[-1],
                 "an embedded Flink" if args.flink_master in LOCAL else args.flink_master)
        try:
            endpoint = server.start()
        except RuntimeError as err:
            raise common.InputError(str(err)) from None
        if environment(args) == "LOOPBACK":
            quiet_loopback_hangups()
        return launch("Flink", [], runner_argv + [f"--job_endpoint={endpoint}"], build_argv,
                      False)
    finally:
        server.stop()
        remove()


def main():
    common.run_main(run, "build")


if __name__ == "__main__":
    main()
