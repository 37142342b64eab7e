"""JSON lines (`.jsonl`, `.json`, `.ndjson`): one record a line (`readers.parse_json_line`,
under the input's column names). A large uncompressed file is read in byte ranges on
several workers: a line belongs to the range holding its first byte. Lines are read in
bounded chunks: one over the record limit is skipped to its end, one `record_too_large` row."""
from transforms.ingestion import readers, streams
from transforms.ingestion.estimate import text_records
from transforms.ingestion.layout import Layout


def byte_ranges(size: int, part_bytes: int) -> list:
    """[(start, end)] of about `part_bytes` each, covering `size` bytes."""
    n = max(1, -(-size // part_bytes))
    step = -(-size // n)
    return [(i * step, min(size, (i + 1) * step)) for i in range(n)]


def read(f, part, ctx):
    """Lines read in bounded chunks; a part holds the lines that start in its range."""
    start = 0
    if part.count > 1 and part.start:
        f.seek(part.start - 1)
        start = part.start - 1
    lines = streams.bounded_lines(f, ctx.limit, start)
    if part.count > 1 and part.start:
        next(lines, None)   # the end of the line the previous part holds
    for number, (offset, raw) in enumerate(lines, start=1):
        if part.count > 1 and offset >= part.end:
            break
        where = f"line {number}" if part.count == 1 else f"byte {offset}"
        if isinstance(raw, streams.TooLarge):
            yield ctx.too_large(part.path, where, raw.size)
            continue
        parsed = readers.parse_json_line(raw, part.path, part.origin, where, ctx.counter,
                                         ctx.mapping)
        if parsed is not None:
            yield parsed


def count_lines(head: bytes) -> int:
    """Records in complete text: its non-blank lines."""
    return sum(1 for line in head.splitlines() if line.strip())


def count(f, need: int) -> int:
    """Records of an open file, counting at most `need` (--limit)."""
    return sum(1 for _, line in zip(range(need), (l for l in f if l.strip())))


def split(path: str, size: int, part_bytes: int) -> list:
    return byte_ranges(size, part_bytes)


def estimate(path: str, size: int) -> tuple:
    return text_records(path, size, count_lines)


LAYOUT = Layout(name="jsonl", extensions=("json", "jsonl", "ndjson"), help=".jsonl/.json",
                read=read, mapped=True, split=split, estimate=estimate, sampled=True,
                count=count)
