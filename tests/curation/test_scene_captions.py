"""Photo captions written as sentences (issue 32, item 1; `scene_captions.py`): a Daily
Mail caption that kept its full stop in the Hugging Face layout, told by its present-tense
pose verb. Sentences of the shared corpus's cnndm_test250 and of held-out Daily Mail and
CNN stories (quoted); pure rules, no Beam, no model."""
import pytest

from transforms.core.rules import first_rejection
from transforms.curation.scene_captions import is_scene_caption
from transforms.generation.passages import CandidateSentence
from transforms.generation.sentences import STORY_RULES, Context

pytestmark = pytest.mark.fast


@pytest.mark.parametrize("text", [
    "Lewis Hamilton waves to the crowd after claiming pole for the Chinese Grand Prix.",
    "AP McCoy celebrates after winning the Melling Chase race at Aintree on Friday.",
    "Leonardo Jardim addresses his players at training ahead of Champions League match with "
    "Juventus.",
    "The Monaco squad warm up for training with a light jog ahead of the quarter-final "
    "against Juventus.",
    "Marouane Fellaini (left) celebrates his goal with Vincent Kompany.",
    "David Moyes looks on as his team showed uncharacteristic defensive frailties.",
    "The couple wear matching trainers while on holiday in Granada, Spain, in 2011 .",
    "Manchester United celebrate after the goal.",
    "Kraigg Brathwaite is given out as England players celebrate the wicket.",
])
def test_a_caption_written_as_a_sentence(text):
    assert is_scene_caption(text)


@pytest.mark.parametrize("text", [
    "The threat it poses to Western tourists was underlined last summer.",
    "The original pose has been imposed on a ballerina dancing on a studio.",
    "The case could pose a high-profile test of the Justice Department's ability.",
    "The incident caused waves in Dallas' Muslim community.",
    "I applaud the Pettits for stepping up and refusing to blindly defend their son.",
    "Their smiles, I'll never forget their smiles.",
    "McCoy celebrated his 4,000th winner at Towcester in November.",       # past tense
    "Hamilton looks set to start from pole on Sunday.",                    # not a pose
    "'I celebrate every win,' McCoy says.",                               # speech
    "Yahoo celebrates a decade online.",                                   # BBC headline
    "Kane is seen as the favourite to start on Saturday.",
    "The attachment on the e-mail poses as an electronic Christmas card.",
])
def test_news_is_no_caption(text):
    assert not is_scene_caption(text)


def _sentence(text):
    words = tuple(w.lower() for w in text.split())
    return CandidateSentence(0, text, len(words), words, ())


def test_the_story_rule_reads_daily_mail_pages_and_unknown_ones():
    caption = _sentence("Shaneah Jenkins sits next to Lloyd's mother in the courtroom.")
    why = first_rejection(STORY_RULES, caption, Context(frozenset(), frozenset()))
    assert why is not None and why.reason == "caption"
    for source in ("dailymail", "unknown"):
        why = first_rejection(STORY_RULES, caption, Context(frozenset(), frozenset(),
                                                            source=source))
        assert why is not None and why.reason == "caption"
    for source in ("cnn", "bbc"):
        assert first_rejection(STORY_RULES, caption, Context(frozenset(), frozenset(),
                                                             source=source)) is None
