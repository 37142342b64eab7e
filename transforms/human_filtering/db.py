"""The annotation database (SQLite): the HITs, the workers and their tokens, which HIT was
served to whom (`served`, the queue the server enforces), the Prolific participants a
requester imported (`participants`), the server's address (`meta`), every answer, and the
model-in-the-loop judgements (`judgements`, model_loop.py). One file per export; WAL mode
so pages are read while answers are written.
"""
import contextlib
import sqlite3

SCHEMA = """
CREATE TABLE IF NOT EXISTS hits (
  query_id TEXT PRIMARY KEY, hit_ref TEXT NOT NULL, position INTEGER NOT NULL,
  passage_id TEXT, reference_answers TEXT NOT NULL, gold INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS annotations (
  id INTEGER PRIMARY KEY AUTOINCREMENT, assignment_id TEXT NOT NULL, hit_ref TEXT NOT NULL,
  worker_id TEXT NOT NULL, query_id TEXT NOT NULL, answer TEXT NOT NULL,
  answer_start INTEGER, answer_end INTEGER, ambiguous INTEGER NOT NULL DEFAULT 0,
  feedback TEXT NOT NULL DEFAULT '', time_spent_ms INTEGER, submitted_at TEXT NOT NULL,
  UNIQUE (worker_id, query_id));
CREATE INDEX IF NOT EXISTS annotations_hit ON annotations(hit_ref, worker_id);
CREATE TABLE IF NOT EXISTS workers (
  worker_id TEXT PRIMARY KEY, role TEXT NOT NULL, token_sha256 TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL, revoked_at TEXT, study TEXT, session_id TEXT);
CREATE TABLE IF NOT EXISTS served (
  worker_id TEXT NOT NULL, hit_ref TEXT NOT NULL, served_at REAL NOT NULL,
  expires_at REAL NOT NULL, PRIMARY KEY (worker_id, hit_ref));
CREATE INDEX IF NOT EXISTS served_hit ON served(hit_ref, expires_at);
CREATE TABLE IF NOT EXISTS participants (
  study TEXT NOT NULL, pid TEXT NOT NULL, status TEXT, imported_at TEXT NOT NULL,
  PRIMARY KEY (study, pid));
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS judgements (
  worker_id TEXT NOT NULL, query_id TEXT NOT NULL, hit_ref TEXT NOT NULL, model_answer TEXT,
  needs_more INTEGER NOT NULL, submitted_at TEXT NOT NULL, PRIMARY KEY (worker_id, query_id));
"""


def connect(path: str) -> sqlite3.Connection:
    con = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
    con.execute("PRAGMA busy_timeout = 30000")
    return con


def create(path: str) -> None:
    """Create the tables (idempotent); a file that is not SQLite is one clear error."""
    con = connect(path)
    try:
        con.execute("PRAGMA journal_mode = WAL")
        con.executescript(SCHEMA)
        if not _unique_answers(con) or "gold" not in columns(con, "hits"):
            raise sqlite3.DatabaseError(
                "%s was made by an older `serve` (no unique (worker, query) constraint): "
                "ingest it as it is, and serve with a new --db" % path)
    finally:
        con.close()


def columns(con, table: str) -> set:
    return {r[1] for r in con.execute("PRAGMA table_info(%s)" % table)}


def _unique_answers(con) -> bool:
    """The annotations table has UNIQUE (worker_id, query_id)."""
    for _, name, unique, *_ in con.execute("PRAGMA index_list(annotations)"):
        cols = [r[2] for r in con.execute("PRAGMA index_info(%s)" % _quoted(name))]
        if unique and cols == ["worker_id", "query_id"]:
            return True
    return False


def _quoted(name: str) -> str:
    return '"%s"' % name.replace('"', '""')


@contextlib.contextmanager
def reading(path: str):
    con = connect(path)
    try:
        yield con
    finally:
        con.close()


@contextlib.contextmanager
def writing(path: str):
    """One write transaction, taken at once (BEGIN IMMEDIATE): concurrent writers queue on
    SQLite's lock, so a check and the insert after it are atomic."""
    con = connect(path)
    try:
        con.execute("BEGIN IMMEDIATE")
        try:
            yield con
        except BaseException:
            con.execute("ROLLBACK")
            raise
        con.execute("COMMIT")
    finally:
        con.close()


def get_meta(path: str, key: str):
    """A value the server recorded (e.g. `base_url`), or None."""
    create(path)
    with reading(path) as con:
        row = con.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def set_meta(path: str, key: str, value: str) -> None:
    with writing(path) as con:
        con.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))
