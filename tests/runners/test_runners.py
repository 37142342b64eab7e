"""Dataflow and Flink launchers: --dry_run builds every stage's graph with the real
options, validates them, and submits nothing."""
import pytest

from runners import dataflow, flink
from runners.launch import steps

DATAFLOW = ["--project", "my-project", "--region", "us-central1",
            "--temp_location", "gs://my-bucket/tmp", "--accelerator_type", "nvidia-l4",
            "--min_ram", "16GB", "--dry_run", "--", "--input", "gs://my-bucket/cnn/*.story",
            "--output", "gs://my-bucket/runs/cnn", "--model", "transformer"]


@pytest.fixture(scope="module")
def dataflow_graphs():
    return dataflow.run(DATAFLOW)


def test_dataflow_dry_run_builds_every_stage(dataflow_graphs):
    from apache_beam.options.pipeline_options import StandardOptions
    assert [name for name, _ in dataflow_graphs] == [
        "generate", "train_folds", "adversarial_filter", "finalize"]
    for _, p in dataflow_graphs:
        assert p.options.view_as(StandardOptions).runner == "DataflowRunner"
        assert len(steps(p)) > 10


def test_gpu_hints_sit_on_exactly_the_training_and_inference_steps(dataflow_graphs):
    hinted = [(stage, label, hints) for stage, p in dataflow_graphs
              for label, hints in steps(p) if hints]
    labels = {(stage, label) for stage, label, _ in hinted}
    assert any(stage == "train_folds" and label.startswith("TrainFolds/TrainFold")
               for stage, label in labels)
    assert any(stage == "adversarial_filter" and "RunInference/BeamML_RunInference" in label
               for stage, label in labels)
    for stage, label, hints in hinted:
        assert label.startswith("TrainFolds/") or "/RunInference/" in label, label
        accelerator = hints["beam:resources:accelerator:v1"]
        assert accelerator == b"type:nvidia-l4;count:1;install-nvidia-driver"
        assert hints["beam:resources:min_ram_bytes:v1"] == b"16000000000"
    # nothing in generate or finalize asks for a GPU
    assert not [h for h in hinted if h[0] in ("generate", "finalize")]


def test_dataflow_option_set_is_complete(dataflow_graphs):
    from apache_beam.options.pipeline_options import (
        GoogleCloudOptions,
        SetupOptions,
        StandardOptions,
    )
    options = dataflow_graphs[0][1].options
    cloud = options.view_as(GoogleCloudOptions)
    assert (cloud.project, cloud.region) == ("my-project", "us-central1")
    assert cloud.temp_location == "gs://my-bucket/tmp"
    assert cloud.staging_location == "gs://my-bucket/tmp"
    assert cloud.job_name == "record-builder"
    assert options.view_as(SetupOptions).setup_file.endswith("setup.py")
    assert options.view_as(StandardOptions).runner == "DataflowRunner"


def test_dataflow_custom_container_replaces_setup_file():
    args, _ = dataflow.build_parser().parse_known_args(
        ["--project", "my-project", "--region", "r", "--temp_location", "gs://my-bucket/t",
         "--sdk_container_image", "gcr.io/p/record:1"])
    argv = dataflow.dataflow_argv(args)
    assert "--sdk_container_image=gcr.io/p/record:1" in argv
    assert not [a for a in argv if a.startswith("--setup_file")]


@pytest.mark.parametrize("launcher_argv, message", [
    (["--region", "r", "--temp_location", "gs://b/t"], "--project is required"),
    (["--project", "p-1", "--temp_location", "gs://b/t"], "--region is required"),
    (["--project", "p-1", "--region", "r"], "--temp_location is required"),
    (["--project", "p-1", "--region", "r", "--temp_location", "/tmp/x"], "must be a gs:// path"),
    (["--project", "my-project", "--region", "r", "--temp_location", "gs://MY_BUCKET/t"],
     "must be a gs:// path in a valid bucket"),
    (["--project", "Not_A_Project", "--region", "r", "--temp_location", "gs://bucket-x/t"],
     "is not a project id"),
])
def test_dataflow_incomplete_options_are_refused(launcher_argv, message):
    with pytest.raises(SystemExit) as err:
        dataflow.run(launcher_argv + ["--dry_run", "--", "--output", "gs://my-bucket/run"])
    assert message in str(err.value)


def test_flink_dry_run(capsys):
    graphs = flink.run(["--flink_master", "jobmanager:8081", "--environment_type", "EXTERNAL",
                        "--environment_config", "localhost:50000", "--parallelism", "8",
                        "--dry_run", "--", "--output", "/data/run"])
    assert [name for name, _ in graphs] == ["generate", "train_folds", "adversarial_filter",
                                            "finalize"]
    options = graphs[0][1].options.get_all_options()
    assert options["runner"] == "FlinkRunner"
    assert options["flink_master"] == "jobmanager:8081"
    assert options["environment_type"] == "EXTERNAL"
    assert options["parallelism"] == 8
    out = capsys.readouterr().out
    assert "nothing is submitted" in out and "stage adversarial_filter: job graph" in out
    assert "largest job graph" in out


def test_dry_run_prints_each_stage_graph_size_and_it_stays_small(dataflow_graphs, capsys):
    from runners.launch import graph_bytes
    for name, p in dataflow_graphs:
        assert 0 < graph_bytes(p) < 1_000_000, name


@pytest.mark.parametrize("build_argv, message", [
    (["--output", "gs://my-bucket/run"], "the bundled sample corpus is on this machine"),
    (["--input", "/data/cnn/*.story", "--output", "gs://my-bucket/run"],
     "--input /data/cnn/*.story is on this machine"),
    (["--input", "gs://my-bucket/cnn/*.story", "--output", "/tmp/run"],
     "--output /tmp/run is on this machine"),
])
def test_dataflow_refuses_local_paths_with_one_line(build_argv, message):
    with pytest.raises(SystemExit) as err:
        dataflow.run(["--project", "my-project", "--region", "us-central1",
                      "--temp_location", "gs://my-bucket/tmp", "--dry_run", "--", *build_argv])
    text = str(err.value)
    assert message in text and "\n" not in text


@pytest.mark.parametrize("launcher_argv, message", [
    (["--flink_master", "not a url"], "--flink_master must be HOST:PORT"),
    (["--environment_type", "EXTERNAL"], "needs --environment_config"),
    (["--parallelism", "0"], "--parallelism must be at least 1"),
])
def test_flink_invalid_options_are_refused(launcher_argv, message):
    with pytest.raises(SystemExit) as err:
        flink.run(launcher_argv + ["--dry_run", "--", "--output", "/data/run"])
    assert message in str(err.value)


# --- Flink launcher pieces (the runs themselves: tests/runners/test_flink.py) ------------------

@pytest.mark.fast
@pytest.mark.parametrize("launcher_argv, environment", [
    ([], "LOOPBACK"), (["--flink_master", "[auto]"], "LOOPBACK"),
    (["--flink_master", "jobmanager:8081"], "DOCKER"),
    (["--flink_master", "jobmanager:8081", "--environment_type", "LOOPBACK"], "LOOPBACK"),
])
def test_flink_environment_defaults_to_loopback_only_for_an_embedded_flink(launcher_argv,
                                                                            environment):
    args, _ = flink.build_parser().parse_known_args(launcher_argv)
    assert f"--environment_type={environment}" in flink.flink_argv(args)


@pytest.mark.fast
def test_flink_process_environment_runs_the_projects_boot_script():
    import json
    import os
    args, _ = flink.build_parser().parse_known_args(["--environment_type", "PROCESS"])
    assert flink.validate(args) == []
    config = [a for a in flink.flink_argv(args) if a.startswith("--environment_config=")]
    command = json.loads(config[0].split("=", 1)[1])
    assert command["command"].endswith("runners/sdk_worker.sh")
    assert os.access(command["command"], os.X_OK)
    assert os.path.isfile(os.path.join(command["env"]["PYTHONPATH"], "runners", "sdk_worker.py"))


@pytest.mark.fast
def test_flink_restarts_become_the_embedded_flinks_restart_strategy():
    args, _ = flink.build_parser().parse_known_args(["--restarts", "2"])
    assert flink.restart_conf(args) == {"restart-strategy.type": "fixed-delay",
                                        "restart-strategy.fixed-delay.attempts": 2,
                                        "restart-strategy.fixed-delay.delay": "2 s"}
    none, _ = flink.build_parser().parse_known_args(["--restarts", "0"])
    assert flink.restart_conf(none) == {"restart-strategy.type": "none"}
    default, _ = flink.build_parser().parse_known_args([])
    assert flink.restart_conf(default) == {}
    bad, _ = flink.build_parser().parse_known_args(["--restarts", "-1"])
    assert flink.validate(bad) == ["--restarts must be 0 or more"]
    cluster, _ = flink.build_parser().parse_known_args(["--flink_master", "jm:8081",
                                                        "--restarts", "2"])
    assert flink.validate(cluster)[0].startswith("--restarts applies to an embedded Flink only")


@pytest.mark.fast
def test_a_failed_flink_job_is_one_line_naming_the_stage_and_the_cause():
    from apache_beam.options.pipeline_options import PipelineOptions

    from transforms.core.stage import job_failed
    message = ("Pipeline BeamApp-root-1125232703-e6f3d096_e7c0 failed in state FAILED: "
               "java.lang.IllegalStateException: Process died with exit code 1\n"
               "\tat org.apache.beam.runners.fnexecution...")
    line = job_failed("generate", PipelineOptions(["--runner=FlinkRunner"]), message)
    assert line == ("the Flink job of generate failed (java.lang.IllegalStateException: Process "
                    "died with exit code 1); run the same command to resume (completed stages "
                    "are skipped)")


# Maven's own words, as `mvn -B dependency:get` printed them on this project's machines
NOT_FOUND = ("[ERROR] Failed to execute goal org.apache.maven.plugins:maven-dependency-plugin:"
             "2.8:get (default-cli) on project standalone-pom: Couldn't download artifact: "
             "Could not find artifact org.apache.beam:beam-runners-flink-1.19-job-server:jar:"
             "2.77.0 in central (https://repo.maven.apache.org/maven2)\n[ERROR] \n")
MISSING = ("[ERROR] Failed to execute goal org.apache.maven.plugins:maven-dependency-plugin:2.8:"
           "get (default-cli) on project standalone-pom: Couldn't download artifact: Missing:\n"
           "[ERROR] ----------\n[ERROR] 1) org.apache.beam:beam-runners-flink-1.19:jar:2.77.0\n"
           "[ERROR] \n[ERROR] ----------\n[ERROR] 1 required artifact is missing.\n")


@pytest.mark.fast
@pytest.mark.parametrize("out, answer", [
    (NOT_FOUND, "Couldn't download artifact: Could not find artifact "
                "org.apache.beam:beam-runners-flink-1.19-job-server:jar:2.77.0"),
    (MISSING, "Couldn't download artifact: missing org.apache.beam:beam-runners-flink-1.19:jar:"
              "2.77.0"),
])
def test_mavens_not_served_answer_is_recognised_and_shortened(out, answer):
    from runners.flink_jobserver import NOT_SERVED, _answer
    assert NOT_SERVED.search(out)
    assert _answer(out) == answer
    assert not NOT_SERVED.search("[ERROR] Could not transfer artifact x: Connection refused")


@pytest.mark.fast
def test_the_job_servers_manifest_jar_lists_every_jar(tmp_path):
    import zipfile

    from runners.flink_jobserver import DRIVER, manifest_jar
    jars = [tmp_path / f"a-long-dependency-name-{i}-1.0.0.jar" for i in range(30)]
    out = manifest_jar([str(j) for j in jars], tmp_path / "server.jar")
    text = zipfile.ZipFile(out).read("META-INF/MANIFEST.MF").decode()
    lines = text.split("\r\n")
    assert all(len(line.encode()) <= 72 for line in lines)
    unfolded = "\r\n".join(lines).replace("\r\n ", "")
    assert f"Main-Class: {DRIVER}" in unfolded
    classpath = next(l for l in unfolded.split("\r\n") if l.startswith("Class-Path: "))
    assert classpath.split(" ")[1:] == [j.as_uri() for j in jars]
