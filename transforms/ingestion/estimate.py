"""Records to expect in a text file of many records (JSON lines, CSV), for the progress
total (pre-flight).

The first MB of text is read (decompressed for `.gz`, `.bz2`, `.xz`): a whole file is
counted exactly, a larger one scaled from the sample by the file bytes it took. The layout
counts the records of the sample (CSV: by the csv module, so a quoted highlight block of
three lines is one row; JSON lines: non-blank lines).
"""
import bz2
import lzma
import zlib

import fsspec

from transforms.ingestion.layout import is_compressed

SAMPLE = 1 << 20
_STEP = 4096
_DECOMPRESSORS = {".gz": lambda: zlib.decompressobj(31), ".bz2": bz2.BZ2Decompressor,
                  ".xz": lzma.LZMADecompressor}


def _inflate(raw, make, n: int):
    """(first >= n bytes inflated (at most 16 n), compressed bytes they took (to 4 KB), whole
    file?); fed 4 KB at a time, so the bytes used are known, whatever a reader would read
    ahead."""
    d, parts, got, used = make(), [], 0, 0
    while got < n:
        chunk = raw.read(_STEP)
        if not chunk:
            return b"".join(parts), max(1, used), True
        used += len(chunk)
        while chunk and got < n:
            if d.eof:          # the next gzip member (concatenated files)
                d = make()
            # bounded whatever a member inflates to, with room for a whole bz2/xz block
            out = d.decompress(chunk, 16 * n - got)
            parts.append(out)
            got += len(out)
            chunk = d.unused_data if d.eof else b""
    return b"".join(parts), used, False


def sample(path: str, size: int, n: int = SAMPLE):
    """(first `n` bytes of the text, file bytes read for them, whole file?) or None when
    the compression has no reader here."""
    with fsspec.open(path, "rb") as raw:
        if not is_compressed(path):
            head = raw.read(n)
            return head, len(head), len(head) >= size
        make = next((m for ext, m in _DECOMPRESSORS.items() if path.lower().endswith(ext)),
                    None)
        return _inflate(raw, make, n) if make else None


def text_records(path: str, size: int, count):
    """(records, exact) of a file; `count(text)`: the records in complete text."""
    found = sample(path, size)
    if found is None:
        return 0, False
    head, used, whole = found
    if whole:
        return count(head), True
    complete = head[: head.rfind(b"\n") + 1]     # the last line may be cut
    n = count(complete)
    if not complete or not n:
        return 0, False
    return int(n * len(head) / len(complete) * size / used), False
