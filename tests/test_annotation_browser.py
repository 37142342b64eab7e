"""The annotation page in a real browser: Debian's headless Chromium driven by Playwright
(never a downloaded browser build), against the local server and its SQLite store."""
import os
import pathlib
import shutil
import sqlite3
import threading
import urllib.parse

import pytest

from beam_pipelines import human_validation as hv
from tests.test_human_validation import write_record_candidates

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
REPO = pathlib.Path(__file__).resolve().parents[1]
FEEDBACK = "Two entities could fit here; I guessed."

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason="%s not found: apt-get install chromium" % CHROMIUM)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


@pytest.fixture
def served(record_format_dir, tmp_path):
    rows = write_record_candidates(record_format_dir, tmp_path / "candidates")
    hv.run(["export", "--filtered", str(tmp_path / "candidates"), "--output",
            str(tmp_path / "hits")])
    server = hv.make_server(str(tmp_path / "hits"), str(tmp_path / "a.sqlite"), "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield "http://127.0.0.1:%d" % server.server_address[1], {r["id"]: r for r in rows}, tmp_path
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    pg, outside = context.new_page(), []

    def loopback_only(route):  # nothing leaves the machine
        host = urllib.parse.urlsplit(route.request.url).hostname
        if route.request.url.startswith("file:") or host == "127.0.0.1":
            return route.continue_()
        outside.append(route.request.url)
        return route.abort()

    pg.route("**/*", loopback_only)
    yield pg
    context.close()
    assert outside == [], "the page requested outside resources: %s" % outside


def _pick_entities(pg, row):
    """(a wrong entity, the last answer mention) among the page's clickable spans."""
    answers = {(a["start"], a["end"]) for a in row["answers"]}
    texts = {a["text"] for a in row["answers"]}
    wrong = next(e for e in row["entities"]
                 if (e["start"], e["end"]) not in answers and e["text"] not in texts)
    right = row["answers"][-1]
    sel = '.passage .entity[data-start="%d"][data-end="%d"]'
    return pg.locator(sel % (wrong["start"], wrong["end"])), \
        pg.locator(sel % (right["start"], right["end"])), right


def test_annotator_clicks_an_entity_and_the_answer_lands_in_sqlite(served, page):
    base, by_id, tmp = served
    page.goto(base + "/")
    page.fill("input[name=workerId]", "annotator-1")
    page.click("button[type=submit]")
    page.wait_for_url("**/hit/*")
    first_url = page.url
    qid = page.input_value("input[name=query_id]")
    row = by_id[qid]
    assert page.locator(".passage .entity").count() == len(row["entities"])
    assert page.locator(".passage .highlights li").count() == row["passage"].count("@highlight")
    assert page.is_disabled("#submitButton")                  # nothing clicked yet
    assert page.get_attribute("details.instructions", "open") is not None

    wrong, right, answer = _pick_entities(page, row)
    wrong.click()
    right.click()                                              # changing the answer
    assert page.locator(".entity.selected").count() == 1
    assert "selected" in right.get_attribute("class")
    assert page.inner_text(".query .placeholder") == answer["text"]
    assert page.is_enabled("#submitButton")
    page.check("input[name=ambiguous]")
    page.fill("textarea[name=feedback]", FEEDBACK)
    shot = tmp / "human_validation_page.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    if os.environ.get("RECORD_SAVE_SCREENSHOT"):
        (REPO / "docs").mkdir(exist_ok=True)
        shutil.copy(shot, REPO / "docs" / "human_validation_page.png")
    page.click("details.instructions summary")                 # instructions collapse
    assert page.get_attribute("details.instructions", "open") is None

    with page.expect_navigation():
        page.click("#submitButton")
    assert page.url != first_url and "/hit/" in page.url       # the next HIT is served
    with sqlite3.connect(tmp / "a.sqlite") as con:
        stored = con.execute("SELECT worker_id, query_id, answer, answer_start, answer_end,"
                             " ambiguous, feedback, time_spent_ms FROM annotations").fetchall()
    assert stored[0][:7] == ("annotator-1", qid, answer["text"], answer["start"],
                             answer["end"], 1, FEEDBACK)
    assert len(stored) == 1 and stored[0][7] > 0


def test_on_mturk_the_page_posts_to_external_submit(served, page):
    base, by_id, tmp = served
    preview = (tmp / "hits" / "preview.html").as_uri()
    page.goto(preview + "?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H1")
    page.locator(".passage .entity").first.click()
    assert page.is_disabled("#submitButton")                   # a preview cannot submit

    posted = []
    page.route("http://127.0.0.1:9/mturk/externalSubmit",      # stands in for MTurk
               lambda route: (posted.append(route.request.post_data),
                              route.fulfill(status=200, body="ok")))
    page.goto(preview + "?assignmentId=ASSIGN1&hitId=H1&workerId=W1"
                        "&turkSubmitTo=" + urllib.parse.quote("http://127.0.0.1:9"))
    qid = page.input_value("input[name=query_id]")
    _, right, answer = _pick_entities(page, by_id[qid])
    right.click()
    with page.expect_navigation():
        page.click("#submitButton")
    form = dict(urllib.parse.parse_qsl(posted[0], keep_blank_values=True))
    assert form["assignmentId"] == "ASSIGN1" and form["query_id"] == qid
    assert (form["answer"], form["answer_start"], form["answer_end"]) == \
        (answer["text"], str(answer["start"]), str(answer["end"]))
    assert int(form["time_spent_ms"]) >= 0 and form["feedback"] == ""
