"""The whole job, as the paper's Figure 2: one stage after the other, each a Beam job of
its own with a completion marker, so a build resumes where it stopped.

    generate (3.1 curation, 3.2 generation) -> train_folds -> adversarial_filter (3.3
    machine filtering) -> [human_validation ingest] (3.4 human filtering) -> finalize (3.4
    splits, exports, statistics)

`BuildConfig` composes the stages' settings (one frozen dataclass each) with the run's
paths; `STAGES` says what each stage reads, writes and runs. The orchestration (markers,
fingerprints, lock) is in `transforms/builder.py`; each stage's command is built from its
spec by `beam_pipelines/common.py` (`StageCommand`).
"""
import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from transforms.core.io_utils import join
from transforms.finalize.config import FinalizeSettings
from transforms.generation.stage import GenerateSettings
from transforms.human_filtering.worker_quality import QualityConfig
from transforms.machine_filtering.config import FilterSettings, TrainSettings


@dataclass(frozen=True)
class BuildSettings:
    generate: GenerateSettings = field(default_factory=GenerateSettings)
    train_folds: TrainSettings = field(default_factory=TrainSettings)
    adversarial_filter: FilterSettings = field(default_factory=FilterSettings)
    human_validation: QualityConfig = field(default_factory=QualityConfig)
    finalize: FinalizeSettings = field(default_factory=FinalizeSettings)


@dataclass(frozen=True)
class BuildPaths:
    inputs: tuple                  # ((pattern, origin), ...)
    output: str                    # the run folder
    results: Optional[str] = None  # human-validation results to ingest before finalize


@dataclass(frozen=True)
class BuildConfig:
    paths: BuildPaths
    settings: BuildSettings = field(default_factory=BuildSettings)


#: Settings two stages must agree on: (flag, ((stage, path), ...)).
SHARED = (("folds", (("generate", ("query", "folds")), ("train_folds", ("folds",)))),)


def shared_conflicts(settings: BuildSettings) -> list:
    out = []
    for flag, places in SHARED:
        values = {}
        for stage, path in places:
            v = getattr(settings, stage)
            for name in path:
                v = getattr(v, name)
            values[stage] = v
        if len(set(values.values())) > 1:
            out.append(f"{flag} differs between stages: "
                       + ", ".join(f"{s} {v}" for s, v in values.items()))
    return out


def with_shared(settings: BuildSettings, flag: str, value) -> BuildSettings:
    """`settings` with a shared setting set in every stage that has it."""
    for name, places in SHARED:
        if name != flag:
            continue
        for stage, path in places:
            obj = getattr(settings, stage)
            obj = _replace(obj, path, value)
            settings = dataclasses.replace(settings, **{stage: obj})
    return settings


def _replace(obj, path, value):
    if len(path) == 1:
        return dataclasses.replace(obj, **{path[0]: value})
    return dataclasses.replace(obj, **{path[0]: _replace(getattr(obj, path[0]), path[1:], value)})


def _always(config) -> bool:
    return True


@dataclass(frozen=True)
class StageSpec:
    """One stage of Figure 2, as `build` and the stage's own command see it. Its parts
    import the stage's module only when called (a command's --help stays instant)."""
    name: str                      # its command, [table] of the config file, stats, marker
    settings: type                 # its frozen settings dataclass (BuildSettings.<name>)
    outputs: tuple                 # folders under the run folder that it owns
    upstream: tuple                # stages whose outputs it reads
    make_config: Callable          # (paths: dict, settings) -> the stage's config
    build_paths: Callable          # (BuildConfig, output folder) -> its paths in a build
    run: Callable                  # (stage config, Runtime, extra: dict) -> its stats
    graph: Optional[Callable] = None  # (pipeline, stage config, extra) -> None (dry runs)
    preflight: Optional[Callable] = None  # (stage config) -> extra, before any pipeline
    when: Callable = _always       # (BuildConfig) -> whether a build runs it
    model_step: bool = False       # gets the GPU resource hints and the GPU flags
    defines_queries: bool = False  # its rerun changes query ids (hits/, validated/ go stale)
    resumable: bool = False        # keeps its staging folder across runs (checks it itself)

    def settings_of(self, settings: BuildSettings) -> Any:
        return getattr(settings, self.name)

    def config_in_build(self, config: BuildConfig, out: str):
        """The stage's config in a build whose outputs go under `out` (staging)."""
        return self.make_config(self.build_paths(config, out), self.settings_of(config.settings))

    def run_in_build(self, config: BuildConfig, out: str, runtime, extra: dict) -> dict:
        return self.run(self.config_in_build(config, out), runtime, dict(extra, build=config))

    def graph_in_build(self, p, config: BuildConfig, extra: dict) -> None:
        self.graph(p, self.config_in_build(config, config.paths.output),
                   dict(extra, build=config))


def fold_metas(model: str, folds: int, uses_kfold: bool) -> list:
    """What the filter's graph knows of the fold readers before they exist (dry runs)."""
    return [{"fold": f, "folds": folds, "model": model, "model_params": {},
             "checkpoint": "model.pt"} for f in range(folds) if uses_kfold]


# --- generate (3.1 curation, 3.2 generation) --------------------------------------------

def _generate_config(paths: dict, settings):
    from transforms.generation.stage import GenerateConfig, GeneratePaths
    return GenerateConfig(GeneratePaths(paths["inputs"], paths["output"]), settings)


def _generate_run(config, runtime, extra):
    from transforms.generation import stage
    return stage.run(config, runtime, extra.get("files"), extra.get("total"))


def _generate_graph(p, config, extra):
    from transforms.generation import stage
    stage.graph(p, config)


def _generate_preflight(config) -> dict:
    """Inputs listed and the output checked before any pipeline starts: the files the job
    reads ([InputFile], capped for --limit) and the records expected."""
    from transforms.core.preflight import check_writable
    from transforms.ingestion import inputs
    listed = inputs.list_inputs(config.paths.inputs)
    check_writable(config.paths.output)
    limit = config.settings.read.limit
    if limit is not None:
        return {"files": inputs.limit_files(listed, limit), "total": limit}
    total, _ = inputs.estimate_records(listed)
    return {"files": inputs.listed_files(listed), "total": total}


# --- train_folds, adversarial_filter (3.3 machine filtering) ------------------------------

def _train_config(paths: dict, settings):
    from transforms.machine_filtering.config import TrainConfig, TrainPaths
    return TrainConfig(TrainPaths(paths["candidates"], paths["output"]), settings)


def _train_run(config, runtime, extra):
    from transforms.machine_filtering import train_stage
    return train_stage.run(config, runtime)


def _train_graph(p, config, extra):
    from transforms.machine_filtering import train_stage
    train_stage.graph(p, config, extra.get("hints"), check_files=False)


def _filter_config(paths: dict, settings):
    from transforms.machine_filtering.config import FilterConfig, FilterPaths
    return FilterConfig(FilterPaths(paths["candidates"], paths["adversary"], paths["output"]),
                        settings)


def _filter_run(config, runtime, extra):
    from transforms.machine_filtering import filter_stage
    return filter_stage.run(config, runtime)


def _filter_graph(p, config, extra):
    """The fold models do not exist yet in a dry run: one handler per fold of the build's
    train_folds settings (or the command's `model`/`folds`)."""
    from transforms.machine_filtering import filter_stage
    train = extra["build"].settings.train_folds if extra.get("build") else None
    metas = fold_metas(train.model if train else extra.get("model", "lexical"),
                       train.folds if train else extra.get("folds", 5),
                       config.settings.uses_kfold())
    hints = extra.get("hints") or {}
    filter_stage.graph(p, config, metas, filter_stage.handler_device(config.settings.device,
                                                                     hints),
                       hints, check_files=False)


# --- human_validation ingest (3.4 human filtering), finalize (3.4) ----------------------

def _ingest_config(paths: dict, settings):
    return dict(paths, settings=settings)


def _ingest_run(config, runtime, extra):
    from transforms.core.io_utils import glob
    from transforms.human_filtering.ingest import ingest
    hits = config["hits"]          # where `export` puts the HITs of a run
    return ingest(config["results"], config["output"], config["settings"],
                  hits if glob(join(hits, "manifest.json")) else None)


def _finalize_config(paths: dict, settings):
    from transforms.finalize.config import FinalizeConfig, FinalizePaths
    return FinalizeConfig(FinalizePaths(paths["filtered"], paths["output"],
                                        paths.get("validated"), paths.get("run_dir")),
                          settings)


def _finalize_run(config, runtime, extra):
    from transforms.finalize import stage
    return stage.run(config, runtime)


def _finalize_graph(p, config, extra):
    from transforms.finalize import stage
    stage.graph(p, config)


STAGES = (
    StageSpec(name="generate", settings=GenerateSettings,
              outputs=("candidates", "rejected", "articles", "stats"), upstream=(),
              make_config=_generate_config,
              build_paths=lambda c, out: {"inputs": c.paths.inputs, "output": out},
              run=_generate_run, graph=_generate_graph, preflight=_generate_preflight,
              defines_queries=True),
    StageSpec(name="train_folds", settings=TrainSettings,
              outputs=("adversary",), upstream=("generate",),
              make_config=_train_config,
              build_paths=lambda c, out: {"candidates": join(c.paths.output, "candidates"),
                                          "output": join(out, "adversary")},
              run=_train_run, graph=_train_graph, model_step=True, resumable=True,
              when=lambda c: c.settings.adversarial_filter.uses_kfold()),
    StageSpec(name="adversarial_filter", settings=FilterSettings,
              outputs=("filtered",), upstream=("generate", "train_folds"),
              make_config=_filter_config,
              build_paths=lambda c, out: {"candidates": join(c.paths.output, "candidates"),
                                          "adversary": join(c.paths.output, "adversary"),
                                          "output": join(out, "filtered")},
              run=_filter_run, graph=_filter_graph, model_step=True, defines_queries=True),
    StageSpec(name="human_validation", settings=QualityConfig,
              outputs=("validated",), upstream=("adversarial_filter",),
              make_config=_ingest_config,
              build_paths=lambda c, out: {"results": c.paths.results,
                                          "output": join(out, "validated"),
                                          "hits": join(c.paths.output, "hits")},
              run=_ingest_run, when=lambda c: bool(c.paths.results)),
    StageSpec(name="finalize", settings=FinalizeSettings,
              outputs=("dataset",), upstream=("adversarial_filter", "human_validation"),
              make_config=_finalize_config,
              build_paths=lambda c, out: {
                  "filtered": join(c.paths.output, "filtered"), "output": join(out, "dataset"),
                  "validated": join(c.paths.output, "validated") if c.paths.results else None,
                  "run_dir": c.paths.output},
              run=_finalize_run, graph=_finalize_graph),
)
STAGE_NAMES = tuple(s.name for s in STAGES)
BY_NAME = {s.name: s for s in STAGES}
#: Outputs of other tools that refer to query ids: moved aside when the ids change.
TIED_TO_QUERY_IDS = ("hits", "validated", "*.sqlite", "*.db")


def plan(config: BuildConfig) -> list:
    return [s for s in STAGES if s.when(config)]


