"""What the Dataflow and Flink launchers share: build the whole job's graphs with the real
options (`--dry_run`), list the steps, their resource hints and each stage's serialized
job-graph size, or run `build` for real."""
import logging

log = logging.getLogger("runners")
#: Dataflow refuses job graphs over ~20 MB; a stage's graph must not grow with the data.
GRAPH_LIMIT_BYTES = 20 * 1024 * 1024
#: Flink's batch optimizer (the DataSet API, which Beam's portable Flink runner uses for
#: batch jobs) walks every path from the sinks to the sources, without marking a node as
#: seen (`UnionParallelismAndForwardEnforcer`): a graph whose paths multiply compiles for
#: ever. AFLite unrolled per iteration had 4e19 (docs/usage.md, "Flink"); today's largest
#: stage has under 2,000.
PATH_LIMIT = 100_000


def build_config(build_argv: list):
    from beam_pipelines import build
    from beam_pipelines.common import parse
    args, _ = parse(build.build_parser(), build_argv)
    return args, build.config_from_args(args)


def stage_graphs(build_argv: list, runner_argv: list) -> list:
    """[(stage name, Pipeline)] for every stage of `build`, built but not run."""
    import apache_beam as beam
    from apache_beam.options.pipeline_options import PipelineOptions

    from transforms.core.resources import gpu_hints
    from transforms.stages import plan
    args, config = build_config(build_argv)
    hints = gpu_hints(args)
    graphs = []
    for stage in plan(config):
        if stage.graph is None:
            continue  # human_validation ingest is a local step, not a Beam job
        p = beam.Pipeline(options=PipelineOptions(runner_argv))
        stage.graph_in_build(p, config, {"hints": hints if stage.model_step else {}})
        graphs.append((stage.name, p))
    return graphs


def graph_bytes(pipeline) -> int:
    """The size of the serialized job graph a runner receives."""
    return len(pipeline.to_runner_api().SerializeToString())


def graph_paths(pipeline) -> int:
    """The number of paths from the sinks to the sources of a pipeline's leaf steps, side
    inputs included: what Flink's batch optimizer walks one by one (PATH_LIMIT)."""
    import functools
    comps = pipeline.to_runner_api().components
    leaves = {tid: t for tid, t in comps.transforms.items() if not t.subtransforms}
    producer = {pc: tid for tid, t in leaves.items() for pc in t.outputs.values()}
    consumed = {pc for t in leaves.values() for pc in t.inputs.values()}

    @functools.lru_cache(maxsize=None)
    def paths(tid) -> int:      # to the sources; a step reading its own output is no path
        ups = [producer[pc] for pc in leaves[tid].inputs.values()
               if producer.get(pc, tid) != tid]
        return sum(paths(u) for u in ups) if ups else 1

    order, seen = [], set()     # producers before consumers: no deep recursion

    def visit(tid):
        stack = [(tid, False)]
        while stack:
            node, done = stack.pop()
            if done:
                order.append(node)
            elif node not in seen:
                seen.add(node)
                stack.append((node, True))
                stack.extend((producer[pc], False) for pc in leaves[node].inputs.values()
                             if producer.get(pc, node) != node)
    for tid in leaves:
        visit(tid)
    for tid in order:
        paths(tid)
    return sum(paths(tid) for tid, t in leaves.items()
               if not any(pc in consumed for pc in t.outputs.values()))


def _steps_visitor():
    import apache_beam as beam

    class Steps(beam.pipeline.PipelineVisitor):
        def __init__(self):
            self.rows = []

        def visit_transform(self, node):      # leaf steps: what a runner executes
            self.rows.append((node.full_label, dict(node.resource_hints)))
    return Steps()


def steps(pipeline) -> list:
    """(full label, resource hints) of every leaf step of a pipeline."""
    visitor = _steps_visitor()
    pipeline.visit(visitor)
    return visitor.rows


def describe(graphs) -> str:
    """Each stage's top-level steps, with the resource hints their leaf steps carry."""
    lines = []
    for name, p in graphs:
        lines.append(f"stage {name}: job graph {graph_bytes(p):,} bytes, "
                     f"{graph_paths(p):,} sink-to-source paths")
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


def launch(runner_name, errors, runner_argv, build_argv, dry_run, dry_run_argv=(),
           check_config=None):
    """Refuse invalid options; print the plan on --dry_run; else run `build` on the runner.
    `check_config(config)`: the runner's own checks of the build's paths (errors list)."""
    from beam_pipelines import build
    if not errors and check_config is not None:
        _, config = build_config(build_argv)
        errors = check_config(config)
    if len(errors) == 1:
        raise SystemExit(f"error: {runner_name}: {errors[0]}")
    if errors:
        raise SystemExit(f"error: {runner_name} options are incomplete or invalid:\n  "
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
    sizes = {s: graph_bytes(p) for s, p in graphs}
    too_big = [s for s, n in sizes.items() if n > GRAPH_LIMIT_BYTES]
    print(f"== {len(graphs)} stage graphs built; {len(hinted)} steps carry resource hints; "
          f"largest job graph {max(sizes.values()):,} bytes ==")
    if too_big:
        print(f"!! over Dataflow's ~20 MB job-graph limit: {', '.join(too_big)}")
    tangled = [s for s, p in graphs if graph_paths(p) > PATH_LIMIT]
    if tangled:
        print(f"!! over {PATH_LIMIT:,} sink-to-source paths (Flink's batch optimizer walks "
              f"each): {', '.join(tangled)}")
