"""Real ReCoRD dev examples as the official ReCoRD explorer renders them, read back into
`record_examples.GoldPassage`s.

The explorer (github:sheng-z/ReCoRD-explorer, `dataset/examples.json`) holds a list of
`{"idx", "id", "html"}`: one dev query each, its passage as HTML with the body in a `<p>`,
the highlights as `<li>` items, each entity mention an `<a class="btn entity">` whose radio
input's value is `<n>-<start>-<end>-<text>` (offsets into the original passage, `end`
exclusive) and whose class holds `correct-answer` for the gold answer's mentions; the
query is the `#query` div with the placeholder as `<span id="placeholder">`.

The passage text is rebuilt as the ReCoRD layout has it (body, then `\n@highlight\n` and
each highlight); the whitespace the page adds around the body and the items is removed
only as far as every entity offset then points at its text (all 123 examples check).
"""
import html.parser
import itertools
import json
import pathlib

from benchmarks.record_examples import HIGHLIGHT, PLACEHOLDER, GoldPassage, GoldQuery


class _Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.body, self.highlights, self.query, self.mentions = [], [], [], []
        self._into, self._in_context, self._in_query = None, False, False
        self._answer, self._placeholder = False, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class") or ""
        if tag == "div" and a.get("id") == "context":
            self._in_context = True
        elif tag == "div" and a.get("id") == "query":
            self._in_context, self._in_query, self._into = False, True, self.query
        elif tag == "p" and self._in_context:
            self._into = self.body
        elif tag == "li" and self._in_context:
            self.highlights.append([])
            self._into = self.highlights[-1]
        elif tag == "a" and "entity" in cls.split():
            self._answer = "correct-answer" in cls.split()
        elif tag == "input" and a.get("name") == "answer" and self._in_context:
            _, start, end, text = a["value"].split("-", 3)
            self.mentions.append((int(start), int(end), text, self._answer))
        elif tag == "span" and a.get("id") == "placeholder" and self._in_query:
            self.query.append(PLACEHOLDER)
            self._placeholder = True

    def handle_endtag(self, tag):
        if tag in ("p", "li") or (tag == "div" and self._in_query):
            self._into = None
            self._in_query = self._in_query and tag != "div"
        if tag == "span":
            self._placeholder = False

    def handle_data(self, data):
        if self._into is not None and not self._placeholder:
            self._into.append(data)


def _passage_text(page: _Page):
    body = "".join(page.body)
    items = ["".join(h) for h in page.highlights]
    for trim_body, trim_item in itertools.product((str, str.rstrip, str.strip),
                                                  (str, str.strip)):
        text = trim_body(body) + "".join(HIGHLIGHT + trim_item(h) for h in items)
        if all(text[s:e] == t for s, e, t, _ in page.mentions):
            return text
    return None


def parse_example(item: dict) -> GoldPassage:
    """One explorer example; raises ValueError when its offsets cannot be matched."""
    page = _Page()
    page.feed(item["html"])
    text = _passage_text(page)
    if text is None:
        raise ValueError(f"explorer example {item.get('idx')}: entity offsets do not match "
                         "the rebuilt passage")
    query = "".join(page.query).replace("\xa0" + PLACEHOLDER, " " + PLACEHOLDER)
    query = " ".join(query.replace(PLACEHOLDER + "\xa0", PLACEHOLDER + " ").split())
    answers = tuple(sorted({(s, e, t) for s, e, t, gold in page.mentions if gold}))
    entities = tuple(sorted({(s, e) for s, e, _, _ in page.mentions}))
    return GoldPassage(f"explorer:{item['id']}", None, text, entities,
                       (GoldQuery(str(item["id"]), query, answers),))


def read_explorer(path) -> list:
    items = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))
    return [parse_example(item) for item in items]
