"""Near-duplicate clustering under attack, measured on real stories (issue 28): copies of a
story re-spelled to evade the signature, and crafted articles that chain unrelated stories
into one cluster.

    python -m benchmarks.near_dup_attacks [--topic tech] [--stories 40] [--json PATH]

Evasions (`EVASIONS`): each copy is the story with every word (or letter) re-spelled one
way; the table gives the share of copies whose estimated similarity to their story
reaches the threshold, with the signature's text folding (near_dup_text.py) and without
it (the raw words as signed before). Chains: `bridges` (story i followed by story i+1,
one crafted article per link, as the issue built it) and `drift` (two crafted articles
per link, each mostly one story with 40% of the next, so no article has two unrelated
near-duplicates); the table gives the largest connected component the pairs make and the
largest cluster finalize keeps, and how many stories and crafted articles were rejected.
Stories: BBC folder `--topic` (the tests build theirs from other folders).
"""
import argparse
import glob
import html
import json
import pathlib
import re
import sys

from transforms.finalize.splits import near_duplicates as N

CORPUS = pathlib.Path(__file__).resolve().parents[2] / "shared" / "corpus"
_WORDS = re.compile(r"\w+")
_CYRILLIC = str.maketrans("aceopxyiAPCEHKMOTXBs", "асеорхуіАРСЕНКМОТХВѕ")


def _each_word(text: str, fn) -> str:
    return _WORDS.sub(lambda m: fn(m.group()), text)


def _inside(mark: str):
    return lambda w: w[:1] + mark + w[1:] if len(w) > 1 else w


#: name -> a function re-spelling a text (what a reader sees barely changes)
EVASIONS = {
    "cgj_in_words": lambda t: _each_word(t, _inside("\u034f")),           # combining grapheme joiner
    "variation_selector": lambda t: _each_word(t, _inside("\ufe0f")),
    "hangul_filler": lambda t: _each_word(t, _inside("\u3164")),
    "cyrillic_homoglyphs": lambda t: t.translate(_CYRILLIC),
    "html_entities": lambda t: "".join(f"&#{ord(c)};" if c in "aeiou" else html.escape(c)
                                       for c in t),
    "fullwidth": lambda t: "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in t),
    "strike_through": lambda t: "".join(c + "\u0336" if c.isalpha() else c for c in t),
    "zero_width_space": lambda t: _each_word(t, _inside("\u200b")),
    "braille_blank": lambda t: _each_word(t, _inside("\u2800")),
}


def raw_words(text: str) -> list:
    """The words as the signature took them before text folding (the baseline)."""
    return [w.lower() for w in _WORDS.findall(text)]


def raw_signature(text: str, sign=N.SignatureConfig()):
    ws, k = raw_words(text), sign.near_dup_shingle
    grams = {" ".join(ws[i:i + k]) for i in range(max(1, len(ws) - k + 1))} if ws else set()
    return N.signature(grams, sign.near_dup_num_perm, sign.near_dup_seed) if grams else None


def bbc_stories(root: pathlib.Path, topic: str, n: int, min_paragraphs: int = 5) -> list:
    """[(id, text)] of the first n BBC stories of a topic folder with enough paragraphs,
    each a different story (the folders hold a few files filed twice: left out)."""
    out, grams = [], []
    for path in sorted(glob.glob(str(root / "bbc_news" / topic / "*.txt"))):
        paras = [p.strip() for p in pathlib.Path(path).read_text(errors="replace").split("\n\n")
                 if p.strip()]
        text = "\n".join(paras[1:])
        g = N.shingles(text, N.SignatureConfig().near_dup_shingle)
        if len(paras) > min_paragraphs and all(N.jaccard(g, h) < 0.5 for h in grams):
            out.append((f"{topic}-{pathlib.Path(path).stem}", text))
            grams.append(g)
        if len(out) == n:
            break
    return out


def bridge_chain(stories: list) -> list:
    """[(id, text)]: for each neighbouring pair, story i followed by story i+1."""
    return [(f"bridge-{i:03d}", a[1] + "\n" + b[1])
            for i, (a, b) in enumerate(zip(stories, stories[1:]))]


def drift_chain(stories: list, share: float = 0.4) -> list:
    """[(id, text)]: per neighbouring pair, story i + `share` of story i+1's sentences and
    story i+1 + `share` of story i's: two crafted articles a link, none of them a bridge."""
    def part(text):
        sents = re.split(r"(?<=[.!?])\s+", text)
        return " ".join(sents[:max(1, int(len(sents) * share))])
    out = []
    for i, (a, b) in enumerate(zip(stories, stories[1:])):
        out += [(f"drift-{i:03d}-x", a[1] + "\n" + part(b[1])),
                (f"drift-{i:03d}-y", b[1] + "\n" + part(a[1]))]
    return out


def chain_outcome(stories: list, crafted: list, config=N.NearDupConfig()) -> dict:
    sign = N.SignatureConfig()
    sigs = {a: N.text_signature(t, sign) for a, t in stories + crafted}
    comps = N.components(N.similar_pairs(sigs, config))
    clusters, rejected = N.clusters_of(sigs, config)
    honest = {a for a, _ in stories}
    return {"articles": len(sigs), "largest_component": max(N.cluster_sizes(comps).values(),
                                                            default=0),
            "largest_cluster": max(N.cluster_sizes(clusters).values(), default=0),
            "stories_in_a_cluster": sum(a in clusters for a in honest),
            "crafted_rejected": sum(a in rejected for a, _ in crafted),
            "stories_rejected": sum(a in rejected for a in honest)}


def measure(root: pathlib.Path, topic: str, n: int, config=N.NearDupConfig()) -> dict:
    stories = bbc_stories(root, topic, n)
    sign, t = N.SignatureConfig(), config.near_dup_threshold
    evasions = {}
    for name, fn in EVASIONS.items():
        folded = raw = 0
        for _, text in stories:
            copy = fn(text)
            folded += N.estimated_jaccard(N.text_signature(text, sign),
                                          N.text_signature(copy, sign)) >= t
            rs = raw_signature(copy)
            raw += rs is not None and N.estimated_jaccard(raw_signature(text), rs) >= t
        evasions[name] = {"caught": folded, "caught_unfolded": raw, "n": len(stories)}
    return {"topic": topic, "stories": len(stories), "threshold": t, "evasions": evasions,
            "chains": {"bridges": chain_outcome(stories, bridge_chain(stories), config),
                       "drift": chain_outcome(stories, drift_chain(stories), config)}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default=str(CORPUS))
    ap.add_argument("--topic", default="tech")
    ap.add_argument("--stories", type=int, default=40)
    ap.add_argument("--json", help="also write the report here")
    args = ap.parse_args(argv)
    report = measure(pathlib.Path(args.corpus), args.topic, args.stories)
    print(f"{report['stories']} BBC {args.topic} stories, threshold {report['threshold']}")
    for name, r in report["evasions"].items():
        print(f"  evasion {name:20s} copies caught {r['caught']}/{r['n']} "
              f"(without folding {r['caught_unfolded']}/{r['n']})")
    for name, r in report["chains"].items():
        print(f"  chain {name:8s} " + " ".join(f"{k}={v}" for k, v in r.items()))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
