"""Stable hashes: the same input gives the same ids, folds and splits on every worker."""
import hashlib


def stable_hash(text: str, salt: str = "") -> int:
    """A 64-bit integer from SHA-256; unlike `hash()`, it does not change between processes."""
    digest = hashlib.sha256((salt + "\x00" + text).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def short_digest(*parts: str, length: int = 16) -> str:
    """A hex digest of the parts, for readable stable ids."""
    h = hashlib.sha1("\x1f".join(parts).encode("utf-8"))
    return h.hexdigest()[:length]


def fold_of(article_id: str, k: int) -> int:
    """`fold = stable_hash(article_id) % k`: every query of an article shares a fold."""
    return stable_hash(article_id, salt="fold") % k
