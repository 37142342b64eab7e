"""The annotation server's HTTP app (Starlette): HIT pages and submissions for workers with
a personal token, progress and results for the requester's admin token.

    GET  /next?token=T            the worker's next HIT (303, reserved for them), or the end page
    GET  /hit/<hit_ref>?token=T   a HIT page (the MTurk template, filled in)
    POST /hit/submit              a page's answers: form fields + token; only for a HIT
                                  served to that worker and still open for them (else 403/409)
    GET  /hit/<hit_ref>/model     with --show_model_answer, after the answers are stored:
                                  the adversary's answer and a second judgement (model_loop)
    POST /hit/judge               that judgement, stored once
    GET  /admin/progress          JSON; admin token (Authorization: Bearer, or ?token=)
    GET  /admin/results.csv       every answer, spreadsheet-safe

Bodies over `max_body` get 413 unread; anything malformed gets 400 and a log line. Logs
never carry a query string or a token. SQLite work runs on a bounded thread pool.
"""
import dataclasses
import html
import json
import logging
import sqlite3
import urllib.parse

import anyio
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect
from starlette.responses import (
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Route

from transforms.core.config import setting
from transforms.human_filtering import db as D
from transforms.human_filtering import forms, model_loop, prolific, tokens
from transforms.human_filtering import hits as H
from transforms.human_filtering.csv_safe import csv_text
from transforms.human_filtering.fields import FieldError, check_id, shown
from transforms.human_filtering.store import (
    QueuePolicy,
    QueueRefused,
    Store,
    hits_from_rows,
)

LOG = logging.getLogger(__name__)
_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
            (b"cache-control", b"no-store"), (b"x-frame-options", b"DENY"),
            (b"content-security-policy",
             b"default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
             b"img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")]
_PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">%s<title>%s</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 2em auto">%s</body></html>"""


@dataclasses.dataclass(frozen=True)
class ServeConfig:
    assignments: int = setting(1, "workers per HIT (1 for train, 2 for dev/test candidates)")
    per_worker: int = setting(0, "HITs each worker gets at most (0: no limit; a Prolific "
                                 "study's size)", flag="hits_per_worker")
    max_body: int = setting(64 * 1024, "bytes a submission may have; larger ones get 413")
    threads: int = setting(8, "threads for SQLite work (a bounded pool)")
    hit_minutes: float = setting(60.0, "minutes a served HIT stays reserved for its worker "
                                       "(then another worker may get it)")
    gold_share: float = setting(0.0, "share of gold HITs in each queue", cli=False)
    completion_code: str | None = setting(None, "Prolific completion code", cli=False)
    show_model_answer: bool = setting(False, "model in the loop: once a worker's answers to "
                                             "a HIT are stored, show the adversary's answer "
                                             "and ask whether the query needs more than the "
                                             "model used (a share of HITs)")
    model_answer_share: float = setting(0.5, "share of HITs that show the model's answer "
                                             "with --show_model_answer")


class Refused(Exception):
    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status, self.reason = status, reason


def _page(title: str, body: str, refresh: str | None = None) -> str:
    meta = '<meta http-equiv="refresh" content="0;url=%s">' % html.escape(refresh) \
        if refresh else ""
    return _PAGE % (meta, html.escape(title), body)


def _refuse(request, status: int, reason: str) -> Response:
    LOG.warning("%d %s %s: %s", status, request.method, request.url.path, reason)
    headers = {"connection": "close"} if request.method == "POST" else {}
    if status == 401:
        headers["www-authenticate"] = "Bearer"
    return PlainTextResponse(reason + "\n", status_code=status, headers=headers)


def _prolific(params) -> dict:
    """The Prolific URL parameters present (checked), to carry from page to page."""
    got = {k: params.get(k, "") for k in tokens.PROLIFIC_PARAMS if params.get(k)}
    for key, value in got.items():
        check_id(value, key)
    return got


def _check_binding(worker, got: dict) -> None:
    if worker.study and got and (got.get("PROLIFIC_PID") != worker.worker_id.split(":", 1)[1]
                                 or got.get("SESSION_ID") != worker.session_id):
        raise Refused(403, "PROLIFIC_PID / SESSION_ID do not match this link")


class App:
    def __init__(self, hit_rows, manifest: dict, template: str, db: str, cfg: ServeConfig,
                 model_answers: dict | None = None):
        self.per_hit, self.template, self.db, self.cfg = manifest["per_hit"], template, db, cfg
        self.model_answers = model_answers or {}
        self.rows = {r["hit_ref"]: r for r in hit_rows}
        self.store = Store(db, hits_from_rows(hit_rows, self.per_hit), QueuePolicy(
            cfg.assignments, cfg.per_worker, cfg.gold_share, cfg.hit_minutes * 60))
        self._limiter = None
        self.asgi = _Guard(Starlette(routes=[
            Route("/", self.landing), Route("/next", self.next_hit),
            Route("/hit/submit", self.submit, methods=["POST"]),
            Route("/hit/judge", self.judge, methods=["POST"]),
            Route("/hit/{ref}/model", self.model_page),
            Route("/hit/{ref}", self.hit_page),
            Route("/admin/progress", self.progress), Route("/admin/results.csv", self.results),
        ]))

    async def _run(self, fn, *args):
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.cfg.threads)
        return await anyio.to_thread.run_sync(fn, *args, limiter=self._limiter)

    def _auth(self, token: str, roles=("worker",)):
        if not token:
            raise Refused(401, "a token is needed: open your personal link")
        with D.reading(self.db) as con:
            worker = tokens.authenticate(con, token)
        if worker is None:
            raise Refused(403, "unknown or revoked token")
        if worker.role not in roles:
            raise Refused(403, "this token's role (%s) may not do this" % worker.role)
        return worker

    async def _handle(self, request, work):
        try:
            return await work()
        except Refused as err:
            return _refuse(request, err.status, err.reason)
        except FieldError as err:
            return _refuse(request, 400, str(err))
        except tokens.Forbidden as err:
            return _refuse(request, 403, str(err))
        except QueueRefused as err:
            return _refuse(request, err.status, err.reason)
        except ClientDisconnect:
            return _refuse(request, 400, "the client went away before its body was sent")
        except sqlite3.OperationalError as err:   # e.g. locked for 30 s under a flood
            return _refuse(request, 503, "the database is busy (%s): try again" % err)

    async def landing(self, request):
        return HTMLResponse(_page("Annotation", "<h1>ReCoRD human validation</h1><p>Open the "
                                  "personal link your requester sent you.</p>"))

    async def next_hit(self, request):
        async def work():
            q = request.query_params
            token, got = q.get("token", ""), _prolific(q)
            worker = await self._run(self._auth, token, ("worker", "study"))
            if worker.role == "study":
                if len(got) != len(tokens.PROLIFIC_PARAMS):
                    raise Refused(400, "a Prolific study link needs PROLIFIC_PID, STUDY_ID "
                                  "and SESSION_ID")
                worker, token = await self._run(tokens.join_study, self.db, worker,
                                                 got["PROLIFIC_PID"], got["SESSION_ID"])
            _check_binding(worker, got)
            nxt = await self._run(self.store.next_hit, worker.worker_id)
            saved = {"saved": "1"} if q.get("saved") == "1" else {}
            if nxt is None:
                return self._done(worker, bool(saved))
            ref, n, of = nxt
            query = urllib.parse.urlencode({"token": token, "n": n, "of": of, **saved, **got})
            return RedirectResponse("/hit/%s?%s" % (ref, query), status_code=303)
        return await self._handle(request, work)

    def _done(self, worker, saved: bool) -> HTMLResponse:
        note = "<p id=\"confirmation\">Saved: your last answers were stored.</p>" if saved else ""
        code = self.cfg.completion_code
        if worker.study and code:
            url = prolific.completion_url(code)
            return HTMLResponse(_page("Done", '%s<h1>All done, thank you</h1><p id="done">'
                                      'Back to Prolific: <a id="completion" href="%s">%s</a>'
                                      '</p>' % (note, html.escape(url), html.escape(url)),
                                      refresh=url))
        return HTMLResponse(_page("Done", '%s<h1>No tasks left</h1><p id="done">Thank you: '
                                  'there is nothing more for you to answer.</p>' % note))

    async def hit_page(self, request):
        async def work():
            await self._run(self._auth, request.query_params.get("token", ""),
                            ("worker", "admin"))
            row = self.rows.get(request.path_params["ref"])
            if row is None:
                raise Refused(404, "no such HIT")
            return HTMLResponse(H.substitute(self.template, row))
        return await self._handle(request, work)

    async def _body(self, request) -> bytes:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/x-www-form-urlencoded":
            raise FieldError("expected a form (application/x-www-form-urlencoded), got %s"
                             % (kind or "no content type")[:80])
        length = request.headers.get("content-length")
        if length is not None and not length.isdigit():
            raise FieldError("Content-Length %s is not a number" % shown(length))
        if length is not None and int(length) > self.cfg.max_body:
            raise Refused(413, "the body is %s bytes, at most %d are accepted"
                          % (length, self.cfg.max_body))
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > self.cfg.max_body:
                raise Refused(413, "the body is over %d bytes" % self.cfg.max_body)
        return bytes(body)

    async def submit(self, request):
        async def work():
            form = forms.parse_form(await self._body(request), self.per_hit)
            token = forms.token_of(form)
            worker = await self._run(self._auth, token)
            hit = self.store.hits.get(form.get("hit_ref", ""))
            if hit is None:
                raise FieldError("unknown hit_ref %s" % shown(form.get("hit_ref", "")))
            answers, spent = forms.answers(form, hit, self.per_hit), forms.time_spent(form)
            got = _prolific(form)
            _check_binding(worker, got)
            written = await self._run(self.store.save, worker.worker_id, hit, answers, spent,
                                      form.get("assignmentId", ""))
            if not written:
                raise Refused(409, "%s has already answered %s" % (worker.worker_id, hit.ref))
            LOG.info("stored %d answer(s) to %s from %s", written, hit.ref, worker.worker_id)
            if self._shows_model(hit):
                return RedirectResponse(model_loop.model_url(hit.ref, {"token": token, **got}),
                                        status_code=303)
            query = urllib.parse.urlencode({"token": token, "saved": "1", **got})
            return RedirectResponse("/next?" + query, status_code=303)
        return await self._handle(request, work)

    def _shows_model(self, hit) -> bool:
        return self.cfg.show_model_answer and model_loop.chosen(
            hit, self.cfg.model_answer_share, self.model_answers)

    def _model_hit(self, ref: str):
        hit = self.store.hits.get(ref)
        if hit is None or not self._shows_model(hit):
            raise Refused(404, "no model answer to show for this HIT")
        return hit

    async def model_page(self, request):
        """The adversary's answer, only once this worker's own answers are stored."""
        async def work():
            q = request.query_params
            token, got = q.get("token", ""), _prolific(q)
            worker = await self._run(self._auth, token)
            _check_binding(worker, got)
            hit = self._model_hit(request.path_params["ref"])
            mine = await self._run(model_loop.stored_answers, self.db, worker.worker_id, hit)
            if set(mine) != {t.query_id for t in hit.tasks}:
                raise Refused(403, "answer %s first: the model's answer is shown only after "
                                   "yours is stored" % hit.ref)
            if await self._run(model_loop.judged, self.db, worker.worker_id, hit):
                raise Refused(409, "%s has already judged %s" % (worker.worker_id, hit.ref))
            return HTMLResponse(model_loop.page(hit, self.rows[hit.ref], self.per_hit, mine,
                                                self.model_answers, {"token": token, **got}))
        return await self._handle(request, work)

    async def judge(self, request):
        async def work():
            form = forms.parse_form(await self._body(request), self.per_hit,
                                    model_loop.form_fields(self.per_hit))
            token = forms.token_of(form)
            worker = await self._run(self._auth, token)
            got = _prolific(form)
            _check_binding(worker, got)
            hit = self._model_hit(form.get("hit_ref", ""))
            said = model_loop.judgements(form, hit, self.per_hit)
            written = await self._run(model_loop.save, self.db, worker.worker_id, hit, said,
                                      self.model_answers)
            if not written:
                raise Refused(409, "%s has already judged %s" % (worker.worker_id, hit.ref))
            LOG.info("stored %d judgement(s) of %s from %s", written, hit.ref, worker.worker_id)
            query = urllib.parse.urlencode({"token": token, "saved": "1", **got})
            return RedirectResponse("/next?" + query, status_code=303)
        return await self._handle(request, work)

    def _admin_token(self, request) -> str:
        auth = request.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            return auth[7:].strip()
        return request.query_params.get("token", "")

    async def progress(self, request):
        async def work():
            await self._run(self._auth, self._admin_token(request), ("admin",))
            data = await self._run(self.store.progress)
            return Response(json.dumps(data, indent=1) + "\n", media_type="application/json")
        return await self._handle(request, work)

    async def results(self, request):
        async def work():
            await self._run(self._auth, self._admin_token(request), ("admin",))
            rows = await self._run(self.store.results)
            columns = ["worker_id", "hit_ref", "query_id", "answer", "answer_start",
                       "answer_end", "ambiguous", "feedback", "time_spent_ms", "submitted_at",
                       "gold", "correct"]
            return Response(csv_text(rows, columns), media_type="text/csv",
                            headers={"content-disposition": 'attachment; filename="results.csv"'})
        return await self._handle(request, work)


class _Guard:
    """ASGI wrapper: security headers on every response, one log line per request (method,
    path, status; never the query string, where tokens travel)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        status = []

        async def send_(message):
            if message["type"] == "http.response.start":
                status.append(message["status"])
                message = {**message, "headers": list(message.get("headers", [])) + _HEADERS}
            await send(message)

        await self.app(scope, receive, send_)
        LOG.info("%s %s %s", scope["method"], scope["path"], status[0] if status else "-")
