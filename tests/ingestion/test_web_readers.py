"""Web pages, WARC archives and title-first text (transforms/ingestion/web.py, warc.py,
plaintext.py) on the real pages in ../shared/corpus/news_html and bbc_news."""
import difflib
import gzip
import io
import json
import random

import lxml.html
import pytest
from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from transforms.ingestion import plaintext, warc, web
from transforms.ingestion.articles import Article
from transforms.ingestion.readers import url_hash

CNN_2010 = "goose3_test_cnn1_2010.html"
CNN_2013 = "newspaper4k_cnn_article_2013.html"
DM_2020 = "trafilatura_eval_dailymail.co.uk.food_2020.html"
HIGHLIGHTS = {
    CNN_2010: ("The Social Security Act was signed into law on August 14, 1935",
               "DNC Chairman Tim Kaine says Democrats will tout the program this fall",
               "Republicans have called for a revamp of the program, including privatization"),
    # the page's own bullets start "NEW:", an update marker the reader drops
    CNN_2013: ("The worst of holiday travel fears fail to materialize",
               '"Tomorrow will be a quieter day," says CNN meteorologist',
               "Fate of Macy's Thanksgiving Day Parade balloons still up in the air"),
    DM_2020: ("Heartfelt open letter written by a host of stars including fitness guru Joe Wicks",
              "MPs adding pressure to bolster protections against poor quality foreign food",
              "Vote will soon see if watchdogs given power to enforce high food standards"),
}
# (file, publisher, date, title, start of the first paragraph)
NO_HIGHLIGHTS = [
    ("trafilatura_test_phys.org.tool.html", "phys", "2019-10-22",
     "Flint flake tool partially covered by birch tar adds to evidence of Neanderthal "
     "complex thinking", "A team of researchers affiliated with several institutions in"),
    ("trafilatura_test_reuters.com.parasite.html", "reuters", "2020-01-20",
     "'Parasite' scores historic upset at SAG awards, boosting Oscar chances",
     "LOS ANGELES (Reuters) - South Korean thriller “Parasite” was the upset winner"),
    ("trafilatura_test_salon.com.emissions.html", "salon", "2020-01-10",
     "Despite everything, U.S. emissions dipped in 2019",
     "Just a week into the new year, and the first estimate of how much"),
    ("trafilatura_test_scmp.com.playbook.html", "scmp", "2020-01-20",
     "Carrie Lam should study Tsai Ing-wen’s playbook",
     "Taiwanese President Tsai Ing-wen’s spectacular re-election was no easy feat."),
    ("trafilatura_test_theguardian.com.academics.html", "theguardian", "2020-01-20",
     "Thousands of UK academics 'treated as second-class citizens'",
     "Thousands of academic staff at British universities are being treated"),
]
ALL_PAGES = list(HIGHLIGHTS) + [row[0] for row in NO_HIGHLIGHTS]


@pytest.fixture(scope="module")
def pages(corpus_dir):
    folder = corpus_dir / "news_html"
    return {name: (folder / name).read_bytes() for name in ALL_PAGES}


@pytest.fixture(scope="module")
def html_dir(corpus_dir):
    return corpus_dir / "news_html"


def parse_one(data, name, **kw):
    (out,) = web.parse_html(data, f"news_html/{name}", "crawled", **kw)
    return out


def ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def own_paragraphs(data: bytes, xpath: str) -> str:
    """The story's paragraphs as the page's own markup delimits them (a reference built
    without trafilatura)."""
    tree = lxml.html.fromstring(data.decode("utf-8"))
    texts = (" ".join(p.text_content().split()) for p in tree.xpath(xpath))
    return "\n\n".join(t for t in texts if t)


def test_cnn_2013_main_text_matches_newspaper4k_expected_output(pages, html_dir):
    a = parse_one(pages[CNN_2013], CNN_2013)
    expected = (html_dir / "newspaper4k_cnn_article_2013.expected.txt").read_text().strip()
    assert ratio("\n\n".join(a.paragraphs), expected) >= 0.95
    meta = json.loads((html_dir / "newspaper4k_cnn_article_2013.expected_metadata.json")
                      .read_text())
    assert a.title == meta["title"]
    assert a.url == meta["url"] and a.article_id == url_hash(meta["url"])
    assert a.date == meta["publish_date"][:10] == "2013-11-27"
    assert a.source == "cnn" and a.origin == "crawled"


def test_cnn_2010_goose3_expected_text_is_only_a_prefix(pages, html_dir):
    """goose3's fixture keeps only the first 38 characters of the expected text (its test
    checks `startswith`), so a ratio against it says nothing: check the prefix, and the
    ratio against the story's own <p> paragraphs instead."""
    a = parse_one(pages[CNN_2010], CNN_2010)
    expected = json.loads((html_dir / "goose3_test_cnn1_2010.expected.json").read_text())
    prefix = expected["expected"]["cleaned_text"]
    assert len(prefix) < 50 and ratio("\n\n".join(a.paragraphs), prefix) < 0.1
    assert a.paragraphs[0].startswith(prefix)
    story = own_paragraphs(pages[CNN_2010], "//div[contains(@class,'cnn_strycntntlft')]/p")
    assert ratio("\n\n".join(a.paragraphs), story) >= 0.95
    assert expected["expected"]["title"] == a.title + " - CNN.com"   # site suffix dropped
    assert a.url == expected["url"] and a.article_id == url_hash(expected["url"])
    # htmldate would guess 2011-08-19 from the page's side links; the URL has the date
    assert a.date == "2010-08-13"
    assert "Loading weather data" not in " ".join(a.paragraphs)   # a hidden footer box


def test_daily_mail_has_no_expected_file_so_its_own_markup_is_the_reference(pages, html_dir):
    assert not list(html_dir.glob("trafilatura_eval_dailymail*.expected*"))
    a = parse_one(pages[DM_2020], DM_2020)
    story = own_paragraphs(pages[DM_2020], "//div[@id='js-article-text']//p[contains(@class,"
                           "'mol-para-with-font')][not(ancestor::*[contains(@class,"
                           "'mol-factbox')])]")
    assert ratio("\n\n".join(a.paragraphs), story) >= 0.95
    text = " ".join(a.paragraphs)
    assert "Prince of Wales" not in text               # the side-story box
    assert not any(p.startswith("The letter sent by an alliance") for p in a.paragraphs)
    assert a.source == "dailymail" and a.date == "2020-09-26"
    assert a.title == "Chef Jamie Oliver joins Mail on Sunday's war on toxic US food"


@pytest.mark.parametrize("name", list(HIGHLIGHTS))
def test_highlights_come_from_the_page_markup_and_not_the_body(pages, name):
    a = parse_one(pages[name], name)
    assert isinstance(a, Article) and a.highlights == HIGHLIGHTS[name]
    body = "\n".join(a.paragraphs)
    for h in a.highlights:
        assert h not in body
    assert "STORY HIGHLIGHTS" not in body.upper()
    assert a.title not in a.paragraphs


def test_a_highlight_list_inside_the_story_is_pruned_from_the_body():
    """On the real pages trafilatura already leaves the bullets out; here they sit between
    paragraphs and read as sentences, so only the reader's pruning keeps them out."""
    paragraphs = [f"<p>Paragraph {i} tells what happened on day {i}, and who said what "
                  "about it.</p>" for i in range(8)]
    bullets = ("<div><b>STORY HIGHLIGHTS</b></div><ul class='cnn_bulletbin cnnStryHghLght'>"
               "<li>NEW: The first bullet is a full sentence about the story.</li>"
               "<li>The second bullet is another full sentence.</li></ul>")
    page = ("<html><head><title>Story</title></head><body><article><h1>Story</h1>"
            + "".join(paragraphs[:3]) + bullets + "".join(paragraphs[3:])
            + "</article></body></html>").encode()
    (a,) = web.parse_html(page, "s.html", "crawled", url="http://www.cnn.com/2014/US/01/02/s/")
    assert a.highlights == ("The first bullet is a full sentence about the story.",
                            "The second bullet is another full sentence.")
    assert len(a.paragraphs) == 8 and not any("bullet" in p for p in a.paragraphs)
    assert a.source == "cnn" and a.date == "2014-01-02"


@pytest.mark.parametrize("name,source,date,title,first", NO_HIGHLIGHTS)
def test_pages_without_highlights(pages, name, source, date, title, first):
    rejected = parse_one(pages[name], name)
    assert rejected["reason"] == "no_highlights" and rejected["stage"] == "read"
    a = parse_one(pages[name], name, allow_no_highlights=True)
    assert rejected["article_id"] == a.article_id == url_hash(a.url)
    assert a.highlights == () and a.title == title and a.source == source and a.date == date
    assert a.paragraphs[0].startswith(first)
    assert sum(len(p.split()) for p in a.paragraphs) > 300


def test_paywalled_page_takes_the_json_ld_article_body(pages):
    """SCMP serves a photo caption in its markup and the story as schema.org articleBody."""
    name = "trafilatura_test_scmp.com.playbook.html"
    a = parse_one(pages[name], name, allow_no_highlights=True)
    assert len(a.paragraphs) == 1 and len(a.paragraphs[0].split()) > 600
    assert "Photo: AP" not in a.paragraphs[0]


def http_response(writer, url, body, content_type="text/html; charset=utf-8", status="200 OK"):
    headers = StatusAndHeaders(status, [("Content-Type", content_type)], protocol="HTTP/1.1")
    return writer.create_warc_record(url, "response", payload=io.BytesIO(body),
                                     http_headers=headers)


def build_warc(pages, singles, gz=True):
    """warcinfo, then a request + response per page, then an image and a 404."""
    buf = io.BytesIO()
    w = WARCWriter(buf, gzip=gz)
    w.write_record(w.create_warcinfo_record("pages.warc.gz", {"software": "test"}))
    for name in ALL_PAGES:
        url = singles[name].url
        request = StatusAndHeaders("GET / HTTP/1.1", [("Host", "x")], is_http_request=True)
        w.write_record(w.create_warc_record(url, "request", payload=io.BytesIO(b""),
                                            http_headers=request))
        w.write_record(http_response(w, url, pages[name]))
    w.write_record(http_response(w, "http://x/a.jpg", b"\xff\xd8\xff\xe0JFIF", "image/jpeg"))
    w.write_record(http_response(w, "http://x/gone", b"<html><body>gone</body></html>",
                                 status="404 Not Found"))
    return buf.getvalue()


@pytest.fixture(scope="module")
def singles(pages):
    return {n: parse_one(pages[n], n, allow_no_highlights=True) for n in ALL_PAGES}


def same(a, b):
    keys = ("article_id", "paragraphs", "highlights", "title", "date", "url", "source")
    return all(getattr(a, k) == getattr(b, k) for k in keys)


def reasons(rows):
    return [r["reason"] if isinstance(r, dict) else "article" for r in rows]


@pytest.mark.parametrize("gz", [True, False])
def test_warc_of_the_pages_gives_the_same_articles(pages, singles, tmp_path, gz):
    path = tmp_path / ("pages.warc.gz" if gz else "pages.warc")
    path.write_bytes(build_warc(pages, singles, gz))
    with open(path, "rb") as f:
        rows = list(warc.parse_warc(f, str(path), "crawled", allow_no_highlights=True))
    # every record accounted for: 1 warcinfo + 8 requests + 8 pages + image + 404
    assert len(rows) == 19
    assert reasons(rows) == (["not_a_response_record"] + ["not_a_response_record",
                             "article"] * 8 + ["not_html_record", "http_status_not_ok"])
    articles = [r for r in rows if isinstance(r, Article)]
    for name, a in zip(ALL_PAGES, articles):
        assert same(a, singles[name]) and a.source_file == str(path)
    with open(path, "rb") as f:
        default = reasons(warc.parse_warc(f, str(path), "crawled"))
    assert default.count("article") == 3 and default.count("no_highlights") == 5
    assert "image/jpeg" in rows[-2]["detail"] and "HTTP 404" in rows[-1]["detail"]


def record_offsets(raw: bytes) -> list:
    it = ArchiveIterator(io.BytesIO(raw))
    return [it.get_record_offset() for _ in it]


def test_truncated_warc_gz_keeps_the_records_before_the_break(pages, singles):
    raw = build_warc(pages, singles, gz=True)
    offsets = record_offsets(raw)
    broken_record = 7                       # 1-based: the third page's response
    cut = (offsets[broken_record - 1] + offsets[broken_record]) // 2
    rows = list(warc.parse_warc(io.BytesIO(raw[:cut]), "cut.warc.gz", "crawled",
                                allow_no_highlights=True))
    assert reasons(rows) == ["not_a_response_record", "not_a_response_record", "article",
                             "not_a_response_record", "article", "not_a_response_record",
                             "truncated_archive"]
    assert same(rows[2], singles[ALL_PAGES[0]]) and same(rows[4], singles[ALL_PAGES[1]])
    assert rows[-1]["detail"].startswith(
        f"cut.warc.gz: record 7 at byte {offsets[broken_record - 1]}: the record is cut short")


def test_truncated_warc_gz_gunzipped_as_a_whole_still_ends_in_one_row(pages, singles):
    """A reader that gunzips the whole file first (fsspec's compression="infer") gets an
    EOFError from the gzip layer's read-ahead, so it can lose the record just before the
    break as well: still no exception and one truncated_archive row, but pass raw bytes."""
    raw = build_warc(pages, singles, gz=True)
    offsets = record_offsets(raw)
    cut = (offsets[6] + offsets[7]) // 2
    raw_rows = reasons(warc.parse_warc(io.BytesIO(raw[:cut]), "c", "crawled"))
    rows = reasons(warc.parse_warc(gzip.GzipFile(fileobj=io.BytesIO(raw[:cut])), "c",
                                   "crawled"))
    assert rows[-1] == "truncated_archive" and rows.count("truncated_archive") == 1
    assert rows[:-1] == raw_rows[:len(rows) - 1] and "article" in rows   # page 1 kept


def test_truncated_plain_warc_at_every_kind_of_cut(pages, singles):
    raw = build_warc({n: pages[n] for n in ALL_PAGES}, singles, gz=False)
    offsets = record_offsets(raw)
    start = offsets[2]                      # the first page's response record
    for cut in (start + 30, start + 250, start + 600, offsets[3] - 10):
        rows = list(warc.parse_warc(io.BytesIO(raw[:cut]), "cut.warc", "crawled"))
        assert reasons(rows) == ["not_a_response_record", "not_a_response_record",
                                 "truncated_archive"], cut
        assert f"record 3 at byte {start}:" in rows[-1]["detail"]


def test_not_a_warc_and_empty(pages):
    rows = list(warc.parse_warc(io.BytesIO(pages[CNN_2010]), "page.warc", "crawled"))
    assert reasons(rows) == ["not_a_warc"]
    rows = list(warc.parse_warc(io.BytesIO(gzip.compress(b"hello world, not an archive")),
                                "x.warc.gz", "crawled"))
    assert reasons(rows) == ["not_a_warc"]
    assert list(warc.parse_warc(io.BytesIO(b""), "e.warc", "crawled")) == []


def test_resource_record_with_html_is_a_page(pages, singles):
    buf = io.BytesIO()
    w = WARCWriter(buf, gzip=True)
    url = singles[CNN_2013].url
    w.write_record(w.create_warc_record(url, "resource", payload=io.BytesIO(pages[CNN_2013]),
                                        warc_content_type="text/html"))
    w.write_record(w.create_warc_record("file:///notes.txt", "resource",
                                        payload=io.BytesIO(b"notes"),
                                        warc_content_type="text/plain"))
    rows = list(warc.parse_warc(io.BytesIO(buf.getvalue()), "r.warc.gz", "crawled"))
    assert reasons(rows) == ["article", "not_html_record"]
    assert same(rows[0], singles[CNN_2013])


BBC = ["business/001.txt", "sport/199.txt", "tech/001.txt", "politics/001.txt"]


def test_bbc_text_follows_the_highlights_policy(corpus_dir):
    folder = corpus_dir / "bbc_news"
    ids = set()
    for name in BBC:
        path, data = str(folder / name), (folder / name).read_bytes()
        (rejected,) = plaintext.parse_txt(data, path, "public")
        assert rejected["reason"] == "no_highlights"
        (a,) = plaintext.parse_txt(data, path, "public", allow_no_highlights=True)
        assert a.article_id == rejected["article_id"] and a.highlights == ()
        assert a.source == "bbc" and a.url is None and a.origin == "public"
        lines = plaintext.decode_text(data).split("\n")
        assert a.title == lines[0].strip() and lines[1].strip() == ""
        assert a.paragraphs[0] == lines[2].strip() and len(a.paragraphs) >= 2
        ids.add(a.article_id)
    assert len(ids) == len(BBC)        # 001.txt in three folders: three ids
    (mutu,) = plaintext.parse_txt((folder / BBC[1]).read_bytes(), BBC[1], "public",
                                  allow_no_highlights=True)
    assert mutu.title == "Chelsea sack Mutu" and "£15.8m" in mutu.paragraphs[1]
    # the id does not depend on where the corpus is mounted
    assert plaintext.path_id(str(folder / BBC[0])) == plaintext.path_id("gs://b/x/" + BBC[0])


def test_page_charset_declaration_and_http_header():
    body = ("<html><head><meta charset='windows-1252'></head><body><article><p>Caf\xe9 "
            "prices rose by \u20ac 5 to \u201cnew highs\u201d. Then they fell.</p></article>"
            "</body></html>").encode("cp1252")
    (a,) = web.parse_html(body, "p.html", "crawled", url="http://x/p",
                          allow_no_highlights=True)
    assert a.paragraphs == ("Café prices rose by € 5 to “new highs”. Then they fell.",)
    latin = "<html><head><meta charset='utf-8'></head><body><p>Caf\xe9 \xa35. Done.</p>" \
            "</body></html>"
    (b,) = web.parse_html(latin.encode("latin-1"), "p.html", "crawled", url="http://x/q",
                          allow_no_highlights=True, content_type="text/html; charset=latin-1")
    assert b.paragraphs == ("Café £5. Done.",)


def test_pages_that_are_not_articles():
    cases = {
        b"<html><head><title>x</title></head><body></body></html>": "not_an_article",
        b"<html><head><meta property='og:type' content='website'></head><body><article><p>"
        b"Welcome to the site, with many stories. Read them all.</p></article></body></html>":
            "not_an_article",
        b"<html><body><h1>Headline</h1><ul class='cnnStryHghLght'><li>A bullet</li></ul>"
        b"</body></html>": "empty_extraction",
        b"plain words, no markup at all": "not_html",
        b"": "empty_extraction",
    }
    for data, reason in cases.items():
        (row,) = web.parse_html(data, "x.html", "crawled", allow_no_highlights=True)
        assert row["reason"] == reason, data
        assert row["article_id"] == plaintext.path_id("x.html")


def test_garbage_never_raises_and_gives_one_row():
    rng = random.Random(15)
    blobs = [bytes(rng.randrange(256) for _ in range(n)) for n in (1, 50, 4000, 70000)]
    blobs += [b"\x00" * 100, b"<html" * 1000, b"<html><body>" + b"<div>" * 5000,
              b"\xef\xbb\xbf<html><body><p>BOM page. Fine.</p></body></html>",
              b"WARC/1.0\r\nWARC-Type: response\r\n\r\n", b"\x1f\x8b\x08\x00garbage"]
    for data in blobs:
        for rows in (list(web.parse_html(data, "g.html", "crawled")),
                     list(plaintext.parse_txt(data, "g.txt", "crawled"))):
            assert len(rows) == 1
        rows = list(warc.parse_warc(io.BytesIO(data), "g.warc", "crawled"))
        assert all(isinstance(r, dict) for r in rows) and len(rows) <= 1


def test_small_rules():
    assert web.date_from_url("http://www.cnn.com/2010/POLITICS/08/13/x/index.html") \
        == "2010-08-13"
    assert web.date_from_url("http://x.com/2020/13/45/a") is None
    wayback = "https://web.archive.org/web/20150401000000/http://www.dailymail.co.uk/a.html"
    assert web.publisher(wayback, None) == "dailymail"
    assert web.publisher("https://uk.reuters.com/article/x", "Reuters") == "reuters"
    assert web.publisher(None, "The Guardian") == "theguardian"
    assert web.clean_title("Headline - CNN.com", "CNN.com") == "Headline"
    assert plaintext.split_title_first("Title\n\nOne\nline.\n\n\nTwo.\n") == \
        ("Title", ("One line.", "Two."))


def test_the_job_gives_the_same_candidate_queries_from_the_warc_as_from_the_pages(
        pages, singles, html_dir, tmp_path):
    """Through the generate job: the pages one by one and a WARC of them give the same
    candidate queries; every WARC record is in the funnel (19 records in, 8 articles)."""
    import pyarrow.parquet as pq

    from beam_pipelines import generate
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "pages.warc.gz").write_bytes(build_warc(pages, singles, True))
    common = ["--allow_no_highlights", "--workers", "1"]
    from_pages = generate.run(["--input", str(html_dir / "*.html"),
                               "--output", str(tmp_path / "a"), *common])
    from_warc = generate.run(["--input", str(tmp_path / "w" / "*.warc.gz"),
                              "--output", str(tmp_path / "b"), *common])
    assert from_warc["stages"]["records"]["out"] == 19
    assert from_warc["stages"]["read"]["out"] == 8 == from_pages["stages"]["read"]["out"]
    assert from_warc["gaps"] == [] and from_pages["gaps"] == []

    def rows(out):
        table = pq.read_table(str(out / "candidates")).to_pylist()
        return sorted((r["id"], r["query"], r["origin"], tuple(a["text"] for a in r["answers"]))
                      for r in table)
    assert rows(tmp_path / "a") == rows(tmp_path / "b") != []
    assert {r[2] for r in rows(tmp_path / "b")} == {"crawled"}
