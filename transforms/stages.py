"""The whole job, as the paper's Figure 2: one stage after the other, each a Beam job of
its own with a completion marker, so a build resumes where it stopped.

    generate (3.1 curation, 3.2 generation) -> train_folds -> adversarial_filter (3.3
    machine filtering) -> [human_validation ingest] (3.4 human filtering) -> finalize (3.4
    splits, exports, statistics)

`BuildConfig` composes the stages' settings (one frozen dataclass each) with the run's
paths; `STAGES` says what each stage reads, writes and runs. The orchestration (markers,
fingerprints, lock) is in `transforms/build.py`.
"""
import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple, Optional

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


class Stage(NamedTuple):
    name: str
    outputs: tuple               # folders under the run folder that the stage owns
    upstream: tuple              # stages whose outputs it reads
    settings: Callable           # BuildSettings -> this stage's settings
    run: Callable                # (BuildConfig, staging url, Runtime, extra) -> stats dict
    graph: Callable              # (pipeline, BuildConfig, extra) -> None (dry runs)
    when: Callable = lambda config: True
    model_step: bool = False     # gets the GPU resource hints
    defines_queries: bool = False  # its rerun changes query ids (hits/, validated/ go stale)
    resumable: bool = False      # keeps its staging folder across runs (checks it itself)


# --- each stage's config from the build's --------------------------------------------

def generate_config(config: BuildConfig, out: str):
    from transforms.generation.stage import GenerateConfig, GeneratePaths
    return GenerateConfig(GeneratePaths(config.paths.inputs, out), config.settings.generate)


def train_config(config: BuildConfig, out: str):
    from transforms.machine_filtering.config import TrainConfig, TrainPaths
    return TrainConfig(TrainPaths(join(config.paths.output, "candidates"),
                                  join(out, "adversary")), config.settings.train_folds)


def filter_config(config: BuildConfig, out: str):
    from transforms.machine_filtering.config import FilterConfig, FilterPaths
    run = config.paths.output
    return FilterConfig(FilterPaths(join(run, "candidates"), join(run, "adversary"),
                                    join(out, "filtered")), config.settings.adversarial_filter)


def finalize_config(config: BuildConfig, out: str):
    from transforms.finalize.config import FinalizeConfig, FinalizePaths
    run = config.paths.output
    validated = join(run, "validated") if config.paths.results else None
    return FinalizeConfig(FinalizePaths(filtered=join(run, "filtered"),
                                        output=join(out, "dataset"), validated=validated,
                                        run_dir=run), config.settings.finalize)


# --- running them ----------------------------------------------------------------------

def _run_generate(config, out, runtime, extra):
    from transforms.generation import stage
    return stage.run(generate_config(config, out), runtime, extra.get("files"),
                     extra.get("total"))


def _run_train(config, out, runtime, extra):
    from transforms.machine_filtering import train_stage
    return train_stage.run(train_config(config, out), runtime)


def _run_filter(config, out, runtime, extra):
    from transforms.machine_filtering import filter_stage
    return filter_stage.run(filter_config(config, out), runtime)


def _run_ingest(config, out, runtime, extra):
    from transforms.core.io_utils import glob
    from transforms.human_filtering.ingest import ingest
    hits = join(config.paths.output, "hits")      # where `export` puts the HITs of a run
    return ingest(config.paths.results, join(out, "validated"),
                  config.settings.human_validation,
                  hits if glob(join(hits, "manifest.json")) else None)


def _run_finalize(config, out, runtime, extra):
    from transforms.finalize import stage
    return stage.run(finalize_config(config, out), runtime)


def _graph_generate(p, config, extra):
    from transforms.generation import stage
    stage.graph(p, generate_config(config, config.paths.output))


def _graph_train(p, config, extra):
    from transforms.machine_filtering import train_stage
    train_stage.graph(p, train_config(config, config.paths.output), extra.get("hints"),
                      check_files=False)


def _graph_filter(p, config, extra):
    from transforms.machine_filtering import filter_stage
    s = config.settings.train_folds
    metas = [{"fold": f, "folds": s.folds, "model": s.model, "model_params": {},
              "checkpoint": "model.pt"} for f in range(s.folds)
             if config.settings.adversarial_filter.uses_kfold()]
    hints = extra.get("hints") or {}
    cfg = filter_config(config, config.paths.output)
    filter_stage.graph(p, cfg, metas, filter_stage.handler_device(cfg.settings.device, hints),
                       hints, check_files=False)


def _graph_finalize(p, config, extra):
    from transforms.finalize import stage
    stage.graph(p, finalize_config(config, config.paths.output))


STAGES = (
    Stage("generate", ("candidates", "rejected", "articles", "stats"), (),
          lambda s: s.generate, _run_generate, _graph_generate, defines_queries=True),
    Stage("train_folds", ("adversary",), ("generate",), lambda s: s.train_folds, _run_train,
          _graph_train, model_step=True, resumable=True,
          when=lambda config: config.settings.adversarial_filter.uses_kfold()),
    Stage("adversarial_filter", ("filtered",), ("generate", "train_folds"),
          lambda s: s.adversarial_filter, _run_filter, _graph_filter, model_step=True,
          defines_queries=True),
    Stage("human_validation", ("validated",), ("adversarial_filter",),
          lambda s: s.human_validation, _run_ingest, None,
          when=lambda config: bool(config.paths.results)),
    Stage("finalize", ("dataset",), ("adversarial_filter", "human_validation"),
          lambda s: s.finalize, _run_finalize, _graph_finalize),
)
STAGE_NAMES = tuple(s.name for s in STAGES)
#: Outputs of other tools that refer to query ids: moved aside when the ids change.
TIED_TO_QUERY_IDS = ("hits", "validated", "*.sqlite", "*.db")


def plan(config: BuildConfig) -> list:
    return [s for s in STAGES if s.when(config)]


def describe_settings(stage: Stage, settings: BuildSettings) -> Any:
    return stage.settings(settings)
