"""WriteExports: the single official ReCoRD JSON and SuperGLUE jsonl file per split,
written from sorted parts, never a whole split in one worker's memory.

    passages -> (split, part = stable_hash(passage_id) % n) with n = ceil(passages /
    part_passages) -> GroupByKey -> each part sorted by passage_id and written as one
    line per passage (record entry + SuperGLUE line) under a scratch folder
    -> GroupByKey on split (the part paths only) -> a k-way merge of the sorted parts
    (heapq.merge, one line per part in memory) streams record/<split>.json and
    superglue/<name>.jsonl, assigning the SuperGLUE passage idx (passage_id order) and
    the running query idx as it goes.

The files are byte-identical to the whole-file functions of exports.py. Memory: one part
(about `part_passages` passages) while sorting; one line per part while merging.
"""
import heapq
import json
import math

import apache_beam as beam

from transforms.core import io_utils
from transforms.core.accounting import COUNTS
from transforms.core.hashing import stable_hash
from transforms.finalize.exports import STEP
from transforms.finalize.exports import layouts as exports
from transforms.finalize.exports.files import open_write
from transforms.finalize.exports.hidden_test import PRIVATE_FILE
from transforms.finalize.splits.keyed import GroupStepFn
from transforms.finalize.splits.rules import SPLITS

READ_BLOCK = 1 << 18      # bytes buffered per part while merging


class PassageFn(GroupStepFn):
    """((split, passage_id), rows) -> one passage record with its queries (sorted by id)."""
    step, what = STEP, "passage"

    def apply(self, item):
        _, rows = item
        rows = list(rows)
        yield from self.group_size(len(rows))
        yield self.emit(exports.passage_record(rows))


def part_count(passages: int, part_passages: int) -> int:
    return max(1, math.ceil(passages / part_passages))


def part_line(passage: dict, with_record_answers: bool, private: bool = False) -> str:
    """One passage of a part: [passage_id, record entry, SuperGLUE line without idx] and,
    for a test passage of a hidden-test release (`private`), its record entry with answers
    for the private file."""
    with_answers = passage["split"] != "test"
    line = [passage["passage_id"],
            exports.record_entry(passage, with_record_answers or with_answers),
            exports.superglue_line(passage, with_answers)]
    if private and not with_answers:
        line.append(exports.record_entry(passage, True))
    return json.dumps(line, ensure_ascii=True)


class WritePartFn(GroupStepFn):
    """((split, part), (passage_id, line)s and a None seed) -> the part file sorted by
    passage_id; yields (split, path)."""
    step, what = STEP, "export_part"

    def __init__(self, scratch: str):
        self.scratch = scratch

    def apply(self, item):
        (split, index), lines = item
        lines = sorted(line for line in lines if line is not None)   # by passage_id
        yield from self.group_size(len(lines))
        path = io_utils.join(self.scratch, split, f"part-{index:05d}.jsonl")
        with open_write(path, "w", encoding="utf-8") as f:
            for _, line in lines:
                f.write(line + "\n")
        yield self.emit((split, path))


def _read_part(f):
    for line in f:
        if line.strip():
            yield json.loads(line)


class MergePartsFn(GroupStepFn):
    """(split, [part paths]) -> record/<split>.json and superglue/<name>.jsonl in one
    pass of a k-way merge (and, for test with `private_dir`, the private answer file);
    yields (split, (passages, queries))."""
    step, what = STEP, "export_parts"

    def __init__(self, out_dir: str, private_dir=None):
        self.out_dir, self.private_dir = out_dir, private_dir

    def apply(self, item):
        import contextlib

        import fsspec
        split, paths = item
        paths = sorted(paths)
        yield from self.group_size(len(paths))
        name = exports.SUPERGLUE_SPLIT[split]
        with contextlib.ExitStack() as stack:
            parts = [_read_part(stack.enter_context(
                fsspec.open(p, "r", encoding="utf-8", block_size=READ_BLOCK))) for p in paths]
            record_file = stack.enter_context(open_write(
                io_utils.join(self.out_dir, "record", f"{split}.json"), "w", encoding="utf-8"))
            superglue_file = stack.enter_context(open_write(
                io_utils.join(self.out_dir, "superglue", f"{name}.jsonl"), "w",
                encoding="utf-8"))
            record = exports.RecordJsonWriter(record_file)
            superglue = exports.SuperGlueWriter(superglue_file)
            private = None
            if self.private_dir and split == "test":
                private = exports.RecordJsonWriter(stack.enter_context(open_write(
                    io_utils.join(self.private_dir, PRIVATE_FILE), "w", encoding="utf-8")))
            for item in heapq.merge(*parts, key=lambda x: x[0]):
                record.add(item[1])
                superglue.add(item[2])
                if private is not None:
                    private.add(item[3])
            record.close()
            if private is not None:
                private.close()
        yield self.emit((split, (superglue.passages, superglue.queries)))


class WriteExports(beam.PTransform):
    """Passage records (exports.passage_record, with `split`) -> the export files;
    returns {"main": (split, (passages, queries)), "counts"}. `scratch`: where the sorted
    parts go (the caller removes it once the pipeline ended); `private_dir`: a hidden-test
    release's private folder (hidden_test.py), which gets test.json with the answers."""

    def __init__(self, out_dir: str, scratch: str, test_answers_in_record: bool,
                 part_passages: int, private_dir=None):
        super().__init__()
        self.out_dir, self.scratch, self.private_dir = out_dir, scratch, private_dir
        self.test_answers, self.part_passages = test_answers_in_record, part_passages

    def expand(self, passages):
        part_passages, test_answers = self.part_passages, self.test_answers
        private = bool(self.private_dir)
        totals = beam.pvalue.AsDict(passages
                                    | "PassageSplits" >> beam.Map(lambda p: p["split"])
                                    | "PassagesPerSplit" >> beam.combiners.Count.PerElement())

        def key(passage, totals):
            n = part_count(totals.get(passage["split"], 0), part_passages)
            part = stable_hash(passage["passage_id"], salt="part") % n
            return (passage["split"], part), (passage["passage_id"],
                                              part_line(passage, test_answers, private))

        def seeds(split, totals):
            n = part_count(totals.get(split, 0), part_passages)
            return [((split, i), None) for i in range(n)]

        keyed = passages | "KeyByPart" >> beam.Map(key, totals)
        every = (passages.pipeline
                 | "EverySplitExport" >> beam.Create(SPLITS)
                 | "EveryPart" >> beam.FlatMap(seeds, totals))
        parts = ((keyed, every)
                 | "WithPartSeeds" >> beam.Flatten()
                 | "GroupPart" >> beam.GroupByKey()
                 | "WritePart" >> beam.ParDo(WritePartFn(self.scratch)).with_outputs(
                     COUNTS, main="main"))
        merged = (parts.main
                  | "PartsBySplit" >> beam.GroupByKey()
                  | "MergeParts" >> beam.ParDo(
                      MergePartsFn(self.out_dir, self.private_dir)).with_outputs(
                      COUNTS, main="main"))
        counts = (parts[COUNTS], merged[COUNTS]) | "ExportCounts" >> beam.Flatten()
        return {"main": merged.main, COUNTS: counts}
