"""Union-find components (transforms/core/components.py), the one implementation the
article groups, near-duplicate clusters, look-alike letters, alias clusters and sibling
sentences share."""
import random

import pytest

from transforms.core.components import components, index_groups

pytestmark = pytest.mark.fast


def test_a_component_is_keyed_by_its_smallest_member_whatever_the_order():
    pairs = [("d", "b"), ("b", "e"), ("x", "y"), ("c", "a")]
    want = {"a": "a", "b": "b", "c": "a", "d": "b", "e": "b", "x": "x", "y": "x", "z": "z"}
    for seed in range(5):
        shuffled = pairs[:]
        random.Random(seed).shuffle(shuffled)
        assert components(shuffled, nodes=["z"]) == want


def test_index_groups_are_in_index_order_and_ordered_by_first_index():
    words = ["Smith", "Jones", "John Smith", "Paris", "Jones Ltd"]
    joined = lambda i, j: bool(set(words[i].split()) & set(words[j].split()))  # noqa: E731
    assert index_groups(len(words), joined) == [[0, 2], [1, 4], [3]]
    assert index_groups(0, joined) == []
