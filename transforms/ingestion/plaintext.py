"""Title-first `.txt` articles (the BBC News layout). Pure: bytes in, one record out.

Layout: the first non-blank line is the title, then a blank line, then the body's
paragraphs separated by blank lines (a paragraph's own line breaks are joined)::

    Ad sales boost Time Warner profit

    Quarterly profits at US media giant TimeWarner jumped 76% ...

    The firm, which is now one of the biggest investors in Google, ...

The layout has no highlight bullets, so every such article is rejected as `no_highlights`
unless `allow_no_highlights` (then an Article with `highlights=()`; see docs/ingest.md).
Text is UTF-8; a file that is not is read as Windows-1252, the legacy default of English
web text (the BBC set has one such file, with a Latin-1 `£`); bytes that are neither are
`invalid_utf8`. The publisher comes from the folder (`bbc_news/...` -> `bbc`).
The id is `path_id`: files have no URL, and names such as `001.txt` repeat across folders.
"""
import hashlib
import posixpath
import re
from typing import Iterator, Optional, Union

from transforms.core.rules import rejected_row
from transforms.ingestion import STAGE
from transforms.ingestion.articles import Article
from transforms.ingestion.readers import strip_compression
from transforms.ingestion.text import clean_prose, looks_binary

LEGACY_ENCODING = "cp1252"
_KNOWN_FOLDERS = {"bbc": "bbc", "cnn": "cnn", "dailymail": "dailymail",
                  "daily_mail": "dailymail", "reuters": "reuters", "guardian": "theguardian"}


def path_id(path: str) -> str:
    """The id of an article known only by its file: SHA-1 hex of its last two path parts
    (`business/001.txt`, compression suffix dropped), so it does not depend on where the
    corpus is mounted and `001.txt` in two folders gives two ids."""
    parts = [p for p in path.replace("\\", "/").split("/") if p][-2:]
    key = posixpath.join(*parts[:-1], strip_compression(parts[-1])) if parts else path
    return hashlib.sha1(key.encode("utf-8")).hexdigest()


def source_from_folder(path: str) -> Optional[str]:
    """The publisher a folder names (`bbc_news/sport/1.txt` -> `bbc`), else None."""
    for folder in reversed([p.lower() for p in path.replace("\\", "/").split("/")[:-1]]):
        for key, source in _KNOWN_FOLDERS.items():
            if folder == key or folder.startswith(key + "_") or folder.startswith(key + "-"):
                return source
    return None


def decode_text(data: bytes) -> Optional[str]:
    """UTF-8 (BOM allowed), else Windows-1252; None when the bytes are neither."""
    for encoding in ("utf-8-sig", LEGACY_ENCODING):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return None


def split_title_first(text: str) -> tuple:
    """(title, paragraphs): the first non-blank line, then blocks split at blank lines."""
    lines = text.strip().split("\n")
    body = "\n".join(lines[1:])
    paragraphs = (" ".join(line.strip() for line in block.split("\n") if line.strip())
                  for block in re.split(r"\n\s*\n", body))
    return (lines[0].strip() or None), tuple(p for p in paragraphs if p)


def parse_txt(data: bytes, path: str, origin: str, *,
              allow_no_highlights: bool = False) -> Iterator[Union[Article, dict]]:
    """One `.txt` file -> one Article or one rejected row (never raises)."""
    article_id = path_id(path)

    def reject(reason, detail):
        return rejected_row(STAGE, reason, article_id=article_id, source_file=path,
                            detail=detail)

    if looks_binary(data):
        yield reject("binary_file", "mostly control bytes: not a text file")
        return
    text = decode_text(data)
    if text is None:
        yield reject("invalid_utf8", "neither UTF-8 nor Windows-1252 text")
        return
    text = clean_prose(text)
    title, paragraphs = split_title_first(text)
    if not paragraphs:
        yield reject("empty_extraction",
                     "no paragraph after the title line" if title else "no text")
        return
    if not allow_no_highlights:
        yield reject("no_highlights", f"title-first text: {len(paragraphs)} paragraphs, "
                                      "no highlight bullets (see --allow_no_highlights)")
        return
    yield Article(article_id=article_id, paragraphs=paragraphs, highlights=(),
                  source=source_from_folder(path), url=None, origin=origin,
                  source_file=path, title=title)
