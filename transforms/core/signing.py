"""Article signatures for near-duplicate detection, as pure functions (no Beam): generate
signs each article here; finalize (transforms/finalize/splits/near_duplicates.py) bands and
clusters the signatures. The text is folded first (near_dup_text.py), cut into k-word
shingles and given a seeded MinHash signature (datasketch): the same text gives the same
signature in every process."""
import functools
import re
from dataclasses import dataclass
from typing import Iterable, Optional

from transforms.core.config import setting
from transforms.core.near_dup_text import fold

_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class SignatureConfig:
    """How generate signs each article (a section of generate's settings)."""
    near_dup_num_perm: int = setting(240, "MinHash permutations per article signature")
    near_dup_shingle: int = setting(5, "words per shingle of the article signature")
    near_dup_seed: int = setting(1, "seed of the MinHash permutations")

    def __post_init__(self):
        if self.near_dup_num_perm < 1 or self.near_dup_shingle < 1:
            raise ValueError("near_dup_num_perm and near_dup_shingle must be at least 1")


# --- text -> shingles -> signature ------------------------------------------------------

def article_text(paragraphs: Iterable[str], highlights: Iterable[str] = ()) -> str:
    """The text an article is compared by: the whole cleaned article, then its highlights."""
    return "\n".join(list(paragraphs) + list(highlights))


def words(text: str) -> list:
    """The words of the folded text (near_dup_text.fold: lower-cased, invisible marks
    gone, look-alike letters and HTML entities folded)."""
    return _WORD.findall(fold(text))


def shingles(text: str, k: int) -> frozenset:
    """The set of k-word shingles (folded words); a text shorter than k words is one
    shingle."""
    ws = words(text)
    if not ws:
        return frozenset()
    if len(ws) < k:
        return frozenset([" ".join(ws)])
    return frozenset(" ".join(ws[i:i + k]) for i in range(len(ws) - k + 1))


@functools.lru_cache(maxsize=8)
def _template(num_perm: int, seed: int):
    from datasketch import MinHash
    return MinHash(num_perm=num_perm, seed=seed, scheme="affine32")


def signature(grams: Iterable[str], num_perm: int, seed: int) -> tuple:
    """MinHash signature of a shingle set: a tuple of `num_perm` ints (datasketch's seeded
    permutations and SHA-1 hashing, stable across processes)."""
    from datasketch import MinHash
    template = _template(num_perm, seed)
    m = MinHash(num_perm=num_perm, seed=seed, scheme="affine32",
                permutations=template.permutations)
    m.update_batch([g.encode("utf-8") for g in sorted(grams)])
    return tuple(int(v) for v in m.hashvalues)


def text_signature(text: str, config: SignatureConfig) -> Optional[tuple]:
    """The signature of a text, or None when it has no words."""
    grams = shingles(text, config.near_dup_shingle)
    if not grams:
        return None
    return signature(grams, config.near_dup_num_perm, config.near_dup_seed)
