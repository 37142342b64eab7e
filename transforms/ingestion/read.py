"""ReadArticles: input patterns -> Articles, spread across workers (paper section 3.1).

Funnel steps (see transforms/core/accounting.py):
  inputs  (expand)  inputs -> files they match
  files             files -> files worth reading   (unknown_file_type, empty_file)
  records (expand)  files -> records found in them (a file that cannot be read is 1 record)
  read              records -> Articles            (broken lines, missing fields, ...)
The commands fix the file list before the job starts (inputs.py) and write it to a listing
file that the job reads (listing.py): the graph never embeds the list, and a listed file
gone when read is a `missing_file` row. Given only patterns, the job expands them itself.
Large files are read in parts by several workers (parts.py). Each file is parsed by its
layout (registry.py: one module per format under layouts/).
"""
import collections
import logging

import apache_beam as beam
import fsspec

from transforms.core.accounting import COUNTS, Count, StepFn, accounted, merged, reject
from transforms.ingestion import limits, listing, readers, registry, streams
from transforms.ingestion.inputs import InputFile, ReadConfig, default_origin, expand
from transforms.ingestion.layout import ReadContext
from transforms.ingestion.parts import Part, plan_parts
from transforms.ingestion.registry import KINDS_HELP
from transforms.ingestion.specs import InputSpec, as_spec

log = logging.getLogger(__name__)


class ExpandInputs(StepFn):
    """An input (InputSpec or (pattern, origin)) -> an InputFile for every file it matches."""
    step = "inputs"

    def apply(self, item):
        spec = as_spec(item)
        pattern, origin = spec.pattern, spec.origin
        try:
            files = expand(pattern)
        except Exception as err:  # noqa: BLE001 - a bad pattern is bad input
            log.error("cannot expand input %s: %s", pattern, err)
            files = []
        if not files:
            yield reject("inputs", "no_files_match", source_file=pattern,
                         detail=f"the input pattern {pattern!r} matches no file")
        for path, size in files:
            yield InputFile(path, default_origin(path, origin), size, None, spec.source,
                            spec.columns)


class PlanFile(StepFn):
    """A file -> the tuple of its parts; files no reader knows or with no bytes stop here."""
    step = "files"

    def __init__(self, part_bytes: int):
        self.part_bytes = part_bytes

    def apply(self, item):
        path, origin, size, cap, source, columns = InputFile(*item)
        if not registry.layout_of(path):
            yield reject("files", "unknown_file_type", source_file=path,
                         detail=f"{path}: expected {KINDS_HELP} (optionally compressed, "
                                "e.g. .gz)")
        elif size == 0:
            yield reject("files", "empty_file", source_file=path, detail=f"{path}: 0 bytes")
        else:
            yield tuple(plan_parts(path, origin, size, self.part_bytes, cap, source, columns))


class ReadPart(StepFn):
    """One part of a file -> Articles and rejected records."""
    step = "read"

    def __init__(self, config: ReadConfig):
        self.config = config

    def units(self, part):
        return 0   # counted per record below

    def apply(self, part: Part):
        if part.index == 0:
            yield Count("records", "in", 1)
        counter = collections.Counter()
        found = 0
        for parsed in self._records(part, counter):
            found += 1
            if not isinstance(parsed, dict):
                parsed = limits.oversized_field(parsed) or parsed
            if isinstance(parsed, dict):
                yield reject(**{**parsed, "stage": "read"})
            elif part.source and not parsed.source:   # the input's publisher, every layout
                yield parsed.with_(source=part.source)
            else:
                yield parsed
        if found == 0 and part.count == 1:
            found = 1
            yield reject("read", "empty_file", source_file=part.path,
                         detail=f"{part.path}: no record in {part.size} bytes")
        yield Count("records", "out", found)
        yield Count("read", "in", found)
        for key, n in counter.items():
            yield Count("read", key, n)

    def _records(self, part: Part, counter):
        cap = part.cap
        n = 0
        try:
            for parsed in self._parse(part, counter):
                yield parsed
                n += 1
                if cap is not None and n >= cap:
                    return
        except UnicodeDecodeError as err:
            yield readers.rejected_row("read", "invalid_utf8", source_file=part.path,
                                       detail=f"after {n} records: {err}")
        except FileNotFoundError as err:
            yield readers.rejected_row("read", "missing_file", source_file=part.path,
                                       detail=f"listed when the run started ({part.size} bytes),"
                                              f" gone when read: {err}")
        except (EOFError, OSError, ValueError) as err:
            reason = "truncated_file" if n else "unreadable_file"
            yield readers.rejected_row("read", reason, source_file=part.path,
                                       detail=f"broke after {n} record(s) of part {part.index}"
                                              f": {type(err).__name__}: {err}")
        except Exception as err:  # noqa: BLE001 - unreadable file: say why, keep going
            yield readers.rejected_row("read", "unreadable_file", source_file=part.path,
                                       detail=f"after {n} record(s): {type(err).__name__}: {err}")

    def _parse(self, part: Part, counter):
        """The records of one part, as its layout reads them."""
        layout = registry.by_name(part.kind)
        mapping = (InputSpec(part.path, part.origin, part.source, part.columns)
                   if part.source or part.columns else None)
        ctx = ReadContext(self.limit, self.config.allow_no_highlights, counter, mapping)
        compression = layout.compression if layout else "infer"
        with fsspec.open(part.path, "rb", compression=compression) as f:
            if layout is None:
                return
            source = f
            if layout.one_per_file:
                source = streams.read_capped(f, ctx.limit)
                if isinstance(source, streams.TooLarge):
                    yield ctx.too_large(part.path, "the file", source.size)
                    return
            yield from layout.read(source, part, ctx)

    @property
    def limit(self) -> int:
        return int(self.config.max_record_mb * (1 << 20))


class ReadArticles(beam.PTransform):
    """Inputs (InputSpec, or (pattern, origin)) -> Articles, with rejected rows and counts.

    `files`: the files listed before the job: a `listing.Listing` (a file the job reads),
    or a list of InputFile (embedded in the graph: small lists only); None: the patterns
    are expanded inside the job."""

    def __init__(self, inputs, config: ReadConfig = ReadConfig(), files=None):
        super().__init__()
        self.inputs, self.config, self.files = list(inputs), config, files

    def expand(self, pbegin):
        results = []
        if self.files is None:
            expanded = accounted(pbegin | "InputPatterns" >> beam.Create(self.inputs),
                                 "ExpandPatterns", ExpandInputs())
            files, results = expanded.main, [expanded]
        else:
            if isinstance(self.files, listing.Listing):
                files = (pbegin | "FileListing" >> beam.Create([self.files.url])
                         | "ListedFiles" >> beam.FlatMap(listing.read))
                n_files = self.files.count
            else:
                files = pbegin | "ListedFiles" >> beam.Create(self.files)
                n_files = len(self.files)
            n_patterns = len(self.inputs)
            counts = pbegin | "ListedCounts" >> beam.Create(
                [{"inputs.in": n_patterns, "inputs.out": n_files}])
        planned = accounted(files | "SpreadFiles" >> beam.Reshuffle(), "PlanParts",
                            PlanFile(self.config.part_mb << 20))
        parts = (planned.main
                 | "Parts" >> beam.FlatMap(lambda parts: parts)
                 | "SpreadParts" >> beam.Reshuffle())
        read = accounted(parts, "ParseParts", ReadPart(self.config))
        rejected, all_counts, _ = merged("Read", *results, planned, read)
        if self.files is not None:
            all_counts = (all_counts, counts) | "WithListedCounts" >> beam.Flatten()
        return {"main": read.main, "rejected": rejected, COUNTS: all_counts}
