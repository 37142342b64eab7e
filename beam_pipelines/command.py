"""One stage's command, built from its spec (transforms/stages.py): the entry point only
says which flags name its paths.

    COMMAND = StageCommand(BY_NAME["finalize"], __doc__, add_paths, paths)
    build_parser, config_from_args, graph, run, main = COMMAND.entry_points()
"""
import dataclasses
from typing import Callable

from beam_pipelines import common
from transforms.core import config as C


@dataclasses.dataclass(frozen=True)
class StageCommand:
    spec: object                    # transforms.stages.StageSpec
    doc: str                        # the module docstring: its first line is --help's
    add_paths: Callable             # (parser) -> None: the flags that name its paths
    paths: Callable                 # (args) -> {path name: value} for spec.make_config
    workers_help: str = "one per core"

    @property
    def leaves(self) -> tuple:
        return tuple(C.leaves(self.spec.settings))

    def build_parser(self):
        from transforms.core.resources import add_gpu_args
        p = common.parser(self.doc.split("\n")[0])
        self.add_paths(p)
        common.add_workers_flag(p, self.workers_help)
        C.add_flags(p, self.leaves, f"{self.spec.name} settings (the paper's numbers are "
                                    "the defaults)")
        if self.spec.model_step:
            add_gpu_args(p)
        return p

    def config_from_args(self, args):
        try:
            settings = C.override(self.spec.settings(), self.leaves, C.given(args, self.leaves))
        except ValueError as err:
            raise common.InputError(str(err)) from None
        return self.spec.make_config(self.paths(args), settings)

    def _extra(self, args, build_args=None) -> dict:
        from transforms.core.resources import gpu_hints
        extra = {"hints": gpu_hints(args) if self.spec.model_step else {}}
        for name in ("model", "folds"):     # the fold readers a dry run plans for
            if hasattr(build_args, name):
                extra[name] = getattr(build_args, name)
        return extra

    def graph(self, p, argv, build_args=None):
        """The job's graph on pipeline `p`, without running it (the runners' --dry_run)."""
        args, _ = common.parse(self.build_parser(), argv)
        self.spec.graph(p, self.config_from_args(args), self._extra(args, build_args))
        return args

    def run(self, argv=None) -> dict:
        """Pre-flight (where the stage has one), then the job; returns its stats."""
        from transforms.core.stage import Runtime
        args, beam_args = common.parse(self.build_parser(), argv)
        config = self.config_from_args(args)
        extra = self._extra(args)
        if self.spec.preflight:
            extra.update(self.spec.preflight(config))
        runtime = Runtime(beam_args, args.workers, tuple(extra["hints"].items()))
        return self.spec.run(config, runtime, extra)

    def main(self):
        common.run_main(self.run, self.spec.name)

    def entry_points(self) -> tuple:
        return self.build_parser, self.config_from_args, self.graph, self.run, self.main
