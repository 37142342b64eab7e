"""Runners: launching a build on Flink (job server, local cluster), Dataflow or the portable
runner.

- `dataflow`: Run the whole job (`beam_pipelines.build`) on Google Cloud Dataflow
- `flink`: Run the whole job (`beam_pipelines.build`) on Apache Flink
- `flink_cluster`: A standalone Flink cluster on this machine (a JobManager and a TaskManager on ...
- `flink_jobserver`: Beam's Flink job server, fetched from Maven Central with Maven, and run for one ...
- `launch`: What the Dataflow and Flink launchers share: build the whole job's graphs with ...
- `sdk_worker`: The Python SDK worker a Flink task manager starts for `--environment_type PROCESS`
"""
