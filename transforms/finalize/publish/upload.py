"""Preparing a released dataset folder for the Hugging Face hub, and uploading it.

`prepare` checks, before anything leaves the machine: `validate` passes (every contract
invariant and every file's sha256 against `_MANIFEST.json`); the card opens with a YAML
block that parses and holds the hub's fields, its `configs` name the splits `train`,
`validation`, `test` and each pattern matches shards; its `license` is not `unknown`
(unless `allow_unknown_license`: the corpus's terms decide the license, so an unknown one
is published only on purpose); no internal file (`_build/`, `.staging/`, `_scratch/`,
`*.tmp`, dot files) is in the folder. It returns what goes up.
`upload` sends exactly those files with `huggingface_hub.HfApi.upload_folder`, through
`hub_upload`, the one function that touches the network (a probe first, then the
upload); `upload_bounded` gives its
requests a timeout (`--timeout`) and turns any failure (no answer, a closed port, a
refused token or repo id) into one line.
"""
import fnmatch
import logging
import os
import posixpath

from transforms.core.preflight import InputError

log = logging.getLogger("publish")
CARD_FIELDS = ("license", "pretty_name", "language", "task_categories", "task_ids",
               "size_categories", "source_datasets", "configs")
HUB_SPLITS = ("train", "validation", "test")
ALLOWED_UNDERSCORE = ("_MANIFEST.json",)


def internal(name: str) -> bool:
    """An internal file of a run that must not be published (relative path)."""
    parts = name.split("/")
    if any(p.startswith(".") for p in parts) or name.endswith((".tmp", ".lock")):
        return True
    return any(p.startswith("_") and p not in ALLOWED_UNDERSCORE for p in parts)


def listing(folder: str) -> list:
    """Every file under `folder`, as sorted relative paths."""
    out = []
    for root, dirs, files in os.walk(folder):
        for f in files:
            out.append(os.path.relpath(os.path.join(root, f), folder).replace(os.sep, "/"))
    return sorted(out)


def card_problems(meta: dict, files: list) -> list:
    """What keeps the card's metadata from serving the hub (empty: nothing)."""
    out = [f"the card's YAML lacks {f}" for f in CARD_FIELDS if not meta.get(f)]
    configs = meta.get("configs") or []
    if not configs:
        return out
    data_files = configs[0].get("data_files") or []
    splits = [d.get("split") for d in data_files]
    if sorted(splits) != sorted(HUB_SPLITS):
        out.append(f"the card's configs name splits {splits}, the hub expects "
                   f"{list(HUB_SPLITS)}")
    for d in data_files:
        if not fnmatch.filter(files, d.get("path") or ""):
            out.append(f"the card's configs path {d.get('path')!r} matches no file")
    return out


UNKNOWN_LICENSE = "unknown"


def license_problem(meta: dict, allow_unknown: bool):
    """Why the card's license keeps the release from the hub (None: it does not)."""
    if str(meta.get("license", "")).strip().lower() == UNKNOWN_LICENSE and not allow_unknown:
        return ("the card's license is 'unknown': rerun finalize with --license ID (a Hugging "
                "Face license id such as cc-by-4.0; the corpus's terms decide it), or pass "
                "--allow_unknown_license to publish it as unknown")
    return None


def prepare(dataset: str, max_violations: int = 5, allow_unknown_license: bool = False) -> dict:
    """{"files": what goes up, "bytes": their size, "card": the YAML} after every check;
    raises InputError with one line naming the first problem."""
    from transforms.finalize.exports import hub
    from transforms.finalize.exports.fingerprint import on_card
    from transforms.finalize.publish.validation import first_violations
    if not os.path.isdir(dataset):
        raise InputError(f"{dataset}: not a folder (pass the released DIR/dataset)")
    files = listing(dataset)
    if "README.md" not in files and any(f.startswith("dataset/") for f in files):
        raise InputError(f"{dataset} looks like a run folder: pass {dataset}/dataset")
    inside = [f for f in files if internal(f)]
    if inside:
        raise InputError(f"{dataset} holds {len(inside)} internal file(s) that must not be "
                         f"published, e.g. {inside[0]} (publish the released dataset folder)")
    violations = first_violations(dataset, max(1, max_violations))
    if violations:
        raise InputError(f"{dataset} does not validate ({len(violations)} violation(s) "
                         f"shown by `python -m beam_pipelines.validate {dataset}`), first: "
                         f"{violations[0]}")
    with open(os.path.join(dataset, "README.md"), encoding="utf-8") as f:
        try:
            meta = hub.parse_card_yaml(f.read())
        except ValueError as err:
            raise InputError(f"{dataset}: {err}") from None
    problems = card_problems(meta, files)
    unknown = license_problem(meta, allow_unknown_license)
    if unknown:
        problems.append(unknown)
    if problems:
        raise InputError(f"{dataset}: " + "; ".join(problems))
    size = sum(os.path.getsize(os.path.join(dataset, f)) for f in files)
    return {"files": files, "bytes": size, "card": meta, "fingerprint": on_card(dataset)}


def hub_upload(folder: str, repo_id: str, token: str, private: bool, files: list,
               message: str):
    """Create the dataset repo if needed and upload `files` of `folder` in one commit."""
    from huggingface_hub import HfApi
    probe_hub(token, _probe_s[0])
    api = HfApi(token=token)
    api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
    return api.upload_folder(folder_path=folder, repo_id=repo_id, repo_type="dataset",
                             allow_patterns=files, commit_message=message)


# --- the network: every call bounded, every failure one line ---------------------------

HUB_TIMEOUT_S = 60.0
PROBE_TIMEOUT_S = 10.0
_probe_s = [PROBE_TIMEOUT_S]     # what `bound_hub_client` last set


def check_repo_id(repo_id: str) -> None:
    """InputError (one line) unless `repo_id` is an owner/name the hub accepts."""
    if not repo_id or repo_id.count("/") != 1 or not all(repo_id.split("/")):
        raise InputError(f"REPO_ID {repo_id!r}: expected owner/name")
    from huggingface_hub.utils import validate_repo_id
    try:
        validate_repo_id(repo_id)
    except ValueError as err:
        raise InputError(f"REPO_ID {repo_id!r}: {str(err).splitlines()[0]}") from None


def bound_hub_client(timeout: float) -> None:
    """huggingface_hub's shared HTTP client, with connect/read/write timeouts (its default
    client waits forever on a server that accepts and never answers); the probe waits
    min(timeout, PROBE_TIMEOUT_S)."""
    import httpx2
    import huggingface_hub
    from huggingface_hub.utils import _http
    _probe_s[0] = min(timeout, PROBE_TIMEOUT_S)

    def factory():
        client = _http.default_client_factory()
        client.timeout = httpx2.Timeout(timeout, connect=min(timeout, 10.0))
        return client

    huggingface_hub.set_client_factory(factory)


def hub_error(err: BaseException, timeout: float) -> str:
    """One line for a failed hub call."""
    import httpx2
    from huggingface_hub import constants
    where = f"the hub at {constants.ENDPOINT}"
    if isinstance(err, httpx2.TimeoutException):
        return f"{where} did not answer within {timeout:.0f} s ({type(err).__name__}); nothing " \
               "was published (check HF_ENDPOINT and the network, or retry later)"
    if isinstance(err, (httpx2.NetworkError, httpx2.ProtocolError, OSError)) and \
            not hasattr(err, "response"):
        return f"cannot reach {where}: {type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"
    response = getattr(err, "response", None)
    status = getattr(response, "status_code", None)
    text = (str(err).strip().splitlines() or [type(err).__name__])[0][:300]
    return f"{where} refused the upload" + (f" (HTTP {status})" if status else "") + f": {text}"


def probe_hub(token: str, timeout: float) -> None:
    """One request to the hub (who the token belongs to), without retries: a hub that does
    not answer, cannot be reached or refuses the token stops the upload here, in about
    `timeout` seconds, before any retried request waits."""
    import httpx2
    from huggingface_hub import constants
    response = httpx2.get(f"{constants.ENDPOINT}/api/whoami-v2", timeout=timeout,
                          headers={"authorization": f"Bearer {token}"})
    if response.status_code in (401, 403):
        raise InputError(f"the hub at {constants.ENDPOINT} refused the token "
                         f"(HTTP {response.status_code}): pass a write token")


def upload_bounded(folder: str, repo_id: str, token: str, private: bool, files: list,
                   message: str, timeout: float = HUB_TIMEOUT_S):
    """`hub_upload` after `probe_hub`, with every request bounded by `timeout` seconds and
    any failure as InputError (one line): a hub that accepts and never answers, a closed
    port, a refused token or repo id."""
    bound_hub_client(timeout)
    probe = _probe_s[0]
    try:
        return hub_upload(folder, repo_id, token, private, files, message)
    except InputError:
        raise
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as err:  # noqa: BLE001 - every hub failure is one line for the user
        import httpx2
        raise InputError(hub_error(err, probe if isinstance(err, httpx2.TimeoutException)
                                   and err.request.url.path.endswith("/whoami-v2")
                                   else timeout)) from None


def publish(dataset: str, repo_id: str, token=None, private: bool = False,
            dry_run: bool = False, allow_unknown_license: bool = False,
            timeout: float = HUB_TIMEOUT_S) -> dict:
    """Prepare, then (unless `dry_run`) upload; returns the plan with `uploaded`."""
    check_repo_id(repo_id)
    dataset = dataset.rstrip("/")
    plan = prepare(dataset, allow_unknown_license=allow_unknown_license)
    log.info("publish: %d files, %.1f MB from %s to datasets/%s%s", len(plan["files"]),
             plan["bytes"] / 1e6, dataset, repo_id, " (private)" if private else "")
    if dry_run:
        return dict(plan, uploaded=False)
    token = token or os.environ.get("HF_TOKEN")
    if not token:
        raise InputError("no Hugging Face token: pass --token or set HF_TOKEN (or --dry_run "
                         "to check the folder only)")
    if os.environ.get("HF_HUB_OFFLINE", "0") not in ("", "0"):
        raise InputError("HF_HUB_OFFLINE is set: unset it to upload (or --dry_run)")
    name = posixpath.basename(dataset) or dataset
    upload_bounded(dataset, repo_id, token, private, plan["files"],
                   f"Upload {name}: {plan['card'].get('pretty_name')} (release fingerprint "
                   f"{plan['fingerprint']})", timeout)
    log.info("publish: uploaded to https://huggingface.co/datasets/%s", repo_id)
    return dict(plan, uploaded=True)
