"""WARC archives (`.warc`, `.warc.gz`) -> Articles and rejected rows, one per record.

Layout: ISO 28500 WARC records, read with warcio (record-at-a-time gzip included). Every
record read is accounted for, so the funnel's record count is the archive's:

- `response` (an HTTP response) and `resource` (a stored file) records carrying HTML are
  pages: `web.parse_html` with the record's `WARC-Target-URI` as the URL and the HTTP
  `Content-Type` for the charset -> an Article or that page's rejected row;
- a `response` whose HTTP status is not 2xx -> `http_status_not_ok`;
- a `response`/`resource` record that is not HTML (image, CSS, PDF...) -> `not_html_record`;
- any other record (`warcinfo`, `request`, `metadata`, `revisit`...) -> `not_a_response_record`
  (a crawl writes them beside every page: they are counted, not errors);
- a record cut short, an unreadable record, or bytes after the last complete record ->
  one `truncated_archive` row naming the record number and byte offset, after the records
  before the break; nothing after it is read. A file that does not start as a WARC (or
  ARC) record is `not_a_warc`. A cut exactly between two records cannot be told from a
  shorter archive.
Pass the file's raw bytes (do not decompress `.warc.gz` first): warcio reads each gzip
member itself, and offsets in the rows are then byte offsets in the file.
"""
from typing import BinaryIO, Iterator, Optional, Union

from warcio.archiveiterator import ArchiveIterator
from warcio.recordloader import ArchiveLoadFailed

from transforms.core.rules import rejected_row
from transforms.ingestion import STAGE
from transforms.ingestion.articles import Article
from transforms.ingestion.web import MAX_PAGE_BYTES, parse_html

PAGE_RECORDS = ("response", "resource")
HTML_TYPES = ("text/html", "application/xhtml+xml")
ARCHIVE_STARTS = (b"WARC/", b"\x1f\x8b", b"filedesc://")   # WARC, gzip member, ARC
_CHUNK = 1 << 16
Parsed = Union[Article, dict]


class _Counted:
    """A read-only stream that counts the bytes it gave, keeps the error that ended it
    (warcio reads an EOFError from an outer decompressor as a clean end of archive) and
    lets the first bytes be seen before warcio reads them."""

    def __init__(self, stream):
        self.stream, self.n, self.error, self._head = stream, 0, None, b""

    def peek(self, size: int) -> bytes:
        self._head = self._read(size)
        return self._head

    def _read(self, size):
        try:
            return self.stream.read(size)
        except Exception as err:  # noqa: BLE001 - reported as truncated_archive
            self.error = err
            raise

    def read(self, size=-1):
        head, self._head = self._head, b""
        if head and 0 <= size <= len(head):
            self._head = head[size:]
            data = head[:size]
        else:
            data = head + self._read(-1 if size < 0 else size - len(head))
        self.n += len(data)
        return data

    def tell(self):
        return self.n


class _Records(ArchiveIterator):
    """warcio's iterator, noting whether the last gzip member ended (a `.warc.gz` cut
    after a record's text but before its member's end loses the records after it)."""
    last_member_complete = True

    def close(self):
        decompressor = getattr(self.reader, "decompressor", None)
        if decompressor is not None and not getattr(decompressor, "eof", True):
            self.last_member_complete = False
        super().close()


def _is_html(content_type: Optional[str], head: bytes) -> bool:
    if content_type:
        return content_type.split(";")[0].strip().lower() in HTML_TYPES
    head = head.lstrip()[:512].lower()
    return head.startswith((b"<!doctype html", b"<html")) or b"<html" in head


def _starts_archive(record) -> bool:
    """warcio reads any line of five words as an ARC header: an ARC file starts with
    its `filedesc://` record."""
    if record.format == "warc":
        return True
    return (record.rec_headers.get_header("uri") or "").startswith("filedesc://")


def _header_complete(record) -> bool:
    """A WARC header always ends with a Content-Length; a cut one may lack its value."""
    if record.format != "warc":
        return record.length is not None
    return (record.rec_headers.get_header("Content-Length") or "").strip().isdigit()


def _drain(stream) -> None:
    while stream.read(_CHUNK):
        pass


def _classify(record, path: str, origin: str, number: int, allow: bool):
    """(rows for one complete record, or None when the record was cut short)."""
    rtype = record.rec_type
    where = f"record {number} ({rtype})"
    uri = record.rec_headers.get_header("WARC-Target-URI") or None

    def reject(reason, detail):
        return rejected_row(STAGE, reason, source_file=path, detail=f"{where}: {detail}")

    if rtype not in PAGE_RECORDS:
        _drain(record.raw_stream)
        row = reject("not_a_response_record", f"a {rtype} record holds no page")
    else:
        http = record.http_headers if rtype == "response" else None
        status = http.get_statuscode() if http is not None else None
        ctype = (http.get_header("Content-Type") if http is not None
                 else record.rec_headers.get_header("Content-Type"))
        content = record.content_stream()
        payload = content.read(MAX_PAGE_BYTES + 1)
        _drain(record.raw_stream)
        if status and not status.startswith("2"):
            row = reject("http_status_not_ok", f"HTTP {status} for {uri}")
        elif not _is_html(ctype, payload[:1024]):
            row = reject("not_html_record", f"{ctype or 'no Content-Type'} at {uri}")
        else:
            row = None
    if getattr(record.raw_stream, "limit", 0) > 0:
        return None
    if row is not None:
        return [row]
    rows = list(parse_html(payload, path, origin, url=uri, allow_no_highlights=allow,
                           content_type=ctype))
    for r in rows:
        if isinstance(r, dict):
            r["detail"] = f"{where} {uri}: {r['detail']}"
    return rows


def parse_warc(stream: BinaryIO, path: str, origin: str, *,
               allow_no_highlights: bool = False) -> Iterator[Parsed]:
    """Each record of a WARC stream -> exactly one Article or rejected row, then at most
    one `truncated_archive` row. Never raises."""
    counted = _Counted(stream)
    number, offset = 1, 0

    def broken(detail, reason="truncated_archive"):
        return rejected_row(STAGE, reason, source_file=path,
                            detail=f"{path}: record {number} at byte {offset}: {detail}")

    try:
        head = counted.peek(64)
    except Exception as err:  # noqa: BLE001 - e.g. a decompressor that hit the end
        yield broken(f"{type(err).__name__}: {err}")
        return
    if not head.strip():
        return   # no bytes: the reader's empty_file
    if not head.lstrip().startswith(ARCHIVE_STARTS):
        yield broken(f"starts with {head[:20]!r}, not a WARC record or gzip member",
                     "not_a_warc")
        return
    try:
        records = _Records(counted)
    except Exception as err:  # noqa: BLE001 - unreadable from the first byte
        yield broken(f"{type(err).__name__}: {err}", "not_a_warc")
        return
    while True:
        try:
            record = next(records)
            offset = records.offset
            if number == 1 and not _starts_archive(record):
                yield broken("the first record is neither a WARC record nor an ARC "
                             "`filedesc://` header", "not_a_warc")
                return
            rows = _classify(record, path, origin, number, allow_no_highlights) \
                if _header_complete(record) else None
        except StopIteration:
            break
        except Exception as err:  # noqa: BLE001 - EOF mid-record, bad header, bad gzip
            offset = records.offset
            first = number == 1 and isinstance(err, ArchiveLoadFailed)
            yield broken(f"{type(err).__name__}: {err}",
                         "not_a_warc" if first else "truncated_archive")
            return
        if rows is None:
            yield broken(f"the record is cut short ({record.length} bytes declared)"
                         if _header_complete(record) else
                         "the record header is cut short (no Content-Length)")
            return
        yield from rows
        number += 1
    end = records.offset
    if counted.error is not None:
        offset = end
        yield broken(f"{type(counted.error).__name__}: {counted.error}")
    elif counted.n > end:
        offset = end
        yield broken(f"{counted.n - end} bytes after the last complete record do not form "
                     "a record (cut inside its header)")
    elif not records.last_member_complete:
        offset = end
        yield broken("the last gzip member is cut short")
