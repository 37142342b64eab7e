"""ReadArticles: input patterns -> Articles, spread across workers (paper section 3.1).

Funnel steps (see transforms/core/accounting.py):
  inputs  (expand)  patterns -> files they match
  files             files -> files worth reading   (unknown_file_type, empty_file)
  records (expand)  files -> records found in them (a file that cannot be read is 1 record)
  read              records -> Articles            (broken lines, missing fields, ...)
Patterns are expanded inside the job, so the job graph never embeds a file list; large
files are read in parts by several workers (parts.py).
"""
import collections
import io
import logging
import apache_beam as beam
import fsspec

from transforms.core import io_utils
from transforms.core.accounting import COUNTS, Count, StepFn, accounted, merged, reject
from transforms.ingestion import readers, streams
from transforms.ingestion.inputs import ReadConfig, default_origin
from transforms.ingestion.parts import Part, plan_parts

log = logging.getLogger(__name__)
KINDS_HELP = ".story, .jsonl/.json, .csv, .parquet, .html/.htm, .warc, .txt"


class ExpandInputs(StepFn):
    """(pattern, origin) -> (path, origin, size, cap) for every file the pattern matches."""
    step = "inputs"

    def apply(self, item):
        pattern, origin = item
        try:
            files = io_utils.glob_sizes(pattern)
        except Exception as err:  # noqa: BLE001 - a bad pattern is bad input
            log.error("cannot expand input %s: %s", pattern, err)
            files = []
        if not files:
            yield reject("inputs", "no_files_match", source_file=pattern,
                         detail=f"the input pattern {pattern!r} matches no file")
        for path, size in files:
            yield path, default_origin(path, origin), size, None


class PlanFile(StepFn):
    """A file -> the tuple of its parts; files no reader knows or with no bytes stop here."""
    step = "files"

    def __init__(self, part_bytes: int):
        self.part_bytes = part_bytes

    def apply(self, item):
        path, origin, size, cap = item
        if not readers.file_type(path):
            yield reject("files", "unknown_file_type", source_file=path,
                         detail=f"{path}: expected {KINDS_HELP} (optionally compressed, "
                                "e.g. .gz)")
        elif size == 0:
            yield reject("files", "empty_file", source_file=path, detail=f"{path}: 0 bytes")
        else:
            yield tuple(plan_parts(path, origin, size, self.part_bytes, cap))


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
            if isinstance(parsed, dict):
                yield reject(**{**parsed, "stage": "read"})
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
        except (EOFError, OSError, ValueError) as err:
            reason = "truncated_file" if n else "unreadable_file"
            yield readers.rejected_row("read", reason, source_file=part.path,
                                       detail=f"broke after {n} record(s) of part {part.index}"
                                              f": {type(err).__name__}: {err}")
        except Exception as err:  # noqa: BLE001 - unreadable file: say why, keep going
            yield readers.rejected_row("read", "unreadable_file", source_file=part.path,
                                       detail=f"after {n} record(s): {type(err).__name__}: {err}")

    def _parse(self, part: Part, counter):
        path, origin, kind = part.path, part.origin, part.kind
        allow = self.config.allow_no_highlights
        # a WARC archive is gzipped record by record: its reader reads the members itself,
        # so a cut archive keeps every record before the break, with compressed offsets
        compression = None if kind == "warc" else "infer"
        with fsspec.open(path, "rb", compression=compression) as f:
            if kind in ("story", "html", "txt"):
                data = streams.read_capped(f, self.limit)
                if isinstance(data, streams.TooLarge):
                    yield self._too_large(path, "the file", data.size)
                    return
            if kind == "story":
                yield readers.parse_story(data, path, origin, counter)
            elif kind == "jsonl":
                yield from self._jsonl(f, part, counter)
            elif kind == "csv":
                yield from self._csv(f, part, counter)
            elif kind == "parquet":
                yield from self._parquet(f, part, counter)
            elif kind == "html":
                from transforms.ingestion import web
                yield from web.parse_html(data, path, origin, allow_no_highlights=allow)
            elif kind == "warc":
                from transforms.ingestion import warc
                yield from warc.parse_warc(f, path, origin, allow_no_highlights=allow)
            elif kind == "txt":
                from transforms.ingestion import plaintext
                yield from plaintext.parse_txt(data, path, origin, allow_no_highlights=allow)

    @property
    def limit(self) -> int:
        return int(self.config.max_record_mb * (1 << 20))

    def _too_large(self, path, where, size):
        return readers.rejected_row("read", "record_too_large", source_file=path,
                                    detail=streams.too_large_detail(where, size, self.limit))

    def _jsonl(self, f, part: Part, counter):
        """Lines read in bounded chunks; a part holds the lines that start in its range."""
        start = 0
        if part.count > 1 and part.start:
            f.seek(part.start - 1)
            start = part.start - 1
        lines = streams.bounded_lines(f, self.limit, start)
        if part.count > 1 and part.start:
            next(lines, None)   # the end of the line the previous part holds
        for number, (offset, raw) in enumerate(lines, start=1):
            if part.count > 1 and offset >= part.end:
                break
            where = f"line {number}" if part.count == 1 else f"byte {offset}"
            if isinstance(raw, streams.TooLarge):
                yield self._too_large(part.path, where, raw.size)
                continue
            parsed = readers.parse_json_line(raw, part.path, part.origin, where, counter)
            if parsed is not None:
                yield parsed

    def _csv(self, f, part: Part, counter):
        if part.count == 1:
            yield from readers.parse_csv(streams.CsvSource(f, self.limit), part.path,
                                         part.origin, counter)
            return
        header = f.readline()
        f.seek(part.start)
        body = f.read(part.end - part.start)
        source = streams.CsvSource(io.BytesIO(header + body), self.limit)
        for parsed in readers.parse_csv(source, part.path, part.origin, counter):
            if isinstance(parsed, dict) and parsed.get("detail", "").startswith("row "):
                parsed["detail"] = f"part {part.index} " + parsed["detail"]
            yield parsed

    @staticmethod
    def _parquet(f, part: Part, counter):
        import pyarrow.parquet as pq
        pf = pq.ParquetFile(f)
        groups = None if part.count == 1 else list(range(part.start, part.end))
        first = sum(pf.metadata.row_group(g).num_rows for g in range(part.start)) if groups else 0
        batches = pf.iter_batches(batch_size=256, row_groups=groups)
        yield from readers.parse_parquet(batches, part.path, part.origin, first, counter)


class ReadArticles(beam.PTransform):
    """Input patterns (with their origin) -> Articles, with rejected rows and counts.

    `files`, when given, is the already-listed [(path, origin, size, cap)] of a `--limit`
    run (small by construction); otherwise patterns are expanded inside the job."""

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
            files = pbegin | "LimitedFiles" >> beam.Create(self.files)
            n_patterns, n_files = len(self.inputs), len(self.files)
            counts = pbegin | "LimitCounts" >> beam.Create(
                [{"inputs.in": n_patterns, "inputs.out": n_files}])
        planned = accounted(files | "SpreadFiles" >> beam.Reshuffle(), "PlanParts",
                            PlanFile(self.config.part_mb << 20))
        parts = (planned.main
                 | "Parts" >> beam.FlatMap(lambda parts: parts)
                 | "SpreadParts" >> beam.Reshuffle())
        read = accounted(parts, "ParseParts", ReadPart(self.config))
        rejected, all_counts, _ = merged("Read", *results, planned, read)
        if self.files is not None:
            all_counts = (all_counts, counts) | "WithLimitCounts" >> beam.Flatten()
        return {"main": read.main, "rejected": rejected, COUNTS: all_counts}
