"""`dataset/lm_eval/`: the release as an lm-evaluation-harness task (issue 21).

Two files, loadable with `lm_eval --include_path DATASET/lm_eval --tasks <task>`:
`<task>.yaml`, in the framing of lm-eval's own `record` task (passage as context, one
continuation per passage entity with the query filled in), and `utils.py`, which finds the
Parquet shards beside the folder, so the release can be moved or downloaded whole.
Splits with no rows are left out of the YAML (lm-eval would fail on a missing split).

`utils.py` names the shards it belongs to (`RELEASE_SHARDS`: file name -> sha256, filled
in here) and, before reading, checks them and itself against those names and the
`_MANIFEST.json` beside them: a foreign, extra, changed or missing shard, or the folder
moved or copied beside another release, stops it with one line. `validate` regenerates
both files from the release and compares them byte for byte.
"""
import json
import re
from importlib import resources

from transforms.core import io_utils
from transforms.finalize.exports.files import write_text

FOLDER = "lm_eval"
HUB_SPLITS = (("train", "training_split"), ("validation", "validation_split"),
              ("test", "test_split"))
_INTERNAL = {"train": "train", "validation": "dev", "test": "test"}
_TASK_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


def check_task_name(name: str) -> str:
    if not _TASK_NAME.match(name):
        raise ValueError(f"lm_eval_task must be lower-case letters, digits and _ (starting "
                         f"with a letter, at most 64): {name!r}")
    if name == "record":
        raise ValueError("lm_eval_task 'record' is lm-eval's own SuperGLUE task: pick "
                         "another name")
    return name


def _template(name: str) -> str:
    return resources.files("transforms.finalize.exports").joinpath("templates", FOLDER, name) \
        .read_text("utf-8")


def task_yaml(task: str, split_rows: dict) -> str:
    """The task YAML for a release whose splits hold `split_rows` ({train|dev|test: n})."""
    lines = []
    for line in _template("task.yaml").splitlines():
        key = line.split(":", 1)[0]
        hub = next((h for h, k in HUB_SPLITS if k == key), None)
        if hub is not None and not split_rows.get(_INTERNAL[hub]):
            continue
        lines.append(line.replace("TASK", task))
    return "\n".join(lines) + "\n"


SHARD_PATTERN = re.compile(r"^(train|dev|test)-\d{5}-of-\d{5}\.parquet$")
_SHARDS_LINE = "RELEASE_SHARDS = {}"


def shard_hashes(out_dir: str) -> dict:
    """{shard file name: sha256} of the split shards in `out_dir`."""
    import fsspec

    from transforms.core import manifest
    fs, root = fsspec.core.url_to_fs(out_dir)
    names = [p.rsplit("/", 1)[-1] for p in fs.ls(root.rstrip("/"), detail=False)]
    return {n: manifest.sha256_of(fs, f"{root.rstrip('/')}/{n}")
            for n in sorted(names) if SHARD_PATTERN.match(n)}


def utils_py(shards: dict) -> str:
    """The task's utils.py for a release whose shards are `shards` ({name: sha256})."""
    text = _template("utils.py")
    if text.count(_SHARDS_LINE) != 1:
        raise ValueError(f"templates/lm_eval/utils.py must hold one line {_SHARDS_LINE!r}")
    return text.replace(_SHARDS_LINE, "RELEASE_SHARDS = " + json.dumps(shards, indent=4,
                                                                       sort_keys=True))


def expected_files(task: str, split_rows: dict, shards: dict) -> dict:
    """{path under the release: text} of the lm_eval folder this release must hold."""
    return {f"{FOLDER}/{task}.yaml": task_yaml(task, split_rows),
            f"{FOLDER}/utils.py": utils_py(shards)}


def task_rows(stats: dict) -> dict:
    """{split: queries the task reads} from stats.json: a hidden-test release's test split
    has no answers to score, so the task leaves it out (0)."""
    from transforms.finalize.exports.hidden_test import hidden
    table = stats.get("table1") or {}
    return {k: 0 if hidden(stats) and k == "test" else (table.get(k) or {}).get("queries")
            for k in ("train", "dev", "test")}


def write_lm_eval(out_dir: str, task: str, split_rows: dict) -> list:
    """Write `<out_dir>/lm_eval/{<task>.yaml,utils.py}`; returns the paths written."""
    paths = []
    for name, text in expected_files(task, split_rows, shard_hashes(out_dir)).items():
        paths.append(io_utils.join(out_dir, name))
        write_text(paths[-1], text)
    return paths
