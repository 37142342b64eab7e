"""DeepMind rc-data `.story` files: paragraphs, then `@highlight` blocks; one story a file,
its id the file's name (the SHA-1 of its URL). Parsed by `readers.parse_story`."""
from transforms.ingestion import readers
from transforms.ingestion.layout import Layout


def read(data: bytes, part, ctx):
    yield readers.parse_story(data, part.path, part.origin, ctx.counter)


LAYOUT = Layout(name="story", extensions=("story",), help=".story", read=read,
                one_per_file=True)
