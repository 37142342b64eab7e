"""Running the stages of `transforms/stages.py` into one run folder, trustworthily.

Fingerprints. A stage's completion marker records the hash of its effective settings
(every field, defaults included), of the tool's own Python source (`code_digest`: another
version of the code is another run), of its input files (path, size, and generation/etag or
modification time) for the stage that reads the corpus, and of its upstream stages'
output manifests. A stage reruns when its fingerprint changed, when `--force` names it or
a stage upstream of it, or when its outputs no longer match their manifests (a shard
deleted after the run, or rewritten: every file's sha256 is recomputed); a stage whose upstream reran reruns too.

One run per folder. If a stage already finished here with other settings or other inputs,
the build refuses, naming what changed, unless `overwrite`: then the changed stages rerun
and outputs tied to the old query ids (hits/, validated/, annotation databases) are moved
aside under _superseded/, never deleted. A lock keeps a second build out of the folder.

Ownership. The build deletes only what it wrote: a run folder whose stage outputs hold
files their manifests do not list is refused at the start (one line naming one), and a
file dropped in while the build runs is moved aside under _foreign/ when the stage's
outputs are replaced (transforms/core/outputs.py).
"""
import hashlib
import json
import logging
import time
from typing import Optional

from transforms.core import config as C
from transforms.core import manifest
from transforms.core.io_utils import glob_details
from transforms.core.preflight import InputError
from transforms.core.rundir import RunDir
from transforms.core.stage import Runtime, current, on_exit
from transforms.stages import STAGES, TIED_TO_QUERY_IDS, BuildConfig, plan

log = logging.getLogger("build")


def _digest(obj) -> str:
    blob = json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


_CODE_PACKAGES = ("beam_pipelines", "transforms", "models")


def code_digest() -> str:
    """The hash of the tool's own Python source (every .py file of its packages, by path
    and content): a run folder built by another version of the code is not this run, even
    with the same settings and inputs (its rules may have changed every output)."""
    import pathlib

    import transforms
    root = pathlib.Path(transforms.__file__).resolve().parent.parent
    h = hashlib.sha256()
    for package in _CODE_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def input_listing(config: BuildConfig) -> list:
    """[[path, size, version, origin(, settings)]] of every corpus file, sorted; an input's
    publisher and column names join its rows, so changing them reruns generate."""
    from transforms.ingestion import arrow
    from transforms.ingestion.specs import as_spec
    rows = []
    for spec in map(as_spec, config.paths.inputs):
        settings = ([{"source": spec.source, "columns": dict(spec.columns)}]
                    if spec.source or spec.columns else [])
        pattern = spec.pattern
        patterns = [p for p, _ in arrow.datasets_files(pattern)] if arrow.is_datasets_folder(
            pattern) else [pattern]
        for one in patterns:
            for path, size, version in glob_details(one):
                rows.append([path, size, version, spec.origin] + settings)
    return sorted(rows)


def results_listing(config: BuildConfig) -> list:
    return [list(r) for r in glob_details(config.paths.results)] if config.paths.results else []


def listing_changes(old: list, new: list) -> str:
    before = {r[0]: r for r in old}
    after = {r[0]: r for r in new}
    added = sorted(set(after) - set(before))
    removed = sorted(set(before) - set(after))
    changed = sorted(p for p in set(after) & set(before) if after[p] != before[p])
    # an input's origin, publisher or column names (row items 3 on) changed, not the file
    relabelled = [p for p in changed if after[p][:3] == before[p][:3]]
    changed = [p for p in changed if p not in relabelled]
    parts = []
    for label, items in (("added", added), ("removed", removed), ("changed", changed),
                         ("read with other origin, source or columns", relabelled)):
        if items:
            parts.append(f"{len(items)} input file(s) {label} (e.g. {items[0]})")
    return ", ".join(parts) or "the inputs differ"


def settings_changes(old: dict, new: dict, prefix="") -> list:
    out = []
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key, "<absent>"), new.get(key, "<absent>")
        if isinstance(a, dict) and isinstance(b, dict):
            out += settings_changes(a, b, f"{prefix}{key}.")
        elif a != b:
            out.append(f"{prefix}{key} {a!r} -> {b!r}")
    return out


class Builder:
    def __init__(self, config: BuildConfig, runtime: Runtime = Runtime(), force=(),
                 overwrite: bool = False, extra: Optional[dict] = None):
        self.config, self.runtime = config, runtime
        self.force, self.overwrite = set(force), overwrite
        self.extra = dict(extra or {})
        self.run_dir = RunDir(config.paths.output)
        self.stages = plan(config)
        self.listings = {"generate": input_listing(config),
                         "human_validation": results_listing(config)}
        self.code = code_digest()

    # -- what this run would record
    def own_parts(self, stage) -> dict:
        settings = stage.settings_of(self.config.settings)
        return {"settings": C.digest(settings),
                "inputs": _digest(self.listings.get(stage.name, [])), "code": self.code}

    def downstream_of(self, names) -> set:
        out, grew = set(names), True
        while grew:
            grew = False
            for s in STAGES:
                if s.name not in out and set(s.upstream) & out:
                    out.add(s.name)
                    grew = True
        return out

    def _saved_listing(self, stage: str) -> list:
        path = f"{self.run_dir.path}/_build/{stage}.inputs.json"
        try:
            with self.run_dir.fs.open(path, "r") as f:
                return json.load(f)
        except (FileNotFoundError, ValueError, OSError):
            return []

    def changes(self) -> list:
        """What differs from the stages already finished here (user-controlled parts)."""
        out = []
        for stage in self.stages:
            marker = self.run_dir.marker(stage.name)
            if marker is None:
                continue
            old, new = marker["fingerprint"], self.own_parts(stage)
            if old.get("settings") != new["settings"]:
                diff = settings_changes(marker.get("settings") or {},
                                        C.as_dict(stage.settings_of(self.config.settings)))
                out.append(f"{stage.name} settings: " + ("; ".join(diff[:4]) or "changed"))
            if old.get("code") != new["code"]:
                out.append(f"{stage.name}: built by another version of the tool's code "
                           f"({old.get('code') or 'unrecorded'} -> {new['code']})")
            if old.get("inputs") != new["inputs"]:
                out.append(f"{stage.name}: " + listing_changes(
                    self._saved_listing(stage.name), self.listings.get(stage.name, [])))
        return out

    # -- the run
    def check_ownership(self) -> None:
        """Refuse to start when a folder some stage would replace holds files the build did
        not write (transforms/core/outputs.py): never delete the user's files."""
        from transforms.core.outputs import check_owned
        check_owned({folder: self.run_dir.join(folder) for stage in self.stages
                     for folder in stage.outputs})

    def run(self) -> dict:
        rd = self.run_dir
        self.check_ownership()
        changes = self.changes()
        if changes and not self.overwrite:
            raise InputError(f"{rd.url} already holds a run built with other inputs or "
                             f"settings ({'; '.join(changes)}): use --overwrite to rebuild it "
                             "there (outputs tied to the old query ids are moved aside), or "
                             "another --output")
        forced = self.downstream_of(self.force)
        markers, reran, moved_aside = {}, set(), False
        started_all = time.monotonic()
        for i, stage in enumerate(self.stages, start=1):
            tag = f"[{i}/{len(self.stages)}] {stage.name}"
            fingerprint = dict(self.own_parts(stage), upstream={
                u: markers[u]["outputs_digest"] for u in stage.upstream if u in markers})
            marker = rd.marker(stage.name)
            why = self._why_rerun(stage, marker, fingerprint, forced, reran)
            if why is None:
                log.info("%s: complete (fingerprint matches), skipped", tag)
                markers[stage.name] = marker
                continue
            if (self.overwrite and stage.defines_queries and marker is not None
                    and not moved_aside):
                moved = rd.move_aside(TIED_TO_QUERY_IDS)
                moved_aside = True
                for rel, dst in moved:
                    log.warning("moved %s aside to %s: it refers to the old query ids", rel, dst)
            log.info("%s: start (%s)", tag, why)
            markers[stage.name] = self._run_stage(stage, fingerprint, tag)
            reran.add(stage.name)
        log.info("build: all %d stages complete in %.1f s", len(self.stages),
                 time.monotonic() - started_all)
        return markers

    def _why_rerun(self, stage, marker, fingerprint, forced, reran) -> Optional[str]:
        if stage.name in forced:
            return "forced"
        if marker is None:
            return "not run yet"
        if set(stage.upstream) & reran:
            return "an upstream stage reran"
        if marker["fingerprint"] != fingerprint:
            return "fingerprint changed"
        for folder in stage.outputs:
            problem = self._damage(folder, marker)
            if problem:
                log.warning("%s: %s; rerunning it", stage.name, problem)
                return "outputs damaged"
        return None

    def _damage(self, folder: str, marker: dict) -> Optional[str]:
        url = self.run_dir.join(folder)
        stored = manifest.read(url)
        if stored is None:
            return f"{folder}/ is missing or has no manifest"
        if manifest.digest(stored) != marker.get("outputs", {}).get(folder):
            return f"{folder}/ was rewritten after the stage finished"
        problems = manifest.differences(stored, manifest.describe(url, rows=False))
        return f"{folder}/ does not match its manifest: {'; '.join(problems)}" if problems else None

    def _run_stage(self, stage, fingerprint, tag) -> dict:
        rd = self.run_dir
        rd.clear_marker(stage.name)
        staging = rd.staging(stage.name, keep=stage.resumable)
        forget = on_exit(lambda: None if stage.resumable else rd.drop_staging(stage.name))
        runtime = self.runtime if stage.model_step else Runtime(
            self.runtime.beam_args, self.runtime.workers, (), self.runtime.progress)
        started = time.monotonic()
        try:
            with current(stage.name):
                result = stage.run_in_build(self.config, staging, runtime, self.extra)
            for folder in stage.outputs:
                url = f"{staging}/{folder}"
                if manifest.read(url) is None and rd.fs.exists(url.split("://")[-1]
                                                               if "://" in url else url):
                    manifest.write(url)
            rd.publish(stage.name, stage.outputs)
        except BaseException:
            if not stage.resumable:   # a resumable stage's next run reuses what it finished
                rd.drop_staging(stage.name)
            raise
        finally:
            forget()
        outputs = {f: manifest.digest(manifest.read(rd.join(f)) or {}) for f in stage.outputs}
        marker = {"stage": stage.name, "fingerprint": fingerprint, "outputs": outputs,
                  "outputs_digest": _digest(outputs),
                  "settings": C.as_dict(stage.settings_of(self.config.settings)),
                  "elapsed_s": round(time.monotonic() - started, 1),
                  "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                  "summary": summary_of(result)}
        if stage.name in self.listings:
            with rd.fs.open(f"{rd.path}/_build/{stage.name}.inputs.json", "w") as f:
                json.dump(self.listings[stage.name], f)
        rd.write_marker(stage.name, marker)
        log.info("%s: done in %.1f s  %s", tag, marker["elapsed_s"], marker["summary"])
        return marker


def summary_of(result) -> str:
    """A short line of counts from whatever the stage's run() returned."""
    if isinstance(result, dict):
        for key in ("summary", "totals"):
            if isinstance(result.get(key), dict):
                result = result[key]
                break
        items = [(k, v) for k, v in result.items() if isinstance(v, (int, float))]
        return ", ".join(f"{k} {round(v, 3) if isinstance(v, float) else v}"
                         for k, v in items[:8])
    return ""
