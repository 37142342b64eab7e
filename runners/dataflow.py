"""Run the whole job (`beam_pipelines.build`) on Google Cloud Dataflow.

    python -m runners.dataflow --project P --region us-central1 \
        --temp_location gs://BUCKET/tmp [--staging_location gs://BUCKET/staging] \
        [--sdk_container_image IMAGE] [--accelerator_type nvidia-tesla-t4 --min_ram 16GB] \
        [--dry_run] -- --input 'gs://BUCKET/stories/*.story' --output gs://BUCKET/run \
        --model transformer

Workers install the project from `setup.py` (`--setup_file`, pinned requirements and the
spaCy model package) unless a custom container is given. GPU hints go to the adversary
training and RunInference steps only. `--dry_run` builds every stage's graph with these
options, validates them, prints the steps with their resource hints, and submits nothing.
"""
import argparse
import logging
import pathlib
import re
import sys

from apache_beam.options.pipeline_options import PipelineOptions
from apache_beam.options.pipeline_options_validator import PipelineOptionsValidator

from beam_pipelines.common import setup_logging
from runners.launch import launch

SETUP_FILE = pathlib.Path(__file__).resolve().parents[1] / "setup.py"
REQUIRED = ("project", "region", "temp_location")
PROJECT_ID = re.compile(r"[a-z][a-z0-9-]{4,28}[a-z0-9]")
BUCKET = re.compile(r"gs://([a-z0-9][a-z0-9._-]{1,61}[a-z0-9])(/.*)?")


def build_parser():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--project", help="Google Cloud project id")
    p.add_argument("--region", help="Dataflow region, e.g. us-central1")
    p.add_argument("--temp_location", help="gs:// path for temporary files")
    p.add_argument("--staging_location", help="gs:// path for staged packages "
                                              "(default: temp_location)")
    p.add_argument("--job_name", default="record-builder")
    p.add_argument("--sdk_container_image", default=None,
                   help="custom worker image with the project installed (skips setup.py)")
    p.add_argument("--machine_type", default=None, help="CPU worker type, e.g. n2-standard-4")
    p.add_argument("--max_num_workers", type=int, default=None)
    p.add_argument("--service_account_email", default=None)
    p.add_argument("--subnetwork", default=None)
    p.add_argument("--dry_run", action="store_true",
                   help="build and validate every stage's graph, print it, submit nothing")
    return p


def dataflow_argv(args) -> list:
    """The complete Dataflow option set the job runs with."""
    argv = ["--runner=DataflowRunner", f"--project={args.project}", f"--region={args.region}",
            f"--temp_location={args.temp_location}",
            f"--staging_location={args.staging_location or args.temp_location}",
            f"--job_name={args.job_name}"]
    if args.sdk_container_image:
        argv.append(f"--sdk_container_image={args.sdk_container_image}")
    else:
        argv.append(f"--setup_file={SETUP_FILE}")
    for name in ("machine_type", "max_num_workers", "service_account_email", "subnetwork"):
        if getattr(args, name) is not None:
            argv.append(f"--{name}={getattr(args, name)}")
    return argv


def validate(args, argv) -> list:
    """Our checks, then Beam's own Dataflow validator (offline with --dry_run=true)."""
    errors = [f"--{name} is required" for name in REQUIRED if not getattr(args, name)]
    if args.project and not PROJECT_ID.fullmatch(args.project):
        errors.append(f"--project {args.project!r} is not a project id (6-30 lower-case "
                      "letters, digits and hyphens; the id, not the display name)")
    for name in ("temp_location", "staging_location"):
        value = getattr(args, name)
        if value and not BUCKET.fullmatch(value):
            errors.append(f"--{name} must be a gs:// path in a valid bucket (lower-case "
                          f"letters, digits, '-', '_', '.'), got {value!r}")
    if errors:
        return errors
    from apache_beam.runners.dataflow.dataflow_runner import DataflowRunner
    options = PipelineOptions(argv + ["--dry_run=true"])
    return PipelineOptionsValidator(options, DataflowRunner()).validate()


def remote_paths(config) -> list:
    """Dataflow workers cannot read or write the launching machine's disk: every corpus
    input and the run folder must be on Cloud Storage (the bundled sample corpus is local,
    so it is never baked into a cloud graph)."""
    from beam_pipelines.common import SAMPLE_CORPUS
    errors = []
    from transforms.ingestion.specs import as_spec
    for pattern in (as_spec(i).pattern for i in config.paths.inputs):
        if not pattern.startswith("gs://"):
            what = ("the bundled sample corpus" if pattern.startswith(str(SAMPLE_CORPUS))
                    else f"--input {pattern}")
            errors.append(f"{what} is on this machine: Dataflow workers cannot read it "
                          "(copy it to gs:// and pass --input gs://...)")
            break
    if not config.paths.output.startswith("gs://"):
        errors.append(f"--output {config.paths.output} is on this machine: Dataflow workers "
                      "cannot write it (use gs://BUCKET/...)")
    return errors


def split_argv(argv):
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" in argv:
        i = argv.index("--")
        return argv[:i], argv[i + 1:]
    return argv, []


def run(argv=None):
    launcher_argv, build_argv = split_argv(argv)
    args, extra = build_parser().parse_known_args(launcher_argv)
    build_argv = extra + build_argv
    runner_argv = dataflow_argv(args)
    return launch("Dataflow", validate(args, runner_argv), runner_argv, build_argv,
                  args.dry_run, dry_run_argv=["--dry_run=true"], check_config=remote_paths)


def main():
    setup_logging(logging.INFO)
    run()


if __name__ == "__main__":
    main()
