"""Runs one `python -m beam_pipelines.build ...` in this process and records where each
stage's time goes (used by benchmarks/build_cost.py; nothing in the job changes).

    python -m benchmarks.build_probe REPORT.json [build flags ...]

Per stage: wall and CPU seconds (this process and its reaped worker processes), the peak
resident memory of this process and of the largest worker process, and its phases:
`prepare` (input checks, manifests, imports: stage start to graph construction), `construct`
(the Beam graph), `run` (the runner, start-up included) and `finish` (stats, explorer,
manifests, publishing), plus `first_bundle_s` (from the runner's start to its first bundle:
worker processes starting and connecting) and every transform's execution time as the SDK
harness measures it (`beam:metric:ptransform_execution_time:total_msecs:v1`, summed over
workers and bundles).
"""
import json
import os
import resource
import sys
import time

MSECS = "beam:metric:ptransform_execution_time:total_msecs:v1"


def cpu_s() -> float:
    """CPU seconds of this process and of its children that have ended (Beam's worker
    processes end with their pipeline, so a stage's workers are counted when it ends)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _varint(payload: bytes) -> int:
    out = shift = 0
    for b in payload:
        out |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            break
    return out


def step_msecs(result) -> dict:
    """{transform label: msecs} from a finished FnApiRunner result."""
    out = {}
    try:
        infos = list(result.monitoring_infos())
    except Exception:  # noqa: BLE001 - a runner without monitoring infos reports none
        return out
    for mi in infos:
        if mi.urn == MSECS:
            label = mi.labels.get("PTRANSFORM", "?")
            out[label] = out.get(label, 0) + _varint(mi.payload)
    return out


class Probe:
    def __init__(self):
        self.stages = []
        self.current = None

    # -- patches (installed before any stage module is imported)
    def install(self):
        from transforms import builder
        from transforms.core import stage as core_stage
        original_run_stage = builder.Builder._run_stage
        original_local_runner = core_stage.local_runner
        probe = self

        def run_stage(self_, stage, fingerprint, tag):
            from benchmarks.procmon import TreeMonitor
            rec = {"stage": stage.name, "pipelines": [], "extra": {}}
            probe.current = rec
            monitor = TreeMonitor(os.getpid(), interval=0.1)
            monitor.start()
            t0, c0 = time.perf_counter(), cpu_s()
            try:
                return original_run_stage(self_, stage, fingerprint, tag)
            finally:
                rec["wall_s"] = time.perf_counter() - t0
                rec["cpu_s"] = cpu_s() - c0
                monitor.stop()
                # VmHWM: the main process's peak so far (it runs every stage), the
                # largest worker process's own peak
                rec["main_peak_rss_mb"] = round(monitor.runner_hwm / 2**20)
                rec["worker_peak_mb"] = round(monitor.worker_hwm / 2**20)
                rec["processes"] = monitor.max_procs
                rec["t0"] = t0
                probe.stages.append(rec)
                probe.current = None

        def local_runner(options):
            runner = original_local_runner(options)
            pipe = {"constructed_at": time.perf_counter()}
            if probe.current is not None:
                probe.current["pipelines"].append(pipe)
            if runner is None:
                from apache_beam.options.pipeline_options import StandardOptions
                if options.view_as(StandardOptions).runner != "FnApiRunner":
                    return None
                from apache_beam.runners.portability.fn_api_runner import FnApiRunner
                runner = FnApiRunner()
            original = runner.run_pipeline

            def run_pipeline(pipeline, opts):
                pipe["run_at"] = time.perf_counter()
                _FIRST["at"] = None
                result = original(pipeline, opts)
                pipe["done_at"] = time.perf_counter()
                pipe["first_bundle_at"] = _FIRST["at"]
                pipe["msecs"] = step_msecs(result)
                return result

            runner.run_pipeline = run_pipeline
            return runner

        builder.Builder._run_stage = run_stage
        core_stage.local_runner = local_runner
        _patch_first_bundle()
        _time_function("transforms.finalize.report.explorer", "write_explorer", self, "explorer_s")
        _time_function("transforms.finalize.exports.lm_eval_export", "write_lm_eval", self, "lm_eval_s")
        _time_function("transforms.core.manifest", "write", self, "manifest_write_s")
        _time_function("transforms.core.manifest", "check", self, "manifest_check_s")

    def report(self) -> dict:
        out = []
        for rec in self.stages:
            phases = {"prepare_s": None, "construct_s": 0.0, "run_s": 0.0, "finish_s": None,
                      "first_bundle_s": None}
            pipes = [p for p in rec["pipelines"] if "done_at" in p]
            if pipes:
                phases["prepare_s"] = pipes[0]["constructed_at"] - rec["t0"]
                phases["finish_s"] = rec["t0"] + rec["wall_s"] - pipes[-1]["done_at"]
                for p in pipes:
                    phases["construct_s"] += p["run_at"] - p["constructed_at"]
                    phases["run_s"] += p["done_at"] - p["run_at"]
                first = pipes[0].get("first_bundle_at")
                phases["first_bundle_s"] = first - pipes[0]["run_at"] if first else None
            msecs = {}
            for p in pipes:
                for k, v in p["msecs"].items():
                    msecs[k] = msecs.get(k, 0) + v
            out.append({k: v for k, v in rec.items() if k not in ("pipelines", "t0")}
                       | phases | {"step_msecs": msecs})
        return {"stages": out}


_FIRST = {"at": None}


def _patch_first_bundle():
    from apache_beam.runners.portability.fn_api_runner import fn_runner
    original = fn_runner.BundleManager.process_bundle

    def process_bundle(self, *args, **kwargs):
        if _FIRST["at"] is None:
            _FIRST["at"] = time.perf_counter()
        return original(self, *args, **kwargs)

    fn_runner.BundleManager.process_bundle = process_bundle


def _time_function(module: str, name: str, probe: Probe, key: str):
    import importlib
    mod = importlib.import_module(module)
    original = getattr(mod, name)

    def timed(*args, **kwargs):
        t = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            if probe.current is not None:
                extra = probe.current["extra"]
                extra[key] = extra.get(key, 0.0) + time.perf_counter() - t

    setattr(mod, name, timed)


def main():
    report_path, argv = sys.argv[1], sys.argv[2:]
    started, cpu0 = time.perf_counter(), cpu_s()
    from beam_pipelines import build, common
    imported = time.perf_counter() - started
    probe = Probe()
    probe.install()
    sys.argv = ["build", *argv]
    code = 0
    try:
        common.run_main(build.run, "build")
    except SystemExit as err:
        code = err.code if isinstance(err.code, int) else 1
        if code:
            print(err, file=sys.stderr)
    report = probe.report()
    report.update(import_s=imported, wall_s=time.perf_counter() - started,
                  cpu_s=cpu_s() - cpu0, exit=code)
    with open(report_path, "w") as f:
        json.dump(report, f, indent=1)
    sys.exit(code)


if __name__ == "__main__":
    main()
