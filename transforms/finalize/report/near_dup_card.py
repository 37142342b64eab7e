"""The dataset card's near-duplicate section, from the `split` step's counts in stats.json
(near_dup_beam.py, grouping.py): how many clusters, how large, what was rejected."""
_SIZES = ("2", "3", "4", "5-9", "10-99", "100+")


def _n(split: dict, key: str) -> str:
    return f"{split.get(key, 0):,}"


def near_dup_lines(stats: dict) -> list:
    """Markdown lines of the section, opening with a blank line (none when the run did
    not cluster)."""
    split = ((stats.get("funnel") or {}).get("stages") or {}).get("split") or {}
    if "near_dup_signatures" not in split and "article_groups" not in split:
        return []
    histogram = ", ".join(f"{size}: {split[f'near_dup_size:{size}']:,}" for size in _SIZES
                          if split.get(f"near_dup_size:{size}")) or "none"
    bridges = split.get("near_dup_bridges", 0) + split.get("near_dup_cut", 0)
    lines = ["", "## Near-duplicate articles", "",
             "Versions of one story (updates, reprints) would leak between splits, so articles "
             "are clustered by a MinHash of their whole text, folded first (HTML entities, "
             "Unicode compatibility forms, invisible marks and look-alike letters). Every "
             "member of a cluster is a near-duplicate of the cluster's core; an article that is "
             "a near-duplicate of two different stories (a bridge that would chain them) is "
             "rejected (`near_duplicate_bridge`). A cluster, and every group of articles "
             "sharing a passage text, a URL or a cluster, lands in one split.", "",
             "| | count |", "|---|---:|",
             f"| articles signed | {_n(split, 'near_dup_signatures')} |",
             f"| near-duplicate pairs | {_n(split, 'near_dup_pairs')} |",
             f"| clusters (articles in them) | {_n(split, 'near_dup_clusters')} "
             f"({_n(split, 'near_dup_clustered_articles')}) |",
             f"| largest cluster (articles) | {_n(split, 'max_near_dup_cluster')} |",
             f"| largest connected group of near-duplicates before bounding | "
             f"{_n(split, 'max_near_dup_component')} |",
             f"| articles rejected as bridges | {bridges:,} |",
             f"| article groups (largest, in articles) | {_n(split, 'article_groups')} "
             f"({_n(split, 'max_article_group')}) |",
             "", f"Cluster sizes (articles: clusters): {histogram}."]
    if split.get("near_dup_big_components"):
        lines.append(f"{split['near_dup_big_components']:,} group(s) of near-duplicates were "
                     "too large to compare whole and were cut around cores.")
    if split.get("near_dup_unsigned"):
        lines.append(f"{split['near_dup_unsigned']:,} article(s) had no signature (generated "
                     "before articles were signed) and were not clustered.")
    groups, largest = split.get("article_groups", 0), split.get("max_article_group", 0)
    if groups > 1 and largest * 4 >= split.get("articles", 0) > 0 and largest > 2:
        lines.append(f"The largest article group holds {largest:,} of "
                     f"{split.get('articles', 0):,} articles: it lands in one split whole.")
    return lines

