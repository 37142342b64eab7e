"""The photo caption an old CNN page set after its dateline lead ("WASHINGTON (CNN) -- ...
Police watch over travelers at ... . They are ...") is no sentence of the story: clean
cuts it (`lead_caption`) in the loader's one paragraph and in a `.story`, and leaves the
sentences that only look like one. Built from our own sentences in the pages' layouts, and
checked on the real CNN stories of ../shared/corpus (three captions, each cut, nothing
else)."""
import collections
import pathlib

import pytest

from tests.fixtures.corpus_texts import corpus_texts
from transforms.curation import lead_captions as L
from transforms.curation.clean import clean_article
from transforms.ingestion.articles import Article
from transforms.ingestion.readers import split_story

pytestmark = pytest.mark.fast

LEAD = ("BERLIN, Germany (CNN) -- A shipping firm said Tuesday it will send its tankers the "
        "long way round Africa to avoid attacks in the Gulf of Aden.")
AFTER = ("The company said the detour adds ten days to each voyage. Insurers have raised "
         "their premiums twice this year.")
CAPTIONS = [
    "Police watch over travelers at a busy station in the city before the holiday.",
    "French Navy image of a skiff operating off the coast of Somalia in May this year.",
    "A file photo of the tanker Sirius Star at anchor off Eyl.",
    "Sailors carry the coffins of two crew members killed in the attack.",
    "Captain Tom Hale, shown here in 2006, has sailed the route for 20 years.",
    "Foreign Minister Hans Vogt, left, and Admiral Jens Roth, right, talk on board.",
    "Jane Hale holds a candle and sings during a vigil for the crew Tuesday in Hamburg.",
]
NOT_CAPTIONS = [
    "The company said the detour adds ten days to each voyage.",
    "Police watch the port closely, the minister told reporters.",            # attribution
    "They hold the ship and its 25 crew for ransom.",                         # a pronoun
    "The wait has cost the firm $2 million.",                                 # a noun
    "In March the firm holds its annual meeting in Hamburg.",                 # a preposition
    "Pirates hold \"at least a dozen ships\" off Somalia.",                   # a quotation
    "Pirate watches were posted on every deck.",                              # a noun
    "A photo of the captain was released by the navy.",                       # a finite verb
    "Somalia's transitional government holds little power outside Mogadishu.",
]


def _article(article_id, paragraphs, highlights) -> Article:
    return Article(article_id, paragraphs, highlights, None, None, "public", "test")


def hf_row(*sentences: str) -> str:
    return " ".join(sentences)


@pytest.mark.parametrize("caption", CAPTIONS)
def test_a_caption_after_the_lead_goes_in_the_loaders_layout(caption):
    text, cut = L.strip_lead_caption([hf_row(LEAD, caption, AFTER)])
    assert text == [hf_row(LEAD, AFTER)]
    assert [(c, why.reason) for c, why in cut] == [(caption, "lead_caption")]


@pytest.mark.parametrize("sentence", NOT_CAPTIONS)
def test_a_sentence_of_the_story_after_the_lead_stays(sentence):
    row = hf_row(LEAD, sentence, AFTER)
    assert L.strip_lead_caption([row]) == ([row], [])


@pytest.mark.parametrize("caption", CAPTIONS[:3])
def test_only_the_sentence_after_the_lead_and_only_after_an_old_cnn_dateline(caption):
    later = hf_row(LEAD, AFTER, caption, AFTER)                  # not where captions stand
    assert L.strip_lead_caption([later]) == ([later], [])
    for lead in (LEAD.replace(" --", ""), LEAD.replace("(CNN) --", "(Reuters) --"),
                 LEAD.split("-- ")[1]):
        row = hf_row(lead, caption, AFTER)
        assert L.strip_lead_caption([row]) == ([row], [])
    short = hf_row(LEAD, caption)                                # never the last sentence
    assert L.strip_lead_caption([short]) == ([short], [])


def test_after_a_present_tense_scene_lead_a_scene_is_the_story():
    lead = "GAZA CITY (CNN) -- Children wait in line for bread as the sun rises over the camp."
    row = hf_row(lead, "Mothers hold the smallest ones in their arms.", AFTER)
    assert L.strip_lead_caption([row]) == ([row], [])


def test_in_a_story_the_captions_paragraph_goes_whole_when_short():
    caption = "Jane Hale holds a candle Tuesday. She lost her brother in the attack."
    kept, cut = L.strip_lead_caption([LEAD, caption, AFTER, AFTER])
    assert kept == [LEAD, AFTER, AFTER]
    assert [(c, why.reason) for c, why in cut] == [(caption, "lead_caption")]
    long_paragraph = caption + " " + AFTER + " " + AFTER
    kept = L.strip_lead_caption([LEAD, long_paragraph, AFTER])[0]
    assert kept == [LEAD, long_paragraph[len("Jane Hale holds a candle Tuesday. "):], AFTER]


def test_clean_counts_the_caption_by_reason():
    article = _article("x", (hf_row(LEAD, CAPTIONS[0], AFTER),),
                       ("A firm sends its tankers round Africa",))
    dropped = collections.Counter()
    cleaned = clean_article(article, dropped=dropped)
    assert CAPTIONS[0] not in " ".join(cleaned.paragraphs)
    assert dropped["lead_caption"] == 1


def test_the_real_cnn_stories_lose_their_captions_and_nothing_else(corpus_dir: pathlib.Path):
    """Read by a person: in ../shared/corpus, three old CNN stories carry a lead caption
    (two in their second paragraph, one after a lead of two sentences); all three go in the
    `.story` layout, and no sentence of any other real text is cut."""
    cut = {}
    for path in sorted((corpus_dir / "cnn_stories").glob("*.story")):
        story = split_story(path.read_text(encoding="utf-8"))
        article = _article(path.stem, tuple(story[0]), tuple(story[1]))
        dropped = collections.Counter()
        clean_article(article, dropped=dropped)
        if dropped["lead_caption"]:
            cut[path.stem[:8]] = dropped["lead_caption"]
    assert cut == {"0d43b970": 1, "017d27d0": 1, "a1ebb8bb": 1}
    others = [t for t in corpus_texts(corpus_dir) if "(CNN) --" not in t[:300]]
    assert all(L.strip_lead_caption([t])[1] == [] for t in others)
