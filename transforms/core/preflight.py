"""Checks made before any pipeline starts, in a second or two, each failing with one line.

- an output folder is writable (local: a probe file; `gs://`: credentials and the bucket);
- `gs://` paths: Google Cloud credentials exist and the storage service answers within
  `TIMEOUT_S` (a network that is down is reported as such, not after a minute of retries);
  a chained fsspec URL (`simplecache::gs://...`, `zip://a.csv::gs://...`) is checked link
  by link, so its `gs://` part gets the same check;
- every protocol of a URL is one fsspec knows and can load (`GS://`, or `s3://` without
  s3fs installed: one line, not a traceback).
"""
import os
import posixpath
import tempfile
import uuid

TIMEOUT_S = 10
NO_CREDENTIALS = ("no Google Cloud credentials: run `gcloud auth application-default login` "
                  "or set GOOGLE_APPLICATION_CREDENTIALS")


class InputError(Exception):
    """Bad input or flags a user can fix: reported as one line, without a traceback."""


def protocol(url: str) -> str:
    return url.split("://", 1)[0] if "://" in url else "file"


def chain(url: str) -> list:
    """[(protocol, link)] of a fsspec URL, outermost first: `simplecache::gs://b/x` is
    [("simplecache", "simplecache"), ("gs", "gs://b/x")]; a plain path is one "file" link."""
    links = url.split("::")
    return [(protocol(link) if "://" in link or i == len(links) - 1 else link, link)
            for i, link in enumerate(links)]


def check_protocol(url: str, proto: str) -> None:
    """InputError (one line) unless fsspec knows `proto` and its package is installed."""
    import importlib.util

    from fsspec.registry import known_implementations, registry
    if proto in ("file", "local") or proto in registry:
        return
    impl = known_implementations.get(proto)
    if impl is None:
        hint = f" (protocols are lower case: {proto.lower()}://)" if \
            proto.lower() != proto and proto.lower() in known_implementations else \
            " (e.g. gs://, http://, simplecache::gs://; see fsspec's protocols)"
        raise InputError(f"{url}: unknown protocol {proto!r}{hint}")
    package = impl["class"].split(".", 1)[0]
    if importlib.util.find_spec(package) is None:   # found without importing it
        raise InputError(f"{url}: {proto}:// needs a package that is not installed: "
                         f"{impl.get('err') or 'pip install ' + package}")


def bucket_of(url: str) -> str:
    return url.split("://", 1)[1].split("/", 1)[0]


def check_gcs(url: str, timeout: float = TIMEOUT_S) -> None:
    """`_check_gcs` with a hard deadline: a network that drops packets gets one line after
    `timeout` seconds, not a minute of retries."""
    import threading
    outcome = {}

    def attempt():
        try:
            _check_gcs(url, timeout * 0.8)
        except BaseException as err:  # noqa: BLE001 - handed to the caller below
            outcome["error"] = err
        outcome.setdefault("done", True)

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise InputError(f"the Google Cloud Storage service did not answer within {timeout:.0f} s "
                         f"for {url}: the network looks down or blocked")
    if "error" in outcome:
        raise outcome["error"]


def _check_gcs(url: str, timeout: float) -> None:
    """Credentials, then one metadata request to the bucket, or InputError saying which."""
    try:
        import google.auth
        from google.auth.exceptions import DefaultCredentialsError
    except ImportError:  # pragma: no cover - apache-beam[gcp] brings google-auth
        raise InputError(f"{url}: gs:// needs the google-auth package (pip install gcsfs)")
    import logging
    logging.getLogger("google.auth").setLevel(logging.ERROR)
    try:
        credentials, _ = google.auth.default(
            scopes=["https://www.googleapis.com/auth/devstorage.read_write"])
    except DefaultCredentialsError:
        raise InputError(NO_CREDENTIALS) from None
    import logging

    import requests
    from google.auth.exceptions import TransportError
    from google.auth.transport.requests import AuthorizedSession
    session = AuthorizedSession(credentials, refresh_timeout=timeout / 2)
    bucket = bucket_of(url)
    quiet = logging.getLogger("urllib3")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        response = session.get(f"https://storage.googleapis.com/storage/v1/b/{bucket}",
                               timeout=(timeout / 2, timeout / 2))
    except (requests.exceptions.RequestException, TransportError) as err:
        cause = "cannot resolve its address" if "resolve" in str(err).lower() else type(err).__name__
        raise InputError(f"the network cannot reach the Google Cloud Storage service for {url} "
                         f"({cause}): check the connection or proxy") from None
    except Exception as err:  # noqa: BLE001 - refreshing bad credentials, and the like
        raise InputError(f"{url}: Google Cloud credentials do not work: "
                         f"{type(err).__name__}: {str(err)[:200]}") from None
    finally:
        quiet.setLevel(level)
    if response.status_code == 404:
        raise InputError(f"{url}: bucket {bucket!r} does not exist")
    if response.status_code in (401, 403):
        raise InputError(f"{url}: these credentials may not use bucket {bucket!r} "
                         f"(HTTP {response.status_code})")
    if response.status_code >= 400:
        raise InputError(f"{url}: the storage service answered HTTP {response.status_code}")


def check_protocols(url: str) -> None:
    """`check_protocol` for every link of `url` that names one (`proto://`): what every
    command runs on its path arguments before it reads anything."""
    for link in url.split("::"):
        if "://" in link:
            check_protocol(url, protocol(link))


_checked = set()


def check_remote(url: str) -> None:
    """The checks a URL needs, link by link of a chained one: a known protocol, and for
    `gs://` credentials and the bucket (once per bucket per process)."""
    for proto, link in chain(url):
        check_protocol(url, proto)
        if proto in ("gs", "gcs"):
            key = (proto, bucket_of(link))
            if key not in _checked:
                check_gcs(link)
                _checked.add(key)


def check_writable(url: str) -> None:
    """The output folder can be created and written, or InputError saying why."""
    check_remote(url)
    if protocol(url) != "file":
        return
    path = url[len("file://"):] if url.startswith("file://") else url
    parent = path
    while parent and not os.path.exists(parent):
        parent = os.path.dirname(parent.rstrip("/"))
    parent = parent or "."
    if not os.path.isdir(parent):
        raise InputError(f"output {url}: {parent} is a file, not a folder")
    if not os.access(parent, os.W_OK):
        raise InputError(f"output {url}: {parent} is not writable")
    if os.path.isdir(path):
        probe = posixpath.join(path, f".write-probe-{uuid.uuid4().hex}")
        try:
            with open(probe, "w") as f:
                f.write("ok")
            os.remove(probe)
        except OSError as err:
            raise InputError(f"output {url} is not writable: {err.strerror}") from None
    else:   # the folder will be made under `parent`: try it with a throw-away one
        try:
            os.rmdir(tempfile.mkdtemp(prefix=".write-probe-", dir=parent))
        except OSError as err:
            raise InputError(f"output {url}: cannot create a folder in {parent}: "
                             f"{err.strerror}") from None
