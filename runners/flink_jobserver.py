"""Beam's Flink job server, fetched from Maven Central with Maven, and run for one build.

    python -m runners.flink_jobserver [--flink_version 1.19] [--beam_version V] [--offline]

prints the job server jar to pass as `--flink_job_server_jar` (or one `error:` line and
exit status 3 when Maven does not serve it). Maven caches what it fetched in ~/.m2, and this
module what it found (`resolved.json` under ~/.cache/record-builder/flink-job-server/): a
second call asks Maven nothing while those jars are there.

Two ways to a job server, tried in this order, both through `mvn dependency:get`:
1. `org.apache.beam:beam-runners-flink-<flink>-job-server:<beam>`: the shaded jar Beam
   publishes (what FlinkRunner would download by itself from its own URL; we never let it);
2. `org.apache.beam:beam-runners-flink-<flink>:<beam>` with its dependencies: the same job
   server driver (`FlinkJobServerDriver`) unshaded; a small jar whose manifest lists them
   (Class-Path) runs it with `java -jar` as the shaded one would.
`beam` defaults to the Beam version installed (constraints.txt pins it).
"""
import argparse
import json
import os
import pathlib
import re
import socket
import subprocess
import sys
import time
import zipfile

GROUP = "org.apache.beam"
DRIVER = "org.apache.beam.runners.flink.FlinkJobServerDriver"
DEFAULT_FLINK = "1.19"       # published by every Beam release since 2.56
CACHE = pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache"),
                     "record-builder", "flink-job-server")
#: Maven's answers that mean "not on the repository", as opposed to a network failure.
NOT_SERVED = re.compile(r"Could not find artifact|No versions available|was not found in|"
                        r"required artifacts? (is|are) missing")


class NotServed(RuntimeError):
    """Maven answered that the repository does not have the artifact."""


def beam_version() -> str:
    from apache_beam.version import __version__
    return __version__


def _mvn(args: list, timeout=900) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["mvn", "-B", *args], capture_output=True, text=True,
                              timeout=timeout)
    except FileNotFoundError:
        raise RuntimeError("Maven (mvn) is not installed: install it (apt-get install "
                           "maven) or give --flink_job_server_jar") from None


def _answer(out: str) -> str:
    """Maven's one-line reason, without the repository's address."""
    missing = re.findall(r"^\[ERROR\] +\d+\) (\S+)$", out, re.M)
    if missing:
        return "Couldn't download artifact: missing " + ", ".join(dict.fromkeys(missing))
    for line in out.splitlines():
        if "[ERROR]" in line and ("Could not" in line or "No versions" in line
                                  or "not found" in line or "Failed" in line):
            reason = line.split("[ERROR]", 1)[1].strip()
            reason = re.sub(r"^Failed to execute goal [^:]+:[^:]+:[^:]+:get \(default-cli\) "
                            r"on project standalone-pom: ", "", reason)
            reason = re.sub(r" in \w+ \(https?://[^)]*\)", "", reason)
            return re.sub(r"https?://\S+", "the repository", reason).replace(" -> [Help 1]", "")
    return out.strip().splitlines()[-1] if out.strip() else "no answer"


class NotCached(RuntimeError):
    """Offline: the artifact is not in Maven's local cache (nothing was asked)."""


def fetch(artifact: str, transitive: bool, offline: bool = False) -> None:
    """`mvn dependency:get` (offline first: a cached artifact needs no network; with
    `offline`, only that)."""
    args = ["dependency:get", f"-Dartifact={artifact}", f"-Dtransitive={str(transitive).lower()}"]
    if _mvn(["-o", "-q", *args]).returncode == 0:
        return
    if offline:
        raise NotCached(f"{artifact} is not in Maven's local cache (~/.m2) and --offline "
                        "asks the network nothing: run `python -m runners.flink_jobserver` "
                        "once to fetch it")
    done = _mvn(["-U", *args])          # -U: ask again even if refused before
    if done.returncode != 0:
        out = done.stdout + done.stderr
        cls = NotServed if NOT_SERVED.search(out) else RuntimeError
        raise cls(f"`mvn -B -U {' '.join(args)}` answered: {_answer(out)}")


def classpath(artifact: str, transitive: bool, where: pathlib.Path) -> list:
    """The local paths of `artifact` (and its dependencies), from Maven's cache."""
    group, name, version = artifact.split(":")
    where.mkdir(parents=True, exist_ok=True)
    (where / "pom.xml").write_text(
        '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0'
        '</modelVersion><groupId>record-builder</groupId><artifactId>flink-job-server'
        f'</artifactId><version>1</version><dependencies><dependency><groupId>{group}'
        f'</groupId><artifactId>{name}</artifactId><version>{version}</version>'
        '</dependency></dependencies></project>\n')
    out = where / "classpath.txt"
    done = _mvn(["-o", "-q", "-f", str(where / "pom.xml"), "dependency:build-classpath",
                 f"-Dmdep.outputFile={out}", f"-DexcludeTransitive={str(not transitive).lower()}"])
    if done.returncode != 0:
        raise RuntimeError(f"listing {artifact}'s jars failed: {_answer(done.stdout + done.stderr)}")
    return [p for p in out.read_text().strip().split(os.pathsep) if p]


def manifest_jar(jars: list, path: pathlib.Path) -> pathlib.Path:
    """A jar holding only a manifest: Main-Class the driver, Class-Path the jars."""
    def header(line: str) -> bytes:          # manifest lines: 72 bytes, then " " continued
        raw, out = line.encode(), []
        while raw:
            out.append(raw[:72 if not out else 71])
            raw = raw[72 if len(out) == 1 else 71:]
        return b"\r\n ".join(out) + b"\r\n"
    entries = " ".join(pathlib.Path(j).resolve().as_uri() for j in jars)
    text = (header("Manifest-Version: 1.0") + header(f"Main-Class: {DRIVER}")
            + header(f"Class-Path: {entries}") + b"\r\n")
    tmp = path.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w") as z:
        z.writestr("META-INF/MANIFEST.MF", text)
    tmp.replace(path)
    return path


def _resolved(where: pathlib.Path, jar: str = None, jars: list = ()):
    """The job server found before (`jar`, with every jar it needs still in Maven's
    cache), so a later call asks Maven nothing; with `jar`, record it."""
    record = where / "resolved.json"
    if jar is not None:
        tmp = record.with_suffix(".tmp")
        tmp.write_text(json.dumps({"jar": jar, "classpath": list(jars)}))
        tmp.replace(record)
        return jar
    try:
        found = json.loads(record.read_text())
    except (OSError, ValueError):
        return None
    needed = [found.get("jar")] + list(found.get("classpath") or [])
    return found["jar"] if all(isinstance(p, str) and os.path.exists(p) for p in needed) \
        else None


def job_server_jar(flink: str = DEFAULT_FLINK, beam: str = None, offline: bool = False) -> str:
    """The path of a runnable Flink job server jar for Beam `beam` on Flink `flink`
    (`offline`: from the caches only, never the network)."""
    beam = beam or beam_version()
    shaded = f"{GROUP}:beam-runners-flink-{flink}-job-server:{beam}"
    runner = f"{GROUP}:beam-runners-flink-{flink}:{beam}"
    where = CACHE / f"{flink}-{beam}"
    cached = _resolved(where)
    if cached:
        return cached
    answers = []
    for artifact, transitive in ((shaded, False), (runner, True)):
        try:
            fetch(artifact, transitive, offline)
        except (NotServed, NotCached) as err:
            answers.append(err)
            continue
        jars = classpath(artifact, transitive, where)
        if not transitive:
            return _resolved(where, jars[0], jars)
        return _resolved(where, str(manifest_jar(jars, where / f"beam-runners-flink-{flink}-"
                                                        f"job-server-{beam}-assembled.jar")),
                         jars)
    if any(isinstance(a, NotCached) for a in answers):
        raise NotCached(f"Beam {beam}'s Flink {flink} job server is not cached: "
                        + "; ".join(map(str, answers)))
    raise NotServed(f"Maven does not serve Beam {beam}'s Flink {flink} job server: "
                    + "; ".join(map(str, answers)))


# --- running one ------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def die_with_parent():
    """For Popen's preexec_fn: the child gets SIGTERM when the process that started it dies,
    however it dies (SIGKILL, a CI timeout), so no JVM outlives its command (Linux)."""
    try:
        import ctypes
        import signal
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)   # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class JobServer:
    """`java -jar JAR` as Beam's FlinkRunner starts it, once for a whole build (every stage
    submits to it): `endpoint` is HOST:PORT for `--job_endpoint`. Its log goes to a file.
    `flink_conf`: Flink settings it applies to every job (`--flink-conf-dir`)."""

    def __init__(self, jar: str, flink_master: str, workdir: str, java: str = "java",
                 flink_conf: dict = None):
        self.jar, self.flink_master, self.workdir, self.java = jar, flink_master, workdir, java
        self.flink_conf = dict(flink_conf or {})
        self.proc = self.endpoint = None
        self.log_path = os.path.join(workdir, "flink-job-server.log")

    def start(self, timeout: float = 180) -> str:
        port = free_port()
        os.makedirs(self.workdir, exist_ok=True)
        cmd = [self.java, "-jar", self.jar, "--flink-master", self.flink_master,
               "--job-host", "127.0.0.1", "--job-port", str(port), "--artifact-port", "0",
               "--expansion-port", "0", "--artifacts-dir", os.path.join(self.workdir, "artifacts")]
        if self.flink_conf:     # Flink settings for every job it submits (restart strategy)
            conf_dir = os.path.join(self.workdir, "flink-conf")
            os.makedirs(conf_dir, exist_ok=True)
            with open(os.path.join(conf_dir, "config.yaml"), "w") as f:
                f.writelines(f"{k}: {v}\n" for k, v in self.flink_conf.items())
            cmd += ["--flink-conf-dir", conf_dir]
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, preexec_fn=die_with_parent)
        deadline = time.monotonic() + timeout
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"the Flink job server exited ({self.proc.returncode}) "
                                       f"before it listened: see {self.log_path}") from None
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"the Flink job server did not listen within "
                                       f"{timeout:.0f} s: see {self.log_path}") from None
                time.sleep(0.25)
        self.endpoint = f"127.0.0.1:{port}"
        return self.endpoint

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--flink_version", default=DEFAULT_FLINK)
    p.add_argument("--beam_version", default=None,
                   help="Beam release of the job server (default: the installed Beam)")
    p.add_argument("--offline", action="store_true",
                   help="use only what an earlier call fetched (Maven's cache); ask no network")
    args = p.parse_args(argv)
    try:
        print(job_server_jar(args.flink_version, args.beam_version, args.offline))
    except NotServed as err:
        print(f"error: {err}", file=sys.stderr)
        raise SystemExit(3) from None
    except RuntimeError as err:
        raise SystemExit(f"error: {err}") from None


if __name__ == "__main__":
    main()
