"""No local path in what the release publishes: input paths made relative to the input root.

The choice: a released file names an input file by its path relative to the INPUT ROOT,
the deepest folder that holds every file generate read (the common folder of the
`source_file` values of generate's fate rows, `DIR/articles`); `/data/news/cnn/a.story`
and `/data/news/dm.jsonl` become `cnn/a.story` and `dm.jsonl`. Text fields that quote a
path (a fate row's `record_id` for a file that never became an article, a rejected row's
`detail`) lose the root the same way. Other paths (the human-validation verdicts) are
shown relative to the run folder, or by their last component when outside it. The run's
own folders (`DIR/articles`, `DIR/rejected`, `stats/`) keep the paths as they were read.
"""
import posixpath

import apache_beam as beam


def folder_parts(path: str) -> tuple:
    """The folder of `path` (a local path or a URL) as components; an absolute path's
    first component is "/"."""
    folder = posixpath.dirname(str(path).replace("\\", "/"))
    if not folder:
        return ()
    if folder.startswith("/"):
        return ("/",) + tuple(x for x in folder[1:].split("/") if x)
    return tuple(folder.split("/"))


def common(a, b):
    """The common leading components of two component tuples (None: nothing seen yet)."""
    if a is None:
        return b
    if b is None:
        return a
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def root_of(parts) -> str:
    """The root folder from its components ('' when nothing was seen)."""
    if not parts:
        return ""
    if parts[0] == "/":
        return "/" + "/".join(parts[1:])
    return "/".join(parts)


def input_root(paths) -> str:
    """The deepest folder holding every path in `paths` (None values skipped)."""
    acc = None
    for p in paths:
        if p:
            acc = common(acc, folder_parts(p))
    return root_of(acc)


class InputRoot(beam.CombineFn):
    """source_file values -> the input root (the accumulator is one component tuple)."""

    def create_accumulator(self):
        return None

    def add_input(self, acc, path):
        return common(acc, folder_parts(path)) if path else acc

    def merge_accumulators(self, accs):
        out = None
        for a in accs:
            out = common(out, a)
        return out

    def extract_output(self, acc):
        return root_of(acc)


def relative_to(path, root: str):
    """`path` relative to `root` (unchanged when it is not under it, or None)."""
    if not path or not root:
        return path
    prefix = root if root.endswith("/") else root + "/"
    return path[len(prefix):] if path.startswith(prefix) else path


def strip_root(text, root: str):
    """`text` with every `root/` it quotes removed (not for the root "/": inputs spread
    over the whole file system leave free text as it is)."""
    if not text or not root or root == "/":
        return text
    prefix = root if root.endswith("/") else root + "/"
    return text.replace(prefix, "")


def released_fate(row: dict, root: str) -> dict:
    """A fate row as the release shows it: `source_file` relative to the input root, and
    in `record_id` (generate writes `<source_file> (<detail>)` for a file that never
    became an article) the file named the same way."""
    source, record = row.get("source_file"), row.get("record_id")
    shown = relative_to(source, root)
    if source and record and record.startswith(source):
        record = shown + record[len(source):]
    return dict(row, source_file=shown, record_id=strip_root(record, root))


def shown_path(path, run_dir: str):
    """A path the release records (the verdicts): relative to the run folder when inside
    it, else its last component; None stays None."""
    if not path:
        return path
    rel = relative_to(path.rstrip("/"), run_dir.rstrip("/"))
    return rel if rel != path.rstrip("/") else posixpath.basename(path.rstrip("/"))
