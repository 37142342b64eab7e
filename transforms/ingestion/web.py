"""One news web page (`.html`/`.htm`, or a WARC response) -> one Article or rejected row.

Pure: bytes in, records out; never raises. Built on trafilatura (main text, title, date,
canonical URL, site name) and w3lib (the declared charset). Steps:

1. decode: valid UTF-8 is UTF-8; otherwise the BOM, the HTTP `Content-Type` charset (WARC
   records) or the page's `<meta charset>`, else Windows-1252 (w3lib, as browsers do);
2. highlights: the first list the page's own markup marks as highlight bullets
   (`HIGHLIGHT_LISTS`: CNN's `ul.cnnStryHghLght` "STORY HIGHLIGHTS" box, the Daily Mail's
   `ul.mol-bullets-with-font`); a leading `NEW:` update marker is dropped;
3. main text: trafilatura on the page with those lists (and their label) pruned, so no
   highlight is repeated in the body, and with `NOT_BODY` pruned (hidden elements, photo
   captions, the Daily Mail's side-story boxes); paragraphs are its paragraph, quote and list-item
   blocks. Leading headings and non-sentences (headline, kicker, "October 22, 2019
   report") are dropped, and so is any paragraph that repeats the title or a highlight.
   A page whose markup holds only a fragment of the story (a paywalled page that serves
   the body as schema.org JSON-LD `articleBody`) takes that `articleBody` instead;
4. metadata: title (site-name suffix dropped), ISO date (htmldate, no guessing from other
   links on the page; else a `/YYYY/<section>/MM/DD/` URL), URL (given, else the page's
   canonical/og:url), publisher (`cnn`, `dailymail`, else the site's domain name).
The id is the rc-data one, SHA-1 hex of the URL; `plaintext.path_id` when no URL is known.
"""
import json
import re
from typing import Iterator, Optional, Union

from courlan import extract_domain
from trafilatura import bare_extraction
from trafilatura.utils import load_html
from w3lib.encoding import html_to_unicode

from transforms.core.rules import rejected_row
from transforms.ingestion import STAGE
from transforms.ingestion.articles import Article
from transforms.ingestion.plaintext import path_id
from transforms.ingestion.readers import url_hash
from transforms.ingestion.text import clean_prose, looks_binary

MAX_PAGE_BYTES = 20_000_000     # trafilatura's own MAX_FILE_SIZE


def _has_class(name: str) -> str:
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


# (publisher, XPath of the list whose <li> are the highlight bullets), tried in order
HIGHLIGHT_LISTS = (
    ("cnn", f"//ul[{_has_class('cnnStryHghLght')}]"),
    ("dailymail", f"//ul[{_has_class('mol-bullets-with-font')}]"),
)
_LABEL = ("//*[translate(normalize-space(.), 'abcdefghijklmnopqrstuvwxyz', "
          "'ABCDEFGHIJKLMNOPQRSTUVWXYZ') = 'STORY HIGHLIGHTS']")
# not the story's body: hidden elements, photo captions, the Daily Mail's side-story boxes
NOT_BODY = ("//*[@hidden or contains(translate(@style, ' ', ''), 'visibility:hidden')]",
            "//figcaption", f"//*[{_has_class('imageCaption')}]",
            f"//*[{_has_class('mol-factbox')}]")
_PUBLISHERS = {"cnn.com": "cnn", "dailymail.co.uk": "dailymail", "mailonsunday.co.uk":
               "dailymail"}
_NOT_ARTICLE_TYPES = ("website", "profile", "video", "music", "book", "product")
_WAYBACK = re.compile(r"^https?://web\.archive\.org/web/\d+[a-z_]*/(.+)$", re.I)
_URL_DATE = re.compile(r"/((?:19|20)\d\d)/(?:[A-Za-z_-]+/)?(\d\d)/(\d\d)/")
_MARKUP = re.compile(rb"<(?:html|body|p|div|article)\b", re.I)
_NEW_MARKER = re.compile(r"^\s*NEW\s*:\s*")
_SENTENCE_END = re.compile(r"[.!?…:;\"'”’)\]]$")
_TITLE_SEPARATORS = (" - ", " | ", " — ", " – ", " :: ")
Parsed = Union[Article, dict]


def _space(text: str) -> str:
    return " ".join(clean_prose(text).split())


def _key(text: str) -> str:
    return _space(text).casefold()


def decode_page(data: bytes, content_type: Optional[str] = None) -> str:
    """The page's text: UTF-8 when valid, else its declared charset, else Windows-1252."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return html_to_unicode(content_type, data, default_encoding="cp1252")[1]


def find_highlights(tree) -> tuple:
    """(publisher, highlights) from the first highlight list on the page, else (None, ())."""
    for publisher, xpath in HIGHLIGHT_LISTS:
        for ul in tree.xpath(xpath):
            items = (_NEW_MARKER.sub("", _space(li.text_content())) for li in ul.iter("li"))
            items = tuple(i for i in items if i)
            if items:
                return publisher, items
    return None, ()


def date_from_url(url: Optional[str]) -> Optional[str]:
    """`.../2010/POLITICS/08/13/...` (the rc-data era CNN layout) -> `2010-08-13`."""
    m = _URL_DATE.search(url or "")
    if m and 1 <= int(m.group(2)) <= 12 and 1 <= int(m.group(3)) <= 31:
        return f"{m.group(1)}-{m.group(2)}-{m.group(3)}"
    return None


def publisher(url: Optional[str], sitename: Optional[str]) -> Optional[str]:
    """`cnn`, `dailymail`, else the first label of the URL's domain (`reuters`,
    `theguardian`); a Wayback URL counts as the page it archived."""
    if url:
        m = _WAYBACK.match(url)
        domain = extract_domain(m.group(1) if m else url) or ""
        if domain:
            return _PUBLISHERS.get(domain.lower(), domain.lower().split(".")[0])
    return "".join(sitename.lower().split()) if sitename else None


def clean_title(title: Optional[str], sitename: Optional[str]) -> Optional[str]:
    """The headline without a trailing ` - CNN.com` / ` | Site` suffix."""
    title = _space(title) if title else ""
    if sitename:
        for sep in _TITLE_SEPARATORS:
            suffix = (sep + sitename).casefold()
            if title.casefold().endswith(suffix) and len(title) > len(suffix):
                title = title[: -len(suffix)].strip()
    return title or None


def _block_text(el) -> str:
    for lb in el.iter("lb"):
        lb.tail = " " + (lb.tail or "")
    return _space("".join(el.itertext()))


def body_paragraphs(body, title: Optional[str], highlights: tuple) -> tuple:
    """Paragraphs of trafilatura's output tree, without the headline area before the
    first sentence, nor any paragraph that repeats the title or a highlight."""
    repeats = {_key(h) for h in highlights} | ({_key(title)} if title else set())
    paragraphs = []
    for el in body:
        blocks = [i for i in el.iter("item")] if el.tag == "list" else [el]
        if el.tag not in ("p", "quote", "list", "head"):
            continue
        for block in blocks:
            text = _block_text(block)
            if not text or _key(text) in repeats:
                continue
            if not paragraphs and (el.tag == "head" or not _SENTENCE_END.search(text)):
                continue   # headline, kicker or dateline above the story
            paragraphs.append(text)
    return tuple(paragraphs)


def json_ld_body(tree) -> Optional[str]:
    """The schema.org `articleBody` the page declares in JSON-LD, if any."""
    for script in tree.xpath("//script[@type='application/ld+json']"):
        try:
            data = json.loads(script.text or "")
        except ValueError:
            continue
        stack = [data]
        while stack:
            item = stack.pop()
            if isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, dict):
                body = item.get("articleBody")
                if isinstance(body, str) and body.strip():
                    return body
                stack.extend(v for v in item.values() if isinstance(v, (list, dict)))
    return None


def _n_words(paragraphs) -> int:
    return sum(len(p.split()) for p in paragraphs)


def parse_html(data: bytes, path: str, origin: str, *, url: Optional[str] = None,
               allow_no_highlights: bool = False,
               content_type: Optional[str] = None) -> Iterator[Parsed]:
    """One page -> one Article or one rejected row. `url`: where it was fetched (a WARC
    record's target URI); `content_type`: the HTTP header, for its charset."""
    yield _parse(data, path, origin, url, allow_no_highlights, content_type)


def _parse(data, path, origin, url, allow_no_highlights, content_type) -> Parsed:
    def reject(reason, detail, page_url=url):
        article_id = url_hash(page_url) if page_url else path_id(path)
        return rejected_row(STAGE, reason, article_id=article_id, source_file=path,
                            detail=detail)

    if len(data) > MAX_PAGE_BYTES:
        return reject("page_too_large", f"{len(data)} bytes > {MAX_PAGE_BYTES}")
    if not data.strip():
        return reject("empty_extraction", "no bytes")
    if looks_binary(data):
        return reject("binary_file", "mostly control bytes: not a web page")
    if not _MARKUP.search(data):
        return reject("not_html", "no <html>, <body>, <p> or <div> tag: not a web page")
    try:
        tree = load_html(decode_page(data, content_type))
        if tree is None:
            return reject("not_html", "the library finds no HTML document in these bytes")
        source, highlights = find_highlights(tree)
        prune = [xpath for _, xpath in HIGHLIGHT_LISTS] + [_LABEL, *NOT_BODY]
        doc = bare_extraction(tree, url=url, with_metadata=True, include_comments=False,
                              include_tables=False, prune_xpath=prune,
                              date_extraction_params={"extensive_search": False,
                                                      "original_date": True})
        fallback = json_ld_body(tree)
    except Exception as err:  # noqa: BLE001 - a page the libraries choke on is bad input
        return reject("extraction_failed", f"{type(err).__name__}: {err}")
    if doc is None:
        return reject("not_an_article", "no main text found on the page")
    page_url = url or doc.url or None
    if doc.pagetype and doc.pagetype.lower().startswith(_NOT_ARTICLE_TYPES):
        return reject("not_an_article", f"og:type is {doc.pagetype!r}", page_url)
    title = clean_title(doc.title, doc.sitename)
    paragraphs = body_paragraphs(doc.body, title, highlights) if doc.body is not None else ()
    if fallback and _n_words(paragraphs) < len(fallback.split()) / 2:
        paragraphs = tuple(_space(p) for p in re.split(r"\n\s*\n|\n", fallback) if p.strip())
    if not paragraphs:
        return reject("empty_extraction", "no paragraph left: the main text is only headings, "
                                          "non-sentences or highlights", page_url)
    if not highlights and not allow_no_highlights:
        return reject("no_highlights", f"{len(paragraphs)} paragraphs and no highlight list "
                                       "in the page markup (see --allow_no_highlights)",
                      page_url)
    return Article(article_id=url_hash(page_url) if page_url else path_id(path),
                   paragraphs=paragraphs, highlights=highlights,
                   source=source or publisher(page_url, doc.sitename), url=page_url,
                   origin=origin, source_file=path, title=title,
                   date=doc.date or date_from_url(page_url))
