"""Worker access: a personal secret token per worker.

The database keeps only the SHA-256 of each token, so a copy of it lets nobody in; a
token is shown once, in the link `workers add` prints. The lookup is keyed by that hash
(which a client cannot steer) and the final comparison is constant-time
(`hmac.compare_digest`). Roles: `worker` (answers HITs), `admin` (the requester's views),
`study` (a Prolific study link: each participant who opens it becomes a worker
`STUDY:PROLIFIC_PID`, bound to the first Prolific session seen for that id).
"""
import datetime
import hashlib
import hmac
import secrets
import urllib.parse
from typing import NamedTuple

from transforms.human_filtering import db as D
from transforms.human_filtering.fields import UserError, check_name

ROLES = ("worker", "admin", "study")
TOKEN_MAX = 100
PROLIFIC_PARAMS = ("PROLIFIC_PID", "STUDY_ID", "SESSION_ID")


class Worker(NamedTuple):
    worker_id: str
    role: str
    study: str | None = None
    session_id: str | None = None


class Forbidden(Exception):
    """A valid token that may not do this (the server answers 403)."""


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def link(base_url: str, role: str, token: str) -> str:
    """The personal link of a new worker (admin: the progress view; study: the URL to paste
    into Prolific, with its placeholders)."""
    base = base_url.rstrip("/")
    if role == "admin":
        return "%s/admin/progress?token=%s" % (base, token)
    if role == "study":
        extra = "".join("&%s={{%%%s%%}}" % (p, p) for p in PROLIFIC_PARAMS)
        return "%s/next?token=%s%s" % (base, token, extra)
    return "%s/next?%s" % (base, urllib.parse.urlencode({"token": token}))


def add(db: str, names, role: str = "worker") -> list:
    """Create workers with fresh tokens: [(name, token)]. Names must be new."""
    if role not in ROLES:
        raise UserError("role must be one of %s" % ", ".join(ROLES))
    names = [check_name(n) for n in names]
    if len(set(names)) != len(names):
        raise UserError("a worker name is given twice")
    D.create(db)
    out = []
    with D.writing(db) as con:
        for name in names:
            if con.execute("SELECT 1 FROM workers WHERE worker_id = ?", (name,)).fetchone():
                raise UserError("worker %s already exists (workers list shows them)" % name)
            token = new_token()
            con.execute("INSERT INTO workers (worker_id, role, token_sha256, created_at)"
                        " VALUES (?,?,?,?)", (name, role, token_digest(token), _now()))
            out.append((name, token))
    return out


def listing(db: str) -> list:
    """Every worker (never a token): dicts with worker_id, role, created_at, revoked_at,
    answers."""
    D.create(db)
    with D.reading(db) as con:
        rows = con.execute(
            "SELECT w.worker_id, w.role, w.created_at, w.revoked_at,"
            " (SELECT COUNT(*) FROM annotations a WHERE a.worker_id = w.worker_id)"
            " FROM workers w ORDER BY w.worker_id").fetchall()
    keys = ("worker_id", "role", "created_at", "revoked_at", "answers")
    return [dict(zip(keys, r)) for r in rows]


def revoke(db: str, names) -> list:
    """Revoke workers' tokens (their answers stay); unknown names are an error."""
    D.create(db)
    with D.writing(db) as con:
        for name in names:
            if not con.execute("SELECT 1 FROM workers WHERE worker_id = ?", (name,)).fetchone():
                raise UserError("no worker named %s" % name)
            con.execute("UPDATE workers SET revoked_at = COALESCE(revoked_at, ?)"
                        " WHERE worker_id = ?", (_now(), name))
    return list(names)


def authenticate(con, token: str) -> Worker | None:
    """The worker a token belongs to, or None (unknown, revoked, or its study revoked)."""
    if not token or len(token) > TOKEN_MAX:
        return None
    digest = token_digest(token)
    row = con.execute("SELECT worker_id, role, token_sha256, revoked_at, study, session_id"
                      " FROM workers WHERE token_sha256 = ?", (digest,)).fetchone()
    if row is None or not hmac.compare_digest(row[2], digest) or row[3] is not None:
        return None
    if row[4] is not None:
        parent = con.execute("SELECT revoked_at FROM workers WHERE worker_id = ?",
                             (row[4],)).fetchone()
        if parent is None or parent[0] is not None:
            return None
    return Worker(row[0], row[1], row[4], row[5])


def join_study(db: str, study: Worker, pid: str, session_id: str) -> tuple:
    """(participant Worker, fresh token) for a Prolific participant arriving through a
    study link. The first session seen for a PROLIFIC_PID owns it: another session id
    for the same PROLIFIC_PID is Forbidden (someone else typing that id into the link), and
    so is an id not on the study's imported participant list, once it has one."""
    from transforms.human_filtering.prolific import UNVERIFIED, known
    worker_id = "%s:%s" % (study.worker_id, pid)
    token = new_token()
    if pid == UNVERIFIED:
        raise Forbidden("PROLIFIC_PID %s is reserved" % pid)
    with D.writing(db) as con:
        if known(con, study.worker_id, pid) is False:
            raise Forbidden("PROLIFIC_PID %s is not a participant of this study" % pid)
        row = con.execute("SELECT session_id, revoked_at FROM workers WHERE worker_id = ?",
                          (worker_id,)).fetchone()
        if row is not None and (row[0] != session_id or row[1] is not None):
            raise Forbidden("this PROLIFIC_PID is already taken by another Prolific session")
        if row is None:
            con.execute("INSERT INTO workers (worker_id, role, token_sha256, created_at,"
                        " study, session_id) VALUES (?,?,?,?,?,?)",
                        (worker_id, "worker", token_digest(token), _now(), study.worker_id,
                         session_id))
        else:   # the same participant and session again: a new link replaces the old
            con.execute("UPDATE workers SET token_sha256 = ? WHERE worker_id = ?",
                        (token_digest(token), worker_id))
    return Worker(worker_id, "worker", study.worker_id, session_id), token
