"""News web pages (`.html`, `.htm`): one page a file, parsed by `web.parse_html` (trafilatura,
imported when a page is read); their origin is `crawled` unless the input names one."""
from transforms.ingestion.layout import Layout


def read(data: bytes, part, ctx):
    from transforms.ingestion import web
    yield from web.parse_html(data, part.path, part.origin,
                              allow_no_highlights=ctx.allow_no_highlights)


LAYOUT = Layout(name="html", extensions=("html", "htm"), help=".html/.htm", read=read,
                one_per_file=True, origin="crawled")
