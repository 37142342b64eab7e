"""Issue 32's list lines (transforms/curation/listings.py), in every layout: a charge list
("Name: charge, charge, held in lieu of $N bond."), a list intro ending in a colon and
bulleted key points, put into real CNN stories (../shared/corpus/cnn_stories) from real
text: the charges are the real corpus's own charge phrases ("charged with trespassing
after warning, resisting arrest with violence and battery on a law enforcement
officer"), the names its own names, the intros its own ("Here's a guide to the plan:").
Each story is read as a crawled page (a paragraph a line), as a JSON line (no paragraph
breaks) and as the Hugging Face loader's row (wrap dots, CNN). Cleaning must take every
label line and intro out, count it by reason, and keep every sentence of the story and
every key point. The real BBC line-ups ("Everton: Martyn, Hibbert, Yobo, ...") are label
lines read as they are; no sentence of the real corpus's prose is one."""
import collections
import re

import pytest

from benchmarks import hf_layout
from tests.fixtures.corpus_texts import corpus_texts
from transforms.curation import listings
from transforms.curation.clean import clean_article
from transforms.ingestion import readers
from transforms.ingestion.articles import Article

pytestmark = pytest.mark.fast

_CHARGES = re.compile(r"\b(?:charged with|charges of|charges including|convicted of|counts of) "
                      r"([a-z][a-z ,'-]{8,160}?)(?=[.;:\"]|$)")
_NAME = re.compile(r"\b([A-Z][a-z]{2,} [A-Z]\. [A-Z][a-z]{2,}|[A-Z][a-z]{2,} [A-Z][a-z]{3,})"
                   r"(?=, \d\d,)")
_FINITE = re.compile(r"\b(?:is|was|has|had|were|are|will|would|said|says|but|after|who|which|"
                     r"could|can|may|must|should|shall|before|when|because)\b")


@pytest.fixture(scope="module")
def corpus(corpus_dir):
    return corpus_texts(corpus_dir)


@pytest.fixture(scope="module")
def charge_lists(corpus):
    """Real charge phrases of the corpus split into items, two or more each."""
    out, seen = [], set()
    for text in corpus:
        for m in _CHARGES.finditer(text):
            if _FINITE.search(m.group(1)):
                continue
            items = [i.strip() for i in re.split(r",\s*(?:and\s+)?|\s+and\s+", m.group(1))
                     if i.strip()]
            key = tuple(items)
            if len(items) >= 2 and all(len(i.split()) <= 8 for i in items) and key not in seen:
                seen.add(key)
                out.append(items)
    return out


@pytest.fixture(scope="module")
def names(corpus):
    """Real "Name, 27," names of the corpus (a suspect's name with an age)."""
    return sorted({m.group(1) for text in corpus for m in _NAME.finditer(text)})


@pytest.fixture(scope="module")
def intros(corpus):
    """Real list intros of the corpus: a paragraph's last sentence ending in a colon."""
    out = set()
    for text in corpus:
        for p in re.split(r"\n\s*\n", text):
            cut = []
            listings.split_list_intro(p.strip(), cut)
            out.update(t for t, _ in cut)
    return sorted(out)


def _stories(corpus_dir):
    return [readers.parse_story(p.read_bytes(), str(p), "public")
            for p in sorted((corpus_dir / "cnn_stories").glob("*.story"))]


def test_the_corpus_gives_the_inputs(charge_lists, names, intros):
    assert len(charge_lists) >= 6 and len(names) >= 12 and len(intros) >= 3, (
        len(charge_lists), len(names), intros)


def _charge_lines(charge_lists, names, k):
    lines = []
    for j in range(3):
        items = charge_lists[(3 * k + j) % len(charge_lists)]
        name = names[(5 * k + j) % len(names)]
        body = ", ".join([items[0][:1].upper() + items[0][1:]] + items[1:])
        lines.append(f"{name}: {body}, held in jail in lieu of ${25 + 7 * j},000 bond.")
    return lines


def _layouts(story, extra):
    """The story with `extra` lines put after its third paragraph, in three layouts."""
    paras = list(story.paragraphs[:3]) + extra + list(story.paragraphs[3:])
    crawled = story.with_(paragraphs=tuple(paras), source=None)
    jsonl = story.with_(paragraphs=(" ".join(paras),), source=None)
    row = hf_layout.story_to_row("\n\n".join(paras + ["@highlight"] + list(story.highlights)),
                                 story.article_id)
    loader = Article(story.article_id, (row["article"],), tuple(row["highlights"].split("\n")),
                     "cnn", None, "public", "hf.csv")
    return {"crawled": crawled, "jsonl": jsonl, "loader": loader}


@pytest.mark.parametrize("layout", ["crawled", "jsonl", "loader"])
def test_charge_lists_and_their_intro_are_cut_out_and_counted(corpus_dir, charge_lists, names,
                                                               intros, layout):
    counts, expected = collections.Counter(), collections.Counter()
    for k, story in enumerate(_stories(corpus_dir)[:10]):
        lines = _charge_lines(charge_lists, names, k)
        intro = intros[k % len(intros)]
        article = _layouts(story, [intro] + lines)[layout]
        cleaned = clean_article(article, dropped=counts)
        text = " ".join(cleaned.paragraphs)
        expected.update(label_line=len(lines), list_intro=1)
        for line in lines:
            assert line.split(":")[0] + ":" not in text, (layout, line)
        assert intro not in text, (layout, intro)
        plain = clean_article(_layouts(story, [])[layout], dropped=expected)   # as it was
        assert text.split() == " ".join(plain.paragraphs).split(), layout
    assert counts["label_line"] == expected["label_line"], counts
    assert counts["list_intro"] == expected["list_intro"], counts


@pytest.mark.parametrize("layout", ["crawled", "loader"])
def test_key_points_stay_and_their_intro_goes(corpus_dir, intros, layout):
    counts = collections.Counter()
    for k, story in enumerate(_stories(corpus_dir)[10:20]):
        points = [p for p in story.paragraphs[3:] if p.endswith(".")][:3]
        intro = intros[(k + 1) % len(intros)]
        paras = list(story.paragraphs[:3]) + [intro] + ["• " + p for p in points]
        article = _layouts(story.with_(paragraphs=tuple(paras)), [])[layout]
        cleaned = clean_article(article, dropped=counts)
        text = "\n".join(cleaned.paragraphs)
        assert intro not in text
        for p in points:     # each key point stays, not glued to the intro
            head = " ".join(p.split()[:8])
            assert head in text and not text[:text.find(head)].rstrip().endswith(":"), (
                layout, head)
            assert "•" not in text
    assert counts["list_intro"] == 10, counts


def test_real_line_ups_are_label_lines(corpus_dir):
    found = [t[s:e] for t in corpus_texts(corpus_dir) for s, e in listings.find_label_lines(t)]
    line_ups = [f for f in found if re.match(r"^(?:Subs|Replacements|Booked|[A-Z][a-z]+)", f)]
    assert len(line_ups) >= 30
    # every label line of the real corpus is a list of names or roster entries
    assert all(re.match(r"^[^:]+: (?:[A-Z0-9]|\d+-)", f) for f in found), found


def test_no_sentence_of_the_real_prose_is_a_label_line(corpus_dir):
    prose = [json_text for json_text in corpus_texts(corpus_dir)[:250]]   # cnndm_test250
    prose += [p.read_text() for p in sorted((corpus_dir / "cnn_stories").glob("*.story"))]
    assert [t[s:e] for t in prose for s, e in listings.find_label_lines(t)] == []


def test_label_line_shapes():
    assert listings.is_label_line("Elizabeth A. Burton: Possession of methamphetamine, "
                                  "possession of a Schedule IV substance, held in jail in lieu "
                                  "of $70,000 bond.")
    assert listings.is_label_line("@placeholder: Possession of methamphetamine, visiting a "
                                  "common nuisance, held in jail in lieu of $72,500 bond.")
    for prose in (
            "Suspect: Keith Anthony Allen, 27, of Columbus pleaded not guilty Monday to "
            "charges including rape, felonious assault and gross sexual imposition.",
            "Tragic: The man, only named as Mr Zhang, was thrown off his motorbike.",
            "Joy Smith: No he's [gasping noise], that's all he's doing, making that noise.",
            "Smith: 'We were robbed, we were cheated, we were beaten.'",
            "Allen: Rape and assault."):        # fewer than three items
        assert not listings.is_label_line(prose), prose


def test_list_intros_are_not_quotation_intros():
    assert listings.is_list_intro("Here are some key points jurors will have to consider:")
    assert listings.is_list_intro("Key points:")
    for speech in ("Speaking at the launch, Smith told reporters:", "The statement reads:",
                   "He said:", "In a post on Facebook his mother wrote:"):
        assert not listings.is_list_intro(speech), speech
    assert not listings.is_list_intro("The chant went:", next_text="'We love you'")
    cut = []
    assert listings.split_list_intro("Zarif is well known. Here are six:", cut) == [
        "Zarif is well known."]
    assert cut == [("Here are six:", listings.LIST_INTRO)]
