"""WARC archives (`.warc`, `.warc.gz`): one row per WARC record (`warc.parse_warc`). The
archive is gzipped record by record, so the reader gets the raw stream and inflates the
members itself: a cut archive keeps every record before the break, with compressed
offsets. No record count before reading: `--limit` reads up to its cap."""
from transforms.ingestion.layout import Layout


def read(f, part, ctx):
    from transforms.ingestion import warc
    yield from warc.parse_warc(f, part.path, part.origin,
                               allow_no_highlights=ctx.allow_no_highlights)


LAYOUT = Layout(name="warc", extensions=("warc",), help=".warc", read=read,
                origin="crawled", compression=None)
