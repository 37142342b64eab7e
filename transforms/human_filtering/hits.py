"""HITs of the human-validation stage (paper section 3.4, Figure 4).

Pure functions: a query row (SCORED_SCHEMA / CANDIDATE_SCHEMA) becomes the values of one
task block of the annotation page; `per_hit` tasks make one HIT, i.e. one row of the
Mechanical Turk batch input CSV. The page template uses MTurk's `${var}` substitution, and
`substitute` renders it the same way for the local server.
"""
import html
import html.parser
import json
import re
from importlib import resources

from transforms.core.constants import HIGHLIGHT_SEP as HIGHLIGHT
from transforms.core.constants import PLACEHOLDER
from transforms.core.hashing import short_digest
from transforms.core.record_metric import normalize_answer

_SLOT_TOKEN = "__SFX__"
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
#: Input columns of one task; a HIT of N > 1 tasks suffixes them `_1` ... `_N`.
TASK_FIELDS = ("query_id", "passage_id", "query", "query_html", "passage_html",
               "reference_answers")
#: Columns of a HIT beside its tasks: `gold` is "1" for a gold question (known answers).
HIT_FIELDS = ("hit_ref", "gold")
#: Answer fields the page posts for one task (same suffixes).
ANSWER_FIELDS = ("query_id", "answer", "answer_start", "answer_end", "ambiguous", "feedback")


# --- answer matching (normalised as the official ReCoRD metric) ------------------------

def is_correct(answer_text, answer_start, answer_end, reference_answers) -> bool:
    """A clicked entity is correct if its normalised text equals a reference answer's,
    or its (exclusive-end) span equals a reference answer span."""
    if answer_text is None and answer_start is None:
        return False
    norm = normalize_answer(answer_text or "")
    for ref in reference_answers:
        if answer_start is not None and (answer_start, answer_end) == (ref["start"], ref["end"]):
            return True
        if norm and norm == normalize_answer(ref["text"]):
            return True
    return False


class _EntitySpans(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.spans, self._open = {}, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "span" and attrs.get("class") == "entity":
            self._open = [int(attrs["data-start"]), int(attrs["data-end"]), ""]

    def handle_endtag(self, tag):
        if tag == "span" and self._open:
            self.spans[(self._open[0], self._open[1])] = self._open[2]
            self._open = None

    def handle_data(self, data):
        if self._open:
            self._open[2] += data


def entity_spans(passage_html: str) -> dict:
    """{(start, end): text} of the entities a rendered passage lets the worker click: the
    only answers a HIT accepts."""
    parser = _EntitySpans()
    parser.feed(passage_html)
    parser.close()
    return parser.spans


def is_entity(answer_text, answer_start, answer_end, spans: dict) -> bool:
    """The answer is one of the clickable entities, offsets and text both."""
    text = spans.get((answer_start, answer_end))
    return text is not None and text == answer_text


# --- checks on input rows ---------------------------------------------------------------

def row_problem(row) -> str | None:
    """Why a query row cannot become a HIT (None when it can)."""
    passage, query = row.get("passage") or "", row.get("query") or ""
    if query.count(PLACEHOLDER) != 1:
        return "placeholder_count"
    if not row.get("answers"):
        return "no_answers"
    spans = {(e["start"], e["end"]) for e in row.get("entities") or []}
    for span in list(row.get("entities") or []) + list(row["answers"]):
        if passage[span["start"]:span["end"]] != span["text"]:
            return "span_text_mismatch"
    if any((a["start"], a["end"]) not in spans for a in row["answers"]):
        return "answer_not_entity"
    return None


# --- rendering --------------------------------------------------------------------------

def _segments(passage: str):
    """(kind, start, end) of the article body and of each `@highlight` bullet."""
    out, pos, kind = [], 0, "body"
    while True:
        cut = passage.find(HIGHLIGHT, pos)
        end = len(passage) if cut < 0 else cut
        out.append((kind, pos, end))
        if cut < 0:
            return out
        pos, kind = cut + len(HIGHLIGHT), "highlight"


def _entity_html(passage, start, end, entities) -> str:
    parts, pos = [], start
    for ent in entities:
        if ent["start"] < pos or ent["end"] > end or ent["end"] <= ent["start"]:
            continue  # outside this segment, or overlapping an earlier mention
        parts.append(html.escape(passage[pos:ent["start"]]))
        parts.append('<span class="entity" role="button" tabindex="0" data-start="%d" '
                     'data-end="%d">%s</span>' % (ent["start"], ent["end"],
                                                  html.escape(passage[ent["start"]:ent["end"]])))
        pos = ent["end"]
    parts.append(html.escape(passage[pos:end]))
    return "".join(parts)


def render_passage_html(passage: str, entities) -> str:
    """The passage with every entity mention a clickable `<span class="entity">`;
    the article body as a paragraph, the highlights as a bullet list."""
    ents = sorted(entities, key=lambda e: (e["start"], -e["end"]))
    body, bullets = "", []
    for kind, start, end in _segments(passage):
        text = _entity_html(passage, start, end, ents)
        if kind == "body":
            body = '<p class="body">%s</p>' % text
        else:
            bullets.append("<li>%s</li>" % text)
    if bullets:
        body += '<ul class="highlights">%s</ul>' % "".join(bullets)
    return body


def render_query_html(query: str) -> str:
    """The escaped query with `@placeholder` marked up so the page can fill it in."""
    before, after = query.split(PLACEHOLDER, 1)
    return '%s<span class="placeholder">@placeholder</span>%s' % (
        html.escape(before), html.escape(after))


def _answers(row):
    return [{"start": int(a["start"]), "end": int(a["end"]), "text": a["text"]}
            for a in row["answers"]]


def task_values(row) -> dict:
    """Template values of one task block (unsuffixed names)."""
    return {
        "query_id": row["id"],
        "passage_id": row["passage_id"],
        "query": row["query"],
        "query_html": render_query_html(row["query"]),
        "passage_html": render_passage_html(row["passage"], row["entities"]),
        "reference_answers": json.dumps(_answers(row), ensure_ascii=False,
                                        separators=(",", ":")),
    }


def slot_suffixes(per_hit: int) -> list[str]:
    """Field-name suffix of each task of a HIT: "" for one task, `_1`..`_N` for N."""
    return [""] if per_hit == 1 else ["_%d" % i for i in range(1, per_hit + 1)]


def hit_rows(rows, per_hit: int = 1, gold: bool = False):
    """Group query rows into HITs of `per_hit` tasks: one batch-CSV row each.
    A short last HIT is padded by repeating its own first tasks."""
    rows = list(rows)
    for i in range(0, len(rows), per_hit):
        group = rows[i:i + per_hit]
        group = [group[j % len(group)] for j in range(per_hit)]
        hit = {"hit_ref": "hit-" + short_digest(*[r["id"] for r in group], length=12),
               "gold": "1" if gold else "0"}
        for sfx, row in zip(slot_suffixes(per_hit), group):
            hit.update({k + sfx: v for k, v in task_values(row).items()})
        yield hit


def csv_columns(per_hit: int) -> list[str]:
    return list(HIT_FIELDS) + [f + s for s in slot_suffixes(per_hit) for f in TASK_FIELDS]


# --- the page ---------------------------------------------------------------------------

def _template_text(name: str) -> str:
    return resources.files("transforms.human_filtering").joinpath("templates", name).read_text("utf-8")


def page_template(per_hit: int = 1) -> str:
    """The MTurk HIT layout: the page shell with `per_hit` task blocks."""
    block = _template_text("hit_task.html")
    tasks = "\n".join(block.replace(_SLOT_TOKEN, sfx) for sfx in slot_suffixes(per_hit))
    return _template_text("hit_page.html").replace("<!--TASKS-->", tasks)


def template_variables(template: str) -> set[str]:
    return set(_VAR.findall(template))


def substitute(template: str, values: dict) -> str:
    """Fill `${var}` like MTurk does: values inserted verbatim, one pass, all required."""
    missing = template_variables(template) - set(values)
    if missing:
        raise KeyError("template variables without a value: %s" % sorted(missing))
    return _VAR.sub(lambda m: str(values[m.group(1)]), template)
