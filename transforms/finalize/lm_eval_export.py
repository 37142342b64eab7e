"""`dataset/lm_eval/`: the release as an lm-evaluation-harness task (issue 21).

Two files, loadable with `lm_eval --include_path DATASET/lm_eval --tasks <task>`:
`<task>.yaml`, in the framing of lm-eval's own `record` task (passage as context, one
continuation per passage entity with the query filled in), and `utils.py`, which finds the
Parquet shards beside the folder, so the release can be moved or downloaded whole.
Splits with no rows are left out of the YAML (lm-eval would fail on a missing split).
"""
import re
from importlib import resources

from transforms.core import io_utils
from transforms.finalize.files import write_text

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
    return resources.files("beam_pipelines").joinpath("templates", FOLDER, name) \
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


def write_lm_eval(out_dir: str, task: str, split_rows: dict) -> list:
    """Write `<out_dir>/lm_eval/{<task>.yaml,utils.py}`; returns the paths written."""
    folder = io_utils.join(out_dir, FOLDER)
    paths = [io_utils.join(folder, f"{task}.yaml"), io_utils.join(folder, "utils.py")]
    write_text(paths[0], task_yaml(task, split_rows))
    write_text(paths[1], _template("utils.py"))
    return paths
