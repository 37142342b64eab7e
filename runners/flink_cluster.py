"""A standalone Flink cluster on this machine (a JobManager and a TaskManager on 127.0.0.1),
assembled from PyPI, to submit a build to the way a user with a cluster does.

    python -m runners.flink_cluster [--flink 1.19.0] [--slots 2] [--restarts N]

prints the JobManager's REST address (HOST:PORT, for `runners.flink --flink_master`) and
runs until Ctrl-C. Flink's binary distribution is not on Maven Central; its parts are on
PyPI: `apache-flink-libraries` (an sdist: lib/, opt/, plugins/) and `apache-flink` (a wheel:
bin/ and conf/). Both are fetched with `pip download --no-deps` (never installed: the
`apache-flink` package pins an older Beam) and unpacked once into ~/.cache/record-builder.

Flink's REST and RPC endpoints have no authentication here (Flink's is mutual TLS, not set
up): they bind 127.0.0.1 only.
"""
import argparse
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
import zipfile

from runners.flink_jobserver import CACHE as _JOB_SERVER_CACHE
from runners.flink_jobserver import die_with_parent, free_port

CACHE = _JOB_SERVER_CACHE.parent
DEFAULT_FLINK = "1.19.0"      # the Flink that Beam's Flink 1.19 runner is built against


def _pip_download(spec: str, dest: str, sdist: bool) -> pathlib.Path:
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", dest, spec]
    if sdist:
        cmd[5:5] = ["--no-binary", ":all:"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"pip download {spec} failed: "
                           + (done.stderr.strip().splitlines() or ["no answer"])[-1])
    name = spec.split("==")[0].replace("-", "_")
    found = [p for p in pathlib.Path(dest).iterdir()
             if p.name.replace("-", "_").startswith(name + "_")]
    return found[0]


def flink_home(version: str = DEFAULT_FLINK) -> pathlib.Path:
    """FLINK_HOME with bin/, conf/, lib/, opt/, plugins/ and log/ (built once, cached)."""
    home = CACHE / f"flink-{version}"
    if (home / "lib" / f"flink-dist-{version}.jar").exists() and (home / "bin").is_dir():
        return home
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="flink-dist-", dir=CACHE))
    try:
        build = tmp / "home"
        libs = _pip_download(f"apache-flink-libraries=={version}", str(tmp), sdist=True)
        with tarfile.open(libs) as tar:
            tar.extractall(tmp / "libs", filter="data")
        deps = next((tmp / "libs").iterdir()) / "deps"
        for part in ("lib", "opt", "plugins"):
            shutil.copytree(deps / part, build / part)
        wheel = _pip_download(f"apache-flink=={version}", str(tmp), sdist=False)
        with zipfile.ZipFile(wheel) as z:
            for name in z.namelist():
                for part in ("bin", "conf"):
                    if name.startswith(f"pyflink/{part}/") and not name.endswith("/"):
                        target = build / part / name.split("/", 2)[2]
                        target.parent.mkdir(parents=True, exist_ok=True)
                        target.write_bytes(z.read(name))
        shutil.copy(deps / "bin" / "bash-java-utils.jar", build / "bin")
        for script in (build / "bin").iterdir():
            if script.suffix not in (".jar", ".bat"):
                script.chmod(0o755)
        (build / "log").mkdir()
        home.parent.mkdir(parents=True, exist_ok=True)
        if home.exists():
            shutil.rmtree(home)
        build.rename(home)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return home


def _java_opts(home: pathlib.Path) -> str:
    """The JVM flags Flink's own config.yaml gives for Java 17 (--add-opens ...)."""
    import yaml
    shipped = yaml.safe_load((home / "conf" / "config.yaml").read_text()) or {}
    return shipped.get("env", {}).get("java", {}).get("opts", {}).get("all", "")


class Cluster:
    """One JobManager and one TaskManager (`slots` task slots) in the foreground, as
    processes of this one, with their configuration and logs in `workdir`."""

    def __init__(self, workdir: str, version: str = DEFAULT_FLINK, slots: int = 2,
                 restarts: int = 0, taskmanager_memory: str = "1728m"):
        self.workdir = pathlib.Path(workdir)
        self.version, self.slots, self.restarts = version, slots, restarts
        self.taskmanager_memory = taskmanager_memory
        self.procs = {}
        self.rest = None

    def config(self, home, rpc_port, rest_port) -> dict:
        conf = {
            "env.java.opts.all": _java_opts(home),
            "jobmanager.bind-host": "127.0.0.1", "jobmanager.rpc.address": "127.0.0.1",
            "jobmanager.rpc.port": rpc_port, "jobmanager.memory.process.size": "1024m",
            "jobmanager.execution.failover-strategy": "region",
            "taskmanager.bind-host": "127.0.0.1", "taskmanager.host": "127.0.0.1",
            "taskmanager.numberOfTaskSlots": self.slots,
            "taskmanager.memory.process.size": self.taskmanager_memory,
            # Beam's batch jobs hold many blocking exchanges at once; Flink's default of
            # 512 buffers for each sort-shuffle partition exhausts a TaskManager's 4,096
            # ("Insufficient number of network buffers: required 512")
            "taskmanager.network.sort-shuffle.min-buffers": 64,
            "parallelism.default": self.slots,
            "rest.address": "127.0.0.1", "rest.bind-address": "127.0.0.1",
            "rest.port": rest_port,
        }
        if self.restarts:
            conf.update({"restart-strategy.type": "fixed-delay",
                         "restart-strategy.fixed-delay.attempts": self.restarts,
                         "restart-strategy.fixed-delay.delay": "2 s"})
        return conf

    def start(self, timeout: float = 240) -> str:
        home = flink_home(self.version)
        conf_dir, log_dir = self.workdir / "conf", self.workdir / "log"
        shutil.rmtree(conf_dir, ignore_errors=True)
        shutil.copytree(home / "conf", conf_dir)
        log_dir.mkdir(parents=True, exist_ok=True)
        rest_port = free_port()
        conf = self.config(home, free_port(), rest_port)
        (conf_dir / "config.yaml").write_text(
            "".join(f"{k}: {json.dumps(v) if isinstance(v, str) else v}\n"
                    for k, v in conf.items()))
        env = dict(os.environ, FLINK_HOME=str(home), FLINK_CONF_DIR=str(conf_dir),
                   FLINK_LOG_DIR=str(log_dir), FLINK_PID_DIR=str(self.workdir))
        for role, script in (("jobmanager", "jobmanager.sh"), ("taskmanager", "taskmanager.sh")):
            with open(log_dir / f"{role}.out", "ab") as out:
                self.procs[role] = subprocess.Popen(
                    [str(home / "bin" / script), "start-foreground"], env=env, stdout=out,
                    stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
                    preexec_fn=die_with_parent)
        self.rest = f"127.0.0.1:{rest_port}"
        deadline = time.monotonic() + timeout
        while self.overview().get("taskmanagers", 0) < 1:
            dead = [r for r, p in self.procs.items() if p.poll() is not None]
            if dead or time.monotonic() > deadline:
                self.stop()
                why = f"the {dead[0]} exited" if dead else f"no TaskManager in {timeout:.0f} s"
                raise RuntimeError(f"Flink cluster did not start ({why}): see {log_dir}")
            time.sleep(0.5)
        return self.rest

    def overview(self) -> dict:
        """Flink's REST /overview (task managers, slots, jobs finished and failed)."""
        try:
            with urllib.request.urlopen(f"http://{self.rest}/overview", timeout=2) as r:
                return json.load(r)
        except (OSError, ValueError):
            return {}

    def taskmanager_pid(self):
        """The TaskManager's JVM (the script execs it, so it is the started process)."""
        p = self.procs.get("taskmanager")
        return p.pid if p is not None else None

    def stop(self):
        for role in ("taskmanager", "jobmanager"):
            p = self.procs.pop(role, None)
            if p is None or p.poll() is not None:
                continue
            os.killpg(p.pid, signal.SIGTERM)
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--flink", default=DEFAULT_FLINK, help="Flink release (PyPI's version)")
    p.add_argument("--slots", type=int, default=2, help="task slots of the TaskManager")
    p.add_argument("--restarts", type=int, default=0,
                   help="restart a failed job this many times (fixed delay 2 s)")
    p.add_argument("--workdir", default=None, help="configuration and logs (default: a "
                                                   "temporary folder)")
    args = p.parse_args(argv)
    workdir = args.workdir or tempfile.mkdtemp(prefix="flink-cluster-")
    cluster = Cluster(workdir, args.flink, args.slots, args.restarts)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        print(cluster.start(), flush=True)
        print(f"logs in {workdir}/log; Ctrl-C stops the cluster", file=sys.stderr, flush=True)
        signal.sigwait({signal.SIGINT, signal.SIGTERM})
    except RuntimeError as err:
        raise SystemExit(f"error: {err}") from None
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
