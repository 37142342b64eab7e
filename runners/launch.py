"""What the Dataflow and Flink launchers share: build the whole job's graphs with the real
options (`--dry_run`), list the steps and their resource hints, or run `build` for real."""
import importlib
import logging

import apache_beam as beam
from apache_beam.options.pipeline_options import PipelineOptions

from beam_pipelines import build

log = logging.getLogger("runners")


def stage_graphs(build_argv: list, runner_argv: list) -> list:
    """[(stage name, Pipeline)] for every stage of `build`, built but not run."""
    args, _ = build.build_parser().parse_known_args(build_argv)
    graphs = []
    for stage, stage_argv, runtime_argv in build.stage_plan(args, args.output.rstrip("/")):
        module = importlib.import_module(f"beam_pipelines.{stage.module}")
        if not hasattr(module, "graph"):
            continue  # human_validation ingest is a local step, not a Beam job
        p = beam.Pipeline(options=PipelineOptions(runner_argv))
        module.graph(p, stage_argv + runtime_argv, build_args=args)
        graphs.append((stage.name, p))
    return graphs


class _Steps(beam.pipeline.PipelineVisitor):
    def __init__(self):
        self.rows = []

    def visit_transform(self, node):      # leaf steps: what a runner executes
        self.rows.append((node.full_label, dict(node.resource_hints)))


def steps(pipeline) -> list:
    """(full label, resource hints) of every leaf step of a pipeline."""
    visitor = _Steps()
    pipeline.visit(visitor)
    return visitor.rows


def describe(graphs) -> str:
    """Each stage's top-level steps, with the resource hints their leaf steps carry."""
    lines = []
    for name, p in graphs:
        lines.append(f"stage {name}:")
        tops = {}
        for label, hints in steps(p):
            top = tops.setdefault(label.split("/")[0], {})
            top.update({k: _decode(v) for k, v in hints.items()})
        for top, hints in tops.items():
            shown = ", ".join(f"{k}={v}" for k, v in sorted(hints.items()))
            lines.append(f"  {top}" + (f"    [{shown}]" if shown else ""))
    return "\n".join(lines)


def _decode(value):
    return value.decode() if isinstance(value, bytes) else value


def launch(runner_name, errors, runner_argv, build_argv, dry_run, dry_run_argv=()):
    """Refuse invalid options; print the plan on --dry_run; else run `build` on the runner."""
    if errors:
        raise SystemExit(f"{runner_name} options are incomplete or invalid:\n  "
                         + "\n  ".join(errors))
    if dry_run:
        graphs = stage_graphs(build_argv, runner_argv + list(dry_run_argv))
        print_plan(runner_name, runner_argv, graphs)
        return graphs
    return build.run(build_argv + runner_argv)


def print_plan(runner_name, option_lines, graphs):
    print(f"== {runner_name} dry run: nothing is submitted ==")
    for line in option_lines:
        print(f"  {line}")
    print(describe(graphs))
    hinted = [(s, label) for s, p in graphs for label, h in steps(p) if h]
    print(f"== {len(graphs)} stage graphs built; {len(hinted)} steps carry resource hints ==")
