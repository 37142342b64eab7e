"""The Python SDK worker a Flink task manager starts for `--environment_type PROCESS`.

Flink runs `runners/sdk_worker.sh --id=W --provision_endpoint=H:P ...` once per worker, on each task manager's
machine, where the project and its Python are installed (what Beam's container `boot`
program does in a DOCKER environment, minus installing packages): ask the provision
service for the pipeline options, then run Beam's SDK harness against the control
endpoint. Unlike an EXTERNAL worker pool's workers, a PROCESS worker is Flink's own child:
one that dies is noticed and its task fails (and is restarted) instead of waiting for it.
"""
import argparse
import json
import os
import tempfile

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sdk_worker.sh")


def environment_config(python: str) -> str:
    """`--environment_config` for PROCESS: this script, run by `python` with this project on
    its path."""
    project = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {"RECORD_BUILDER_PYTHON": python, "PYTHONPATH": project}
    for name in ("HF_HUB_OFFLINE", "TMPDIR"):
        if os.environ.get(name):
            env[name] = os.environ[name]
    return json.dumps({"command": SCRIPT, "env": env})


def provision(endpoint: str, worker_id: str):
    """The runner's provision info: pipeline options, control and logging endpoints."""
    import grpc
    from apache_beam.portability.api import (
        beam_provision_api_pb2,
        beam_provision_api_pb2_grpc,
    )
    with grpc.insecure_channel(endpoint) as channel:
        stub = beam_provision_api_pb2_grpc.ProvisionServiceStub(channel)
        return stub.GetProvisionInfo(beam_provision_api_pb2.GetProvisionInfoRequest(),
                                     metadata=[("worker_id", worker_id)], timeout=60).info


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name in ("id", "control_endpoint", "logging_endpoint", "provision_endpoint",
                 "artifact_endpoint", "semi_persist_dir"):
        p.add_argument(f"--{name}", default=None)
    args, _ = p.parse_known_args(argv)
    from google.protobuf import json_format
    info = provision(args.provision_endpoint, args.id)
    # Beam's runners give the control and logging endpoints as flags or, since 2.x, in the
    # provision info only
    control = args.control_endpoint or info.control_endpoint.url
    logging_url = args.logging_endpoint or info.logging_endpoint.url
    os.environ.update({
        "WORKER_ID": args.id,
        "CONTROL_API_SERVICE_DESCRIPTOR": f'url: "{control}"',
        "LOGGING_API_SERVICE_DESCRIPTOR": f'url: "{logging_url}"',
        "PIPELINE_OPTIONS": json_format.MessageToJson(info.pipeline_options),
        "SEMI_PERSISTENT_DIRECTORY": args.semi_persist_dir or tempfile.mkdtemp(prefix="sdk-"),
    })
    from apache_beam.runners.worker import sdk_worker_main
    sdk_worker_main.main([])


if __name__ == "__main__":
    main()
