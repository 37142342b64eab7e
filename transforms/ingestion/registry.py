"""Every input layout the job reads, in one place (issue 30 item 2).

Each layout is one module under `layouts/` declaring a `layout.Layout`; this tuple lists
them, in the order messages name them. A file's layout comes from its name (the
compression suffix aside: `x.jsonl.gz` is JSON lines), a folder's from the layout that
claims it (`datasets`' `save_to_disk` folders). Adding a layout: its module, its line
here, its test (docs/pipeline.md, "Adding an input layout").
"""
import posixpath
from typing import Optional

from transforms.ingestion.layout import Layout, strip_compression
from transforms.ingestion.layouts import (
    arrow_table,
    csv_table,
    json_lines,
    parquet_table,
    rc_story,
    title_text,
    tsv_table,
    warc_archive,
    web_page,
)

LAYOUTS = (
    rc_story.LAYOUT,        # .story (DeepMind rc-data)
    json_lines.LAYOUT,      # .jsonl, .json, .ndjson
    csv_table.LAYOUT,       # .csv
    parquet_table.LAYOUT,   # .parquet
    arrow_table.LAYOUT,     # .arrow, `datasets` folders
    web_page.LAYOUT,        # .html, .htm
    warc_archive.LAYOUT,    # .warc
    title_text.LAYOUT,      # .txt (title-first, BBC)
    tsv_table.LAYOUT,       # .tsv
)


def _index(layouts) -> tuple:
    """({name: layout}, {extension: layout}); a name or extension claimed twice raises."""
    names, extensions = {}, {}
    for layout in layouts:
        for key, table in [(layout.name, names)] + [(e, extensions) for e in layout.extensions]:
            if key in table:
                raise ValueError(f"{key!r} is claimed by layouts {table[key].name} and "
                                 f"{layout.name}")
            if key != key.lower() or "." in key:
                raise ValueError(f"layout {layout.name}: {key!r} must be lower case, no dot")
            table[key] = layout
    return names, extensions


_BY_NAME, _BY_EXTENSION = _index(LAYOUTS)
#: the layouts' files as messages list them
KINDS_HELP = ", ".join(layout.help for layout in LAYOUTS)


def layout_of(path: str) -> Optional[Layout]:
    """The layout of a file from its name (compression ignored), or None when unknown."""
    name = strip_compression(posixpath.basename(path)).lower()
    return _BY_EXTENSION.get(name.rsplit(".", 1)[-1]) if "." in name else None


def file_type(path: str) -> str:
    """The name of a file's layout ('jsonl'), or '' when no layout claims it."""
    layout = layout_of(path)
    return layout.name if layout else ""


def by_name(name: str) -> Optional[Layout]:
    """The layout a Part names (`Part.kind`), or None."""
    return _BY_NAME.get(name)


def folder_layout(url: str) -> Optional[Layout]:
    """The layout that reads the folder `url` whole (a `datasets` folder), or None."""
    return next((layout for layout in LAYOUTS if layout.folder and layout.folder(url)), None)
