"""The bundled sample's build on Flink against the DirectRunner, in one run.

    python -m benchmarks.flink [--jar JAR] [--parallelism 2] [--skip_cluster]
    python -m benchmarks.flink --kill_during STAGE [--restarts N]

One after the other, each a command of its own on this machine: `build` on the DirectRunner
(the default: one worker process per core), `runners.flink` on an embedded Flink (`[local]`,
LOOPBACK workers) and `runners.flink` on a standalone cluster (runners/flink_cluster.py: one
JobManager, one TaskManager with `parallelism` slots, LOOPBACK workers). For each: wall
time, peak resident memory (VmHWM) of the command's own process (LOOPBACK workers run in
it), of its largest child (with `[local]` the job server JVM, which holds Flink's
MiniCluster: JobManager and TaskManager), of the cluster's TaskManager and JobManager; and
whether the release (`dataset/`) is byte for byte the DirectRunner's. Also the CPU seconds
other processes took meanwhile (the machine may be shared: compare ratios within one run).

`--kill_during STAGE`: a build on the local cluster with PROCESS workers (the cluster
restarts a failed task `--restarts N` times); a few seconds into STAGE one SDK worker process of the TaskManager gets SIGKILL.
If the command fails, it is run again (a resume); then the release is compared with a
DirectRunner build's.
"""
import argparse
import hashlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

from benchmarks.procmon import TreeMonitor, machine_busy_s
from transforms.core import procfs

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MB = 1024 * 1024


def files(folder) -> dict:
    out = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, folder)] = hashlib.sha256(f.read()).hexdigest()
    return out


def timed(cmd: list) -> dict:
    busy = machine_busy_s()
    started = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, env=dict(os.environ, PYTHONPATH=REPO))
    mon = TreeMonitor(proc.pid, interval=0.5)
    mon.start()
    _, err = proc.communicate()
    mon.stop()
    mon.join()
    wall = time.monotonic() - started
    own = sum(mon.cpu.values())
    other = (machine_busy_s() - busy - own) if busy is not None else None
    if proc.returncode != 0:
        raise SystemExit(f"error: {' '.join(cmd[2:4])} failed:\n{err[-2000:]}")
    return {"wall_s": wall, "command_hwm": mon.runner_hwm, "child_hwm": mon.worker_hwm,
            "cpu_s": own, "other_cpu_s": other}


def sdk_workers(pid) -> list:
    found = []
    for child in procfs.tree(pid):
        try:
            with open(f"/proc/{child}/cmdline", "rb") as f:
                if b"runners.sdk_worker" in f.read():
                    found.append(child)
        except OSError:
            pass
    return sorted(found)


def killed_build(cmd: list, cluster, stage: str, after_s: float):
    """Run `cmd`; `after_s` seconds after STAGE's first SDK worker appears, SIGKILL it."""
    started = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, env=dict(os.environ, PYTHONPATH=REPO))
    lines, begun = [], threading.Event()

    def read():
        for line in proc.stderr:
            lines.append(line.rstrip("\n"))
            if f"{stage}: start" in line:
                begun.set()
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    killed = None
    if stage:
        begun.wait(1800)
        tm = cluster.procs["taskmanager"].pid
        while not sdk_workers(tm) and proc.poll() is None:
            time.sleep(0.5)
        time.sleep(after_s)
        victims = sdk_workers(tm)
        if victims:
            os.kill(victims[0], signal.SIGKILL)
            killed = time.monotonic() - started
    proc.wait()
    reader.join(10)
    shown = [l for l in lines if l.startswith("error") or "Traceback" in l
             or " build: [" in l or "restart" in l.lower()]
    return proc.returncode, time.monotonic() - started, killed, shown


def kill_run(args, jar, work):
    from runners.flink_cluster import Cluster
    timed([sys.executable, "-m", "beam_pipelines.build", "--output", f"{work}/direct"])
    cmd = [sys.executable, "-m", "runners.flink", "--flink_job_server_jar", jar,
           "--parallelism", str(args.parallelism), "--environment_type", "PROCESS"]
    with Cluster(f"{work}/cluster", slots=args.parallelism,
                 restarts=args.restarts or 0) as cluster:
        cmd[3:3] = ["--flink_master", cluster.rest]
        cmd += ["--", "--output", f"{work}/killed"]
        rc, wall, killed, shown = killed_build(cmd, cluster, args.kill_during, args.kill_after)
        print(f"killed a worker {killed or 0:.0f} s into the command; exit {rc} after "
              f"{wall:.0f} s; cluster {cluster.overview()}")
        print("\n".join(shown))
        if rc != 0:
            rc, wall, _, shown = killed_build(cmd, cluster, None, 0)
            print(f"rerun: exit {rc} after {wall:.0f} s; cluster {cluster.overview()}")
            print("\n".join(shown))
    same = files(f"{work}/killed/dataset") == files(f"{work}/direct/dataset")
    print(f"release {'identical to' if same else 'DIFFERENT from'} the DirectRunner's")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--jar", default=None, help="Flink job server jar (default: runners."
                                               "flink_jobserver at Beam 2.62.0)")
    p.add_argument("--parallelism", type=int, default=2)
    p.add_argument("--skip_cluster", action="store_true")
    p.add_argument("--kill_during", default=None, help="a stage: kill an SDK worker in it")
    p.add_argument("--kill_after", type=float, default=8.0,
                   help="seconds after the stage's first worker appears")
    p.add_argument("--restarts", type=int, default=None,
                   help="the cluster's restart strategy: attempts (default: none)")
    args = p.parse_args(argv)
    from runners.flink_cluster import Cluster
    from runners.flink_jobserver import job_server_jar
    jar = args.jar or job_server_jar("1.19", "2.62.0")
    work = tempfile.mkdtemp(prefix="bench-flink-")
    if args.kill_during:
        return kill_run(args, jar, work)
    py = [sys.executable, "-m"]
    flink = ["runners.flink", "--flink_job_server_jar", jar, "--parallelism",
             str(args.parallelism), "--environment_type", "LOOPBACK"]
    rows = {"DirectRunner": timed(py + ["beam_pipelines.build", "--output", f"{work}/direct"])}
    rows["Flink [local]"] = timed(py + flink + ["--", "--output", f"{work}/local"])
    if not args.skip_cluster:
        with Cluster(f"{work}/cluster", slots=args.parallelism) as cluster:
            row = timed(py + flink + ["--flink_master", cluster.rest, "--",
                                      "--output", f"{work}/cluster-run"])
            row["taskmanager_hwm"] = procfs.hwm_bytes(cluster.procs["taskmanager"].pid)
            row["jobmanager_hwm"] = procfs.hwm_bytes(cluster.procs["jobmanager"].pid)
            row["jobs"] = cluster.overview()
        rows["Flink cluster"] = row
    reference = files(f"{work}/direct/dataset")
    outs = {"DirectRunner": "direct", "Flink [local]": "local", "Flink cluster": "cluster-run"}
    base = rows["DirectRunner"]["wall_s"]
    print(f"sample build, parallelism {args.parallelism}, {os.cpu_count()} cores "
          f"(results in {work})")
    for name, r in rows.items():
        same = files(f"{work}/{outs[name]}/dataset") == reference
        extra = "".join(f", {k.split('_')[0]} peak {r[k] / MB:,.0f} MB" for k in
                        ("taskmanager_hwm", "jobmanager_hwm") if r.get(k))
        print(f"{name:14s} {r['wall_s']:7.1f} s  x{r['wall_s'] / base:4.2f}  command peak "
              f"{r['command_hwm'] / MB:,.0f} MB, largest child peak {r['child_hwm'] / MB:,.0f} "
              f"MB{extra}; CPU {r['cpu_s']:.0f} s, others {r['other_cpu_s'] or 0:.0f} s; "
              f"release {'identical' if same else 'DIFFERENT'}")
        if r.get("jobs"):
            print(f"{'':14s} cluster: {r['jobs'].get('jobs-finished')} jobs finished, "
                  f"{r['jobs'].get('jobs-failed')} failed")


if __name__ == "__main__":
    main()
