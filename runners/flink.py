"""Run the whole job (`beam_pipelines.build`) on an Apache Flink cluster.

    python -m runners.flink --flink_master HOST:8081 [--environment_type DOCKER] \
        [--environment_config IMAGE] [--parallelism 16] [--dry_run] \
        -- --input '/data/stories/*.story' --output /data/run

Uses Beam's FlinkRunner (portable): the Python SDK workers run in the environment given by
`--environment_type` (DOCKER with the project's image, PROCESS with a boot command,
EXTERNAL for a worker pool beside each task manager, LOOPBACK for local testing). Resource
hints are ignored by Flink; give the task managers with GPUs to the job instead.
"""
import argparse
import logging
import re

from beam_pipelines.common import setup_logging
from runners.dataflow import split_argv
from runners.launch import launch

ENVIRONMENTS = ("DOCKER", "PROCESS", "EXTERNAL", "LOOPBACK")


def build_parser():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--flink_master", default="[auto]",
                   help="JobManager REST address HOST:PORT; [auto] or [local] for embedded")
    p.add_argument("--flink_version", default=None, help="e.g. 1.19, to pick the job server")
    p.add_argument("--environment_type", default="DOCKER", choices=ENVIRONMENTS)
    p.add_argument("--environment_config", default=None,
                   help="DOCKER: image; PROCESS: JSON with a boot command; EXTERNAL: host:port")
    p.add_argument("--parallelism", type=int, default=None)
    p.add_argument("--max_parallelism", type=int, default=None)
    p.add_argument("--dry_run", action="store_true",
                   help="build and validate every stage's graph, print it, submit nothing")
    return p


def flink_argv(args) -> list:
    argv = ["--runner=FlinkRunner", f"--flink_master={args.flink_master}",
            f"--environment_type={args.environment_type}"]
    for name in ("flink_version", "environment_config", "parallelism", "max_parallelism"):
        if getattr(args, name) is not None:
            argv.append(f"--{name}={getattr(args, name)}")
    return argv


def validate(args) -> list:
    errors = []
    master = args.flink_master
    if master not in ("[auto]", "[local]") and not re.fullmatch(r"[\w.-]+:\d+", master):
        errors.append(f"--flink_master must be HOST:PORT, [auto] or [local]; got {master!r}")
    if args.environment_type in ("PROCESS", "EXTERNAL") and not args.environment_config:
        errors.append(f"--environment_type {args.environment_type} needs --environment_config")
    for name in ("parallelism", "max_parallelism"):
        value = getattr(args, name)
        if value is not None and value < 1:
            errors.append(f"--{name} must be at least 1")
    return errors


def run(argv=None):
    launcher_argv, build_argv = split_argv(argv)
    args, extra = build_parser().parse_known_args(launcher_argv)
    build_argv = extra + build_argv
    return launch("Flink", validate(args), flink_argv(args), build_argv, args.dry_run)


def main():
    setup_logging(logging.INFO)
    run()


if __name__ == "__main__":
    main()
