"""The annotation page in a real browser: Debian's headless Chromium driven by Playwright
(never a downloaded browser build), against the real server on 127.0.0.1 and its SQLite
store, and as MTurk and Prolific open it."""
import os
import pathlib
import shutil
import sqlite3
import urllib.parse

import pytest

from beam_pipelines import human_validation as hv
from tests.human_filtering.test_human_validation import write_record_candidates
from transforms.human_filtering import tokens
from transforms.human_filtering.app import ServeConfig
from transforms.human_filtering.server import Server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
REPO = pathlib.Path(__file__).resolve().parents[2]
FEEDBACK = "Two entities could fit here; I guessed."
PROLIFIC_IDS = {"PROLIFIC_PID": "5f0c1e2d3a4b5c6d7e8f9a0b", "STUDY_ID": "60aa11bb22cc33dd44ee55ff",
                "SESSION_ID": "61bb22cc33dd44ee55ff6600"}

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason="%s not found: apt-get install chromium" % CHROMIUM)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


def _serve(tmp, record_format_dir, cfg=ServeConfig(), flags=()):
    rows = write_record_candidates(record_format_dir, tmp / "candidates")
    hv.run(["export", "--filtered", str(tmp / "candidates"), "--output", str(tmp / "hits"),
            *flags])
    server = Server(str(tmp / "hits"), str(tmp / "a.sqlite"), cfg=cfg).start()
    return server, {r["id"]: r for r in rows}


@pytest.fixture
def served(record_format_dir, tmp_path):
    server, by_id = _serve(tmp_path, record_format_dir)
    yield server, by_id, tmp_path
    server.stop()


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
    pg.dialogs = []
    pg.on("dialog", lambda d: (pg.dialogs.append(d.message), d.dismiss()))
    yield pg
    context.close()
    assert outside == [], "the page requested outside resources: %s" % outside
    assert pg.dialogs == [], "a script ran a dialog: %s" % pg.dialogs


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


def test_a_worker_answers_with_progress_and_a_confirmation(served, page):
    server, by_id, tmp = served
    token = tokens.add(str(tmp / "a.sqlite"), ["annotator-1"])[0][1]
    page.goto(server.url + "/next?token=" + token)
    page.wait_for_url("**/hit/*")
    first_url = page.url
    assert page.inner_text("#progress") == "HIT 1 of %d" % len(by_id)
    assert page.inner_text("#confirmation") == ""
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
    page.wait_for_url("**/hit/*")
    assert page.url != first_url                               # the next HIT is served
    assert page.inner_text("#progress") == "HIT 2 of %d" % len(by_id)
    assert page.inner_text("#confirmation").startswith("Saved: your answers")
    with sqlite3.connect(tmp / "a.sqlite") as con:
        stored = con.execute("SELECT worker_id, query_id, answer, answer_start, answer_end,"
                             " ambiguous, feedback, time_spent_ms FROM annotations").fetchall()
    assert stored[0][:7] == ("annotator-1", qid, answer["text"], answer["start"],
                             answer["end"], 1, FEEDBACK)
    assert len(stored) == 1 and stored[0][7] > 0


def _mturk_url(tmp, **params):
    return (tmp / "hits" / "preview.html").as_uri() + "?" + urllib.parse.urlencode(params)


@pytest.mark.parametrize("host", ["https://workersandbox.mturk.com", "https://www.mturk.com"])
def test_on_mturk_the_page_posts_to_external_submit(served, page, host):
    server, by_id, tmp = served
    page.goto(_mturk_url(tmp, assignmentId="ASSIGNMENT_ID_NOT_AVAILABLE", hitId="H1"))
    page.locator(".passage .entity").first.click()
    assert page.is_disabled("#submitButton")                   # a preview cannot submit

    posted = []
    page.route(host + "/mturk/externalSubmit",                 # stands in for MTurk
               lambda route: (posted.append(route.request.post_data),
                              route.fulfill(status=200, body="ok")))
    page.goto(_mturk_url(tmp, assignmentId="ASSIGN1", hitId="H1", workerId="W1",
                         turkSubmitTo=host))
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
    assert "token" not in form and "PROLIFIC_PID" not in form  # empty ones are not sent


@pytest.mark.parametrize("target", ["javascript:alert(1)//", "https://evil.example",
                                    "https://www.mturk.com.evil.example", "http://www.mturk.com"])
def test_the_page_refuses_any_other_turk_submit_to(served, page, target):
    # attack: turkSubmitTo=javascript:... ran script on Submit; https://... sent the answers
    # to another host. Now the page says why and does not submit (the fixture checks that
    # no dialog opened and no request left 127.0.0.1).
    server, by_id, tmp = served
    page.goto(_mturk_url(tmp, assignmentId="ASSIGN1", hitId="H1", workerId="W1",
                         turkSubmitTo=target))
    qid = page.input_value("input[name=query_id]")
    _, right, _ = _pick_entities(page, by_id[qid])
    right.click()
    assert page.is_disabled("#submitButton")
    notice = page.inner_text("#notice")
    assert "will not submit" in notice and "workersandbox.mturk.com" in notice
    assert "javascript" not in page.evaluate("document.getElementById('hit-form').action")
    url = page.url
    page.evaluate("document.getElementById('hit-form').requestSubmit()")
    page.click("#submitButton", force=True)
    assert page.url == url


def test_a_prolific_participant_ends_on_the_completion_link(record_format_dir, tmp_path, page):
    server, by_id = _serve(tmp_path, record_format_dir, ServeConfig(per_worker=2),
                           ("--prolific_completion_code", "C1A2B3"))
    try:
        study = tokens.add(str(tmp_path / "a.sqlite"), ["study1"], "study")[0][1]
        done = []
        page.route("https://app.prolific.com/**",
                   lambda route: (done.append(route.request.url),
                                  route.fulfill(status=200, body="completed")))
        page.goto(server.url + "/next?" + urllib.parse.urlencode({"token": study,
                                                                  **PROLIFIC_IDS}))
        for n in (1, 2):
            page.wait_for_url("**/hit/*")
            assert page.inner_text("#progress") == "HIT %d of 2" % n
            assert page.input_value("input[name=PROLIFIC_PID]") == PROLIFIC_IDS["PROLIFIC_PID"]
            qid = page.input_value("input[name=query_id]")
            _, right, _ = _pick_entities(page, by_id[qid])
            right.click()
            page.click("#submitButton")
        page.wait_for_url("https://app.prolific.com/**")
        assert done == ["https://app.prolific.com/submissions/complete?cc=C1A2B3"]
        with sqlite3.connect(tmp_path / "a.sqlite") as con:
            workers = con.execute("SELECT DISTINCT worker_id FROM annotations").fetchall()
        assert workers == [("study1:" + PROLIFIC_IDS["PROLIFIC_PID"],)]
    finally:
        server.stop()


def test_model_in_the_loop_shows_the_models_answer_only_after_the_answer_is_stored(
        record_format_dir, tmp_path, page):
    from tests.human_filtering.test_hv_model_loop import write_kept
    filtered, scored = write_kept(record_format_dir, tmp_path)
    hv.run(["export", "--filtered", str(filtered), "--output", str(tmp_path / "hits")])
    db = str(tmp_path / "a.sqlite")
    server = Server(str(tmp_path / "hits"), db, cfg=ServeConfig(
        show_model_answer=True, model_answer_share=1.0)).start()
    try:
        token = tokens.add(db, ["annotator-1"])[0][1]
        page.goto(server.url + "/next?token=" + token)
        page.wait_for_url("**/hit/*")
        qid = page.input_value("input[name=query_id]")
        said = scored[qid]["adversary_prediction"]
        assert page.locator(".model").count() == 0 and "model's answer" not in page.content()
        _, right, answer = _pick_entities(page, scored[qid])
        right.click()
        with page.expect_navigation():
            page.click("#submitButton")
        page.wait_for_url("**/model?*")
        with sqlite3.connect(db) as con:      # stored before the model's answer was shown
            assert con.execute("SELECT worker_id, query_id, answer FROM annotations").fetchall() \
                == [("annotator-1", qid, answer["text"])]
        assert page.inner_text(".model") == said and page.inner_text(".yours") == answer["text"]
        assert page.inner_text("#confirmation").startswith("Saved: your answers")
        judging = page.url
        page.click("#judgeButton")            # a judgement is required: nothing is sent
        assert page.url == judging
        page.check("input[name=needs_more][value=yes]")
        shot = tmp_path / "model_in_the_loop_page.png"
        page.screenshot(path=str(shot), full_page=True)
        if os.environ.get("RECORD_SAVE_SCREENSHOT"):
            shutil.copy(shot, REPO / "docs" / "model_in_the_loop_page.png")
        with page.expect_navigation():
            page.click("#judgeButton")
        page.wait_for_url("**/hit/*")
        assert page.inner_text("#confirmation").startswith("Saved: your answers")
        with sqlite3.connect(db) as con:
            assert con.execute("SELECT worker_id, query_id, model_answer, needs_more FROM "
                               "judgements").fetchall() == [("annotator-1", qid, said, 1)]
    finally:
        server.stop()
