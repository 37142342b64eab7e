"""Title-first `.txt` articles (the BBC News layout): one article a file, parsed by
`plaintext.parse_txt`."""
from transforms.ingestion.layout import Layout


def read(data: bytes, part, ctx):
    from transforms.ingestion import plaintext
    yield from plaintext.parse_txt(data, part.path, part.origin,
                                   allow_no_highlights=ctx.allow_no_highlights)


LAYOUT = Layout(name="txt", extensions=("txt",), help=".txt", read=read, one_per_file=True)
