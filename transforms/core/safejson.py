"""JSON from untrusted input with a nesting limit (issue 22: one line nested 100,000 deep
made Python's parser raise RecursionError, which lost the rest of the file).

`loads` refuses text nested deeper than `MAX_DEPTH` with `JSONTooDeep`, a
`json.JSONDecodeError`, so callers that handle broken JSON handle it too. The check is cheap:
text with fewer brackets than the limit cannot be too deep; otherwise one regex pass that
skips strings finds the depth before `json.loads` runs.
"""
import json
import re

MAX_DEPTH = 100   # the records read here are 2-3 levels deep
_TOKENS = {str: re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S),
           bytes: re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S)}
_OPEN = {str: ("[", "{"), bytes: (b"[", b"{")}


class JSONTooDeep(json.JSONDecodeError):
    """JSON nested deeper than the limit."""


def depth_over(doc, limit: int = MAX_DEPTH):
    """The offset where `doc` (str or bytes) first nests deeper than `limit`, else None."""
    kind = bytes if isinstance(doc, (bytes, bytearray)) else str
    opening = _OPEN[kind]
    if doc.count(opening[0]) + doc.count(opening[1]) <= limit:
        return None
    depth = 0
    for match in _TOKENS[kind].finditer(doc):
        token = match.group()
        if token in opening:
            depth += 1
            if depth > limit:
                return match.start()
        elif len(token) == 1:
            depth -= 1
    return None


def loads(doc, limit: int = MAX_DEPTH):
    """`json.loads` that raises JSONTooDeep past `limit` levels (never RecursionError)."""
    where = depth_over(doc, limit)
    text = doc if isinstance(doc, str) else "<bytes>"
    if where is not None:
        raise JSONTooDeep(f"nested deeper than {limit} levels", text, where)
    try:
        return json.loads(doc)
    except RecursionError:   # a deeper stack than the limit allows: same answer
        raise JSONTooDeep("nested deeper than the parser's stack allows", text, 0) from None


def load(f, limit: int = MAX_DEPTH):
    return loads(f.read(), limit)
