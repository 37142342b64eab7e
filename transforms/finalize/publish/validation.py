"""Checking a released folder against docs/dataset-contract.md (`validate`).

`check_release` yields violations in a stable order and never raises: a file that cannot
be read (truncated JSON, a shard that is no Parquet file, `stats.json` = `{`) or that is
not in the expected layout is a violation naming it. In order: the required files, every
row invariant and leakage across splits, the funnel and Table 1, near-duplicate clusters,
the exports cross-checked field by field against the shards (export_check.py), every file
against `_MANIFEST.json` (each entry must carry its sha256), the release fingerprint (the
card's and `--expect`), and the lm_eval and explorer files regenerated from the release
and compared byte for byte.
"""
import itertools
import json
import re

import fsspec
import pyarrow.parquet as pq

from transforms.core import io_utils, manifest
from transforms.core.schema import DATASET_SCHEMA
from transforms.finalize.exports import fingerprint, hidden_test
from transforms.finalize.publish import aids_check, export_check, invariants
from transforms.finalize.splits.rules import SPLITS, SplitConfig

REQUIRED_FILES = ("stats.json", "README.md", "passage_length.png", "query_length.png",
                  "entities_per_passage.png")


def _guarded(what: str, gen):
    """`yield from gen`, an exception on the way becoming one violation about `what`;
    returns gen's value (None after an exception)."""
    try:
        return (yield from gen)
    except Exception as err:  # noqa: BLE001 - validate names what it cannot read, never raises
        detail = str(err).splitlines()[0][:200] if str(err) else ""
        yield f"{what}: unreadable or not in the expected layout ({type(err).__name__}: {detail})"
        return None


def _value(x):
    """A generator that yields nothing and returns `x()` (for `_guarded`)."""
    return x()
    yield  # unreachable: makes this a generator


def _exists(url: str) -> bool:
    fs, path = fsspec.core.url_to_fs(url)
    return fs.exists(path)


def _read_bytes(url: str) -> bytes:
    with fsspec.open(url, "rb") as f:
        return f.read()


def first_violations(root: str, max_violations: int = 20, expect: str = None,
                     facts: dict = None) -> list:
    """The first `max_violations` violations of the release under `root` (empty: valid);
    an unexpected failure of a check is reported as one violation, never raised."""
    try:
        return list(itertools.islice(check_release(root, expect, facts), max_violations))
    except Exception as err:  # noqa: BLE001 - the checks guard themselves; a last net
        return [f"validate could not finish: {type(err).__name__}: {err}"]


def check_release(root: str, expect: str = None, facts: dict = None):
    """Yield the violations of the release under `root`; `facts` (a dict), when given,
    receives the release's `fingerprint`."""
    root = root.rstrip("/")
    fs, path = fsspec.core.url_to_fs(root)
    if not fs.isdir(path):
        yield f"{root}: no such folder (pass the released DIR/dataset)"
        return
    for name in REQUIRED_FILES:
        if not _exists(io_utils.join(root, name)):
            yield f"{name} is missing"
    stats = yield from _guarded("stats.json", _read_stats(root))
    stats = stats if isinstance(stats, dict) else {}
    index = export_check.ShardIndex()
    counts = yield from _guarded("the Parquet shards", _check_shards(root, stats, index))
    counts = counts or {s: 0 for s in SPLITS}
    yield from _guarded("stats.json funnel", _check_funnel(stats, sum(counts.values())))
    yield from _guarded("articles/", check_near_dup_clusters(root))
    yield from _guarded("stats.json table1", _check_table1(stats, counts))
    settings = (stats.get("config") or {}).get("settings") or {}
    for split in SPLITS:
        yield from _guarded(f"record/{split}.json", _check_record(
            root, split, index, not (split == "test" and settings.get("hide_test_answers"))))
        name = f"superglue/{invariants.SUPERGLUE_FILES[split]}.jsonl"
        yield from _guarded(name, _check_superglue(root, split, index))
    got = yield from _guarded("the release's files", _value(lambda: manifest.describe(root)))
    yield from _guarded(manifest.NAME, check_manifest(root, got))
    if got is not None:
        yield from _guarded("release fingerprint", check_fingerprint(root, got, expect, facts))
        yield from _guarded("lm_eval/", aids_check.check_lm_eval(root, stats, got))
    yield from _guarded("explorer/", aids_check.check_explorer(root))


# --- files, manifest, fingerprint ----------------------------------------------------------

def check_manifest(root: str, got: dict = None):
    """Every file against `_MANIFEST.json`: none missing, none added, each one's sha256
    recomputed (a shard rewritten at the same size and row count is named), and every entry
    carrying a sha256 (an entry without one could change unseen)."""
    stored = manifest.read(root)
    if stored is None:
        yield f"{manifest.NAME} is missing or unreadable: the files cannot be verified"
        return
    got = got if got is not None else manifest.describe(root)
    want = stored["files"]
    for name in manifest.unhashed(stored):
        yield f"{name}: its {manifest.NAME} entry carries no sha256 (it could change unseen)"
    for name in sorted(set(want) - set(got["files"])):
        yield f"{name}: listed in {manifest.NAME} but missing"
    for name in sorted(set(got["files"]) - set(want)):
        yield f"{name}: not listed in {manifest.NAME} (added after the release was written)"
    for name in sorted(set(want) & set(got["files"])):
        if not isinstance(want[name], dict):
            continue                                  # named above: no sha256
        change = manifest.file_change(want[name], got["files"][name])
        if change:
            yield f"{name}: {change} (changed after the release was written)"


def release_fingerprint(root: str, got: dict = None) -> str:
    """The fingerprint of the files under `root` (fingerprint.py says what it covers)."""
    got = got if got is not None else manifest.describe(root)
    card = io_utils.join(root, fingerprint.CARD)
    return fingerprint.compute(got["files"], _read_bytes(card) if _exists(card) else None)


def check_fingerprint(root: str, got: dict, expect: str = None, facts: dict = None):
    value = release_fingerprint(root, got)
    if facts is not None:
        facts["fingerprint"] = value
    card = io_utils.join(root, fingerprint.CARD)
    if _exists(card):
        stated = fingerprint.stated(_read_bytes(card).decode("utf-8", errors="replace"))
        if not stated:
            yield f"{fingerprint.CARD} states no release fingerprint"
        elif len(stated) > 1:
            yield f"{fingerprint.CARD} states {len(stated)} release fingerprints, expected one"
        elif stated[0] != value:
            yield (f"{fingerprint.CARD} states release fingerprint sha256:{stated[0]}, the "
                   f"files give sha256:{value} (changed after the release was written)")
    if expect is not None and fingerprint.normalise(expect) != value:
        yield (f"release fingerprint is sha256:{value}, expected "
               f"sha256:{fingerprint.normalise(expect)} (not the release you expect)")


# --- stats and shards ----------------------------------------------------------------------

def _read_stats(root: str):
    path = io_utils.join(root, "stats.json")
    if not _exists(path):
        return {}
    stats = io_utils.read_json(path)
    if not isinstance(stats, dict):
        yield "stats.json: not a JSON object"
        return {}
    return stats


def _schema_problems(path, schema):
    want = [(f.name, f.type) for f in DATASET_SCHEMA]
    got = [(f.name, f.type) for f in schema]
    if got != want:
        yield f"{path}: schema {got} differs from DATASET_SCHEMA {want}"


def _shard_set_problems(split, files):
    """Names follow `<split>-SSSSS-of-NNNNN.parquet` and no shard is missing."""
    names = [f.rsplit("/", 1)[-1] for f in files]
    found = [re.fullmatch(rf"{split}-(\d{{5}})-of-(\d{{5}})\.parquet", n) for n in names]
    if not all(found):
        yield f"{split} shard names {names} do not follow {split}-SSSSS-of-NNNNN.parquet"
        return
    totals = {int(m.group(2)) for m in found}
    indices = sorted(int(m.group(1)) for m in found)
    if len(totals) != 1 or indices != list(range(totals.pop())):
        yield f"{split} shards are incomplete or inconsistent: {names}"


def _shard_rows(path):
    """The rows of one shard; a schema other than the contract's is one violation (its rows
    are not read)."""
    with fsspec.open(path, "rb") as f:
        parquet = pq.ParquetFile(f)
        problems = list(_schema_problems(path, parquet.schema_arrow))
        if problems:
            yield from problems
            return
        for batch in parquet.iter_batches(batch_size=1000, use_threads=False):
            yield from batch.to_pylist()


def _check_one_shard(path, split, leakage, index, ids, hidden=False):
    """`hidden`: the test split of a hidden-test release (hidden_test.py), whose rows carry
    no answers."""
    for item in _shard_rows(path):
        if isinstance(item, str):
            yield item
            continue
        row = item
        if row.get("split") != split:
            yield f"{path}: row {row.get('id')!r} has split {row.get('split')!r}"
        problems = invariants.check_row(row)
        if hidden:
            problems = hidden_test.row_problems(row, problems)
        yield from problems
        yield from leakage.add(row)
        yield from index.add(dict(row, split=split))
        ids.add(row.get("id"))


def _check_shards(root, stats, index):
    """Rows of every split: invariants, leakage, the cross-check index; returns the number
    of rows per split."""
    config = None
    if isinstance(stats.get("config"), dict) and stats["config"].get("split"):
        config = SplitConfig.from_dict(stats["config"]["split"])
    leakage = invariants.LeakageChecker(config)
    hidden = hidden_test.hidden(stats)
    counts = {}
    for split in SPLITS:
        files = io_utils.glob(io_utils.join(root, f"{split}-*.parquet"))
        if not files:
            yield f"no {split}-*.parquet shards"
        else:
            yield from _shard_set_problems(split, files)
        ids = set()
        for path in files:
            name = path.rsplit("/", 1)[-1]
            yield from _guarded(name, _check_one_shard(path, split, leakage, index, ids,
                                                          hidden and split == "test"))
        counts[split] = len(ids)
    return counts


def _check_table1(stats, counts):
    table = stats.get("table1") or {}
    for split in SPLITS:
        want = (table.get(split) or {}).get("queries")
        if want is not None and want != counts[split]:
            yield f"stats.json: {split} has {want} queries, the shards {counts[split]}"


def check_near_dup_clusters(root: str):
    """No near-duplicate cluster (`articles/*.parquet` `near_dup_cluster`) in two splits."""
    splits = {}
    for path in io_utils.glob(io_utils.join(root, "articles", "*.parquet")):
        with fsspec.open(path, "rb") as f:
            parquet = pq.ParquetFile(f)
            if "near_dup_cluster" not in parquet.schema_arrow.names:
                continue
            for batch in parquet.iter_batches(batch_size=10000, use_threads=False,
                                              columns=["near_dup_cluster", "split"]):
                for r in batch.to_pylist():
                    if r["near_dup_cluster"] and r["split"]:
                        splits.setdefault(r["near_dup_cluster"], set()).add(r["split"])
    for cluster, where in sorted(splits.items()):
        if len(where) > 1:
            yield (f"articles: near-duplicate cluster {cluster!r} appears in "
                   f"{' and '.join(sorted(where))} (leakage)")


def _check_funnel(stats: dict, n_rows: int):
    """One chain from files read to released queries: each step's in equals the previous
    step's out, each (non-expanding) step's in equals out + rejected, and the last step's
    out equals the rows in the shards. Recomputed here, not taken from the file's `gaps`."""
    from transforms.core.funnel import chain_gaps
    funnel = stats.get("funnel") if isinstance(stats.get("funnel"), dict) else None
    stages = funnel.get("stages") if funnel else None
    if not isinstance(stages, dict) or not stages:
        yield "stats.json has no funnel: cannot account for the records from files to shards"
        return
    for gap in chain_gaps(stages):
        yield f"stats.json funnel gap: {gap}"
    last_step, last = list(stages.items())[-1]
    if last.get("out") != n_rows:
        yield (f"stats.json funnel: the last step ({last_step}) released {last.get('out')} "
               f"queries, the shards hold {n_rows}")


# --- exports -------------------------------------------------------------------------------

def _check_record(root, split, index, with_answers):
    path = io_utils.join(root, "record", f"{split}.json")
    if not _exists(path):
        yield f"record/{split}.json is missing"
        return
    obj = io_utils.read_json(path)
    if not isinstance(obj, dict) or not isinstance(obj.get("data"), list):
        yield f"record/{split}.json: not a ReCoRD JSON object with a `data` list"
        return
    yield from invariants.check_record_json(obj, split)
    ids = {qa.get("id") for entry in obj["data"] for qa in entry.get("qas") or []}
    yield from invariants.compare_export_ids(set(index.queries[split]), ids,
                                             f"record/{split}.json")
    yield from export_check.check_record(index, split, obj, with_answers)


def _check_superglue(root, split, index):
    name = f"superglue/{invariants.SUPERGLUE_FILES[split]}.jsonl"
    path = io_utils.join(root, name)
    if not _exists(path):
        yield f"{name} is missing"
        return
    lines = []
    with fsspec.open(path, "r", encoding="utf-8") as f:
        for n, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                lines.append(json.loads(line))
            except ValueError as err:
                yield f"{name} line {n}: not JSON ({err})"
                return
    yield from invariants.check_superglue_lines(lines, split)
    n_lines = sum(len(line.get("qas") or []) for line in lines)
    if n_lines != len(index.queries[split]):
        yield f"{name}: {n_lines} queries, the Parquet shards {len(index.queries[split])}"
    yield from export_check.check_superglue(index, split, lines)
