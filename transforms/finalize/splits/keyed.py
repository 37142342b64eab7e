"""Small pieces the finalize composites share: keyed joins and grouping steps that
report the largest group one call received (`max_group`, the hot-key diagnostic)."""
import apache_beam as beam

from transforms.core.accounting import Count, StepFn, Uncounted


def join(label: str, **tagged):
    """CoGroupByKey of keyed PCollections: (key, {tag: [values]})."""
    return tagged | label >> beam.CoGroupByKey()


class GroupStepFn(StepFn):
    """A DoFn after a grouping step: it counts no `in`/`out` of its funnel step (the step
    that filters queries does), only `max_group` and `max_group_<what>` there."""
    what = ""

    def units(self, element) -> int:
        return 0

    def group_size(self, n: int):
        yield Count(self.step, "max_group", n)
        if self.what:
            yield Count(self.step, f"max_group_{self.what}", n)

    @staticmethod
    def emit(value):
        return Uncounted(value)


class EdgeSetFn(beam.CombineFn):
    """Edges (article pairs) -> the set of them, on one worker; a subclass's
    `extract_output` turns the set into {article: group key}."""

    def create_accumulator(self):
        return set()

    def add_input(self, acc, edge):
        acc.add(edge)
        return acc

    def merge_accumulators(self, accs):
        out = set()
        for acc in accs:
            out |= acc
        return out
