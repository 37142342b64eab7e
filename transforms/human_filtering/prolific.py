"""Prolific: the study URL carries PROLIFIC_PID, STUDY_ID and SESSION_ID, and a finished
participant is sent to the study's completion link (its code is a flag of `export`).

Anyone can type made-up ids into a study link, so a participant counts only once known:
`participants import` loads Prolific's own export of the study (its "Participant id"
column) into the database. Once a study has an imported list, the server refuses ids not
on it; ingest merges every participant not on it into one worker, `STUDY:unverified`, so
made-up ids can never agree with each other (docs/human_validation.md, threat model).
"""
import csv
import datetime
import io
import re
import urllib.parse

import fsspec

from transforms.human_filtering import db as D
from transforms.human_filtering.fields import UserError, shown

UNVERIFIED = "unverified"
PID_COLUMNS = ("participant id", "participant_id", "prolific_pid", "participant")
_PID = re.compile(r"[A-Za-z0-9]{1,64}")

COMPLETION_URL = "https://app.prolific.com/submissions/complete?cc=%s"
_CODE = re.compile(r"[A-Za-z0-9_-]{1,64}")


def check_code(code: str | None) -> str | None:
    """A completion code as Prolific shows it (letters and digits), or None."""
    if code is None:
        return None
    if not _CODE.fullmatch(code):
        raise UserError("--prolific_completion_code must be letters, digits, '_' or '-' "
                        "(the code Prolific shows for the study), got %r" % code[:80])
    return code


def completion_url(code: str) -> str:
    return COMPLETION_URL % urllib.parse.quote(code, safe="")


def read_export(path: str) -> list:
    """[(PROLIFIC_PID, status)] of a Prolific submissions export (CSV)."""
    try:
        with fsspec.open(path, "rb") as f:
            text = f.read(20 * 1024 * 1024 + 1).decode("utf-8-sig")
    except FileNotFoundError:
        raise UserError("no Prolific export at %s" % path) from None
    except UnicodeDecodeError:
        raise UserError("%s is not UTF-8: export it again from Prolific as CSV" % path) from None
    if len(text) > 20 * 1024 * 1024:
        raise UserError("%s is over 20 MB: not a Prolific export" % path)
    reader = csv.DictReader(io.StringIO(text))
    names = {(n or "").strip().lower(): n for n in reader.fieldnames or ()}
    column = next((names[c] for c in PID_COLUMNS if c in names), None)
    if column is None:
        raise UserError("%s has no participant id column (looked for %s; it has %s)"
                        % (path, ", ".join(PID_COLUMNS), ", ".join(sorted(names)) or "none"))
    status = names.get("status")
    out = {}
    for n, row in enumerate(reader, start=2):
        pid = (row.get(column) or "").strip()
        if not _PID.fullmatch(pid):
            raise UserError("%s line %d: participant id %s is not a Prolific id"
                            % (path, n, shown(pid)))
        out[pid] = (row.get(status) or "").strip() if status else ""
    return sorted(out.items())


def import_participants(db: str, study: str, path: str) -> int:
    """Load a study's participants from Prolific's export; returns how many are known now."""
    rows = read_export(path)
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    D.create(db)
    with D.writing(db) as con:
        role = con.execute("SELECT role FROM workers WHERE worker_id = ?", (study,)).fetchone()
        if role is None or role[0] != "study":
            raise UserError("%s is not a study link of %s (workers add NAME --role study)"
                            % (study, db))
        con.executemany("INSERT OR REPLACE INTO participants (study, pid, status, imported_at)"
                        " VALUES (?,?,?,?)", [(study, pid, st, now) for pid, st in rows])
        return con.execute("SELECT COUNT(*) FROM participants WHERE study = ?",
                           (study,)).fetchone()[0]


def known(con, study: str, pid: str):
    """True / False when the study has an imported list; None when it has none yet."""
    if con.execute("SELECT 1 FROM participants WHERE study = ? LIMIT 1", (study,)).fetchone() \
            is None:
        return None
    return con.execute("SELECT 1 FROM participants WHERE study = ? AND pid = ?",
                       (study, pid)).fetchone() is not None


def counted_worker(con, worker_id: str, study) -> str:
    """The worker an answer counts for: a study participant not on the study's imported
    list is `STUDY:unverified`."""
    if not study or not worker_id.startswith(study + ":"):
        return worker_id
    pid = worker_id[len(study) + 1:]
    return worker_id if known(con, study, pid) else "%s:%s" % (study, UNVERIFIED)
