"""Reading with bounded memory (issue 22: a gzip member that inflated 6.6 MB into one
2.3 GB line was read whole before any size rule, 6.9 GB peak).

Files are read in chunks of `CHUNK` bytes (a compressed file is inflated chunk by chunk), and
the per-record size rule applies while reading: a line (JSON lines), a CSV record or a
one-article file longer than the limit is skipped to its end without being held, and
becomes one `record_too_large` row; the records after it are read as usual.
"""
import re
from typing import Iterator, NamedTuple, Tuple, Union

CHUNK = 1 << 20


class TooLarge(NamedTuple):
    size: int        # bytes skipped (the whole line or file, as far as it went)
    quotes: int      # `"` characters in them (CSV records span lines by quote parity)


def too_large_detail(where: str, size: int, limit: int) -> str:
    return f"{where}: {size:,} bytes > the {limit:,}-byte record limit (--max_record_mb)"


def _reader(f):
    """`read1` where the stream has it: what is inflated so far, so the lines before a
    truncated gzip's end come out before its EOFError (`read(n)` would drop them)."""
    return getattr(f, "read1", f.read)


def bounded_lines(f, limit: int, start: int = 0,
                  chunk: int = CHUNK) -> Iterator[Tuple[int, Union[bytes, TooLarge]]]:
    """(offset, line) for every line of a binary stream, its `\\n` kept; a line over
    `limit` bytes is (offset, TooLarge). `start`: the stream's offset now. Errors of the
    stream (a truncated gzip) propagate after the complete lines before them."""
    held, size, quotes, line_at, pos = [], 0, 0, start, start
    read = _reader(f)
    while True:
        data = read(chunk)
        if not data:
            break
        i = 0
        while i < len(data):
            nl = data.find(b"\n", i)
            end = len(data) if nl < 0 else nl + 1
            size += end - i
            if size > limit:
                if held:
                    quotes += sum(h.count(b'"') for h in held)
                    held = []
                quotes += data.count(b'"', i, end)
            else:
                held.append(data[i:end])
            i = end
            if nl >= 0:
                yield line_at, (TooLarge(size, quotes) if size > limit else b"".join(held))
                held, size, quotes, line_at = [], 0, 0, pos + end
        pos += len(data)
    if size:
        yield line_at, (TooLarge(size, quotes) if size > limit else b"".join(held))


def read_capped(f, limit: int, chunk: int = CHUNK) -> Union[bytes, TooLarge]:
    """The whole stream, or TooLarge (read to its end, never held) past `limit` bytes."""
    held, size = [], 0
    read = _reader(f)
    while True:
        data = read(chunk)
        if not data:
            return b"".join(held)
        size += len(data)
        if size > limit:
            held = None
        elif held is not None:
            held.append(data)
        if held is None:
            while data:
                data = read(chunk)
                size += len(data)
            return TooLarge(size, 0)


class RecordRefused(Exception):
    """A CSV record skipped whole: `reason` is record_too_large."""

    def __init__(self, reason: str, detail: str):
        super().__init__(detail)
        self.reason, self.detail = reason, detail


_LONE_CR = re.compile(r"(?<=\r)(?!\n)")


class CsvSource:
    """Text lines for `csv.reader` from a binary stream, bounded per CSV record.

    A record (one or more lines, joined while a quoted field is open) over `limit` bytes is
    skipped to its end (the line where its `"` count is even) and raises RecordRefused in
    the reader, which goes on with the next record (`csv.reader` resets at each record).
    Lines that are not UTF-8 are read with `surrogateescape`; `bad_bytes` then says the
    current record held such a line."""

    def __init__(self, f, limit: int, start: int = 0):
        self.lines = bounded_lines(f, limit, start)
        self.limit, self.size, self.quotes, self.bad_bytes = limit, 0, 0, False
        self.first, self.pending = True, []

    def __iter__(self):
        return self

    def record_done(self) -> None:
        self.size, self.quotes, self.bad_bytes = 0, 0, False

    def __next__(self) -> str:
        if self.pending:
            return self.pending.pop(0)
        offset, raw = next(self.lines)
        if isinstance(raw, TooLarge) or self.size + len(raw) > self.limit:
            size = self._skip(raw)
            self.record_done()
            raise RecordRefused("record_too_large",
                                too_large_detail(f"byte {offset}", size, self.limit))
        self.size += len(raw)
        self.quotes += raw.count(b'"')
        encoding = "utf-8-sig" if self.first else "utf-8"
        self.first = False
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError:
            self.bad_bytes = True
            text = raw.decode(encoding, "surrogateescape")
        # lines end where newline="" ends them (a lone CR too), as the csv module and the
        # part planner read the file
        pieces = [p for p in _LONE_CR.split(text) if p]
        self.pending = pieces[1:]
        return pieces[0] if pieces else text

    def _skip(self, raw) -> int:
        """Consume the rest of the current record; the bytes it held in all."""
        size, quotes = self.size, self.quotes
        while True:
            if isinstance(raw, TooLarge):
                size, quotes = size + raw.size, quotes + raw.quotes
            else:
                size, quotes = size + len(raw), quotes + raw.count(b'"')
            if quotes % 2 == 0:
                return size
            try:
                _, raw = next(self.lines)
            except StopIteration:
                return size


def guarded_rows(reader, source) -> Iterator:
    """The rows of a `csv.reader`/`DictReader`, with RecordRefused for a skipped record and
    `invalid_utf8` for a record holding bytes that are not UTF-8 (per record, not per file)."""
    bounded = isinstance(source, CsvSource)
    if bounded:
        source.record_done()   # the header
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except RecordRefused as refused:
            yield refused
            continue
        if bounded and source.bad_bytes:
            row = RecordRefused("invalid_utf8", "bytes that are not UTF-8")
        if bounded:
            source.record_done()
        yield row
