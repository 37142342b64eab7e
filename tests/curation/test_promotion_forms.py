"""Promotion forms (transforms/curation/promotions.py, `PROMOTION_FORMS`) and the page
notices beside them (notices.py): each form put into real CNN and BBC text from
../shared/corpus, in a body and as a highlight, is cut out, counted by its form, and the
story's sentences stay; news that quotes an email, a tweet or a newsletter stays."""
import collections
import json
import re

import pytest

from tests.fixtures.corpus_texts import corpus_texts
from transforms.curation.clean import clean_article
from transforms.curation.notices import strip_page_notices
from transforms.curation.promotions import (
    PROMOTION_FORMS,
    find_promotions,
    form_reasons,
    in_quotation,
    promotion_form,
)
from transforms.ingestion.articles import Article

pytestmark = pytest.mark.fast

# one line a form, the kinds the blind readers of held-out CNN and Guardian text found
# (issue 32) and real lines of fresh7/fresh8 reworded
FORM_LINES = {
    "contact_line": ["Email your story ideas and tips to CNNtips@cnn.com.",
                     "Email the reporter at jane.doe@example.com.",
                     "Send your photos to pics@bbc.co.uk and we may use them."],
    "call_to_action": ["Send us your photos and videos at ireport.com.",
                       "Share your story with us.", "Contact us at news@example.com.",
                       "You can follow Jane Smith on Twitter @janesmith.",
                       "Follow us on Instagram for more.", "Download our app for the latest news.",
                       "Sign up to receive the Morning Mail newsletter.",
                       "Get our morning briefing.", "Enter our competition now."],
    "tip_request": ["Got a tip?", "Do you have a story for our news team?"],
    "publisher_service": [
        "Every week we wrap up the must-reads from our coverage of global development.",
        "We'll send you the best stories each morning.", "We pay for your stories!",
        "Top stories delivered straight to your inbox."],
    "subscribe": ["Subscribe to CNN Underscored Deals.", "Sign up for free to keep reading."],
    "support_us": ["Support our journalism.", "Please consider supporting independent journalism."],
    "for_more": ["For more information, visit www.example.org."],
    "link_label": ["Read more: The shocking rise of house prices",
                   "Related: Why the Fed raised rates"],
    "link_marker": ["READ MORE: Japan unveils Izumo, its largest warship"],
    # a fresh11 Daily Mail highlight (round 13, readers R and S), and the same ends reworded
    "closing_call": ["Vote no on fat cat pay: Find out more", "The full squad - click here"],
    # BBC schedule notices closing held-out XSum stories (fresh26's readers), reworded
    "broadcast_notice": ["Sunday Politics Wales can be seen on BBC One Wales at 11:00 GMT on "
                         "29 November.", "Reaction Time can be heard on Radio 4 at 1130 GMT.",
                         "The full interview is on BBC Radio 5 live on Tuesday at 20:30 BST.",
                         "The programme is available on the BBC iPlayer."],
    "partner_offer": ["The Mail has teamed up with the FairPensions campaign to offer a tool "
                      "that allows you to send your views to your pension fund."],
}
# news that quotes an email, a tweet, a newsletter or a sign-up: none is a promotion
NEWS = [
    "He said in an email to CNN that he would resign.",
    "Emails obtained by the newspaper show the firm told us nothing.",
    "So far the US has refused to sign up to the Kyoto treaty.",          # BBC 2004-05
    "Download formats will now be included in the Official UK Singles Chart.",   # BBC
    "Enter Lugg, Instacart, DoorDash, GrubHub, Prime Now, and Homejoy.",  # fresh8, narrative
    "Share prices fell after @elonmusk posted at 3 a.m.",
    "Support for the measure fell to 40% in our poll.",
    "Mr Elgindy drove share prices lower by spreading negative publicity via his newsletter.",
    "'Follow us on Twitter,' the protesters chanted.",
    "He said: Find out more about it later.",                            # no line end
    "Apple has partnered with Nike to offer runners a new watch.",        # not the reader
    "The documentary was shown on BBC One on Monday.",                    # what was aired
    "He told BBC Radio 5 live's Sportsweek on Sunday that he would stay.",
    "The comet can be seen from the UK at 21:00 on Tuesday.",
    "The match will be broadcast live on BBC One, and will be held in Cardiff.",
    "Protesters could be heard on BBC Radio 4's Today programme chanting slogans.",
    "Mr Jones can be seen on Sky News footage running from the scene.",
    "The pressure is on BBC Scotland after the row on Monday.",
    "All eyes are on Sky Sports after it lost the rights on Tuesday.",
]


@pytest.mark.parametrize("form, line", [(f, x) for f, xs in FORM_LINES.items() for x in xs])
def test_each_form_is_known(form, line):
    assert promotion_form(line) == form


@pytest.mark.parametrize("line", NEWS)
def test_news_that_quotes_an_email_or_a_tweet_is_no_promotion(line):
    assert promotion_form(line) is None


def test_every_form_has_a_name_a_pattern_and_a_reason():
    names = [f.name for f in PROMOTION_FORMS]
    assert len(set(names)) == len(names)
    assert set(FORM_LINES) <= set(names)
    assert all(f.why and f.pattern.pattern for f in PROMOTION_FORMS)


def test_a_sentence_inside_a_quotation_is_skipped():
    text = 'Police said: "It was awful. You can see the damage here on our website." He left.'
    assert find_promotions(text) == []
    assert in_quotation(text, text.index("You can"))
    # a closing quote before it: outside ('RIP"Follow', XSum glued a BBC line to a quote)
    glued = 'Sir Rod was a huge loss. RIP"Follow us on Twitter @BBCNewsEnts.'
    assert [glued[s:e] for s, e in find_promotions(glued)] == [
        "Follow us on Twitter @BBCNewsEnts."]


@pytest.mark.parametrize("text, expected", [
    ("This article was amended on 3 March 2021 to correct the spelling of a name. He won.",
     "He won."),
    ("An earlier version of this story misstated his age. He is 40.", "He is 40."),
    ("This is a developing story and will be updated.", ""),
    ("Protesters march in London on Saturday. Photograph: Hannah McKay/Reuters",
     "Protesters march in London on Saturday."),
    ("Still, things look bright. A version of this review appears in print on May 11, 2014, "
     "on page AU4 of the New York edition with the headline: The Future. Order Reprints|"
     "Today's Paper|Subscribe", "Still, things look bright."),
])
def test_page_notes_on_the_page_itself_go(text, expected):
    assert strip_page_notices(text)[0] == expected


def test_the_page_s_note_inside_a_sentence_stays():
    text = "The court heard the contract was amended on 3 March. This article was read aloud."
    assert strip_page_notices(text) == (text, 0)


def _cnn_articles(corpus_dir, n=12):
    rows = [json.loads(line) for line in open(corpus_dir / "cnndm_test250.jsonl")]
    rows = [r for r in rows if r.get("source") == "cnn"][:n]
    return [(r["id"], r["article"], list(r["highlights"])) for r in rows]


def test_real_cnn_text_with_each_form_put_in_is_cleaned_and_counted_by_form(corpus_dir):
    lines = [x for f, xs in FORM_LINES.items() for x in xs if f != "tip_request"]
    counts, articles = collections.Counter(), _cnn_articles(corpus_dir)
    assert len(articles) == 12
    for i, (aid, text, highlights) in enumerate(articles):
        promo, other, bullet = (lines[(3 * i + k) % len(lines)] for k in range(3))
        # a promotion glued after the first sentence, another a paragraph of its own, a
        # third as a highlight
        first_end = next(m.end() - 1 for m in re.finditer(r"[a-z]{3}\. (?=[A-Z])", text)
                         if not in_quotation(text, m.end()))     # outside anyone's words
        body = (text[:first_end] + " " + promo + " " + text[first_end + 1:], other)
        article = Article(aid, body, tuple(highlights) + (bullet,),
                          "cnn", None, "public", "cnndm.jsonl")
        cleaned = clean_article(article, dropped=counts)
        kept = " ".join(cleaned.paragraphs)
        for line in (promo, other):
            assert line not in kept, (aid, line)
        words = " ".join(kept.split())
        assert " ".join(text[:first_end].split()[-4:]) in words     # the story's lead stays
        assert " ".join(text[first_end:].split()[:6]) in words      # and the sentence after
        assert cleaned.highlights == tuple(h.strip() for h in highlights) or \
            len(cleaned.highlights) >= len(highlights) - 1
        assert bullet not in cleaned.highlights
    by_form = {k: v for k, v in counts.items() if k.startswith("promotion_form.")}
    dropped = counts["promotion"] + counts["highlight_promotion"] + counts["boilerplate"]
    assert sum(by_form.values()) == counts["promotion"] + counts["highlight_promotion"]
    assert dropped >= 3 * len(articles), counts
    assert {"promotion_form." + f for f in FORM_LINES if f != "tip_request"} - set(by_form) \
        <= {"promotion_form.link_label", "promotion_form.closing_call"}, by_form
    # a "Read more:" line alone is boilerplate; a closing call glued inside a paragraph
    # ends no line there and may be counted under another reason


def test_form_reasons_name_the_form_of_a_promotion_only():
    from transforms.core.rules import first_rejection
    from transforms.curation.clean import PIECE_RULES, PROMOTION, Piece
    assert form_reasons("Got a tip?", PROMOTION) == ["promotion_form.tip_request"]
    why = first_rejection(PIECE_RULES, "Getty Images", Piece("cnn", True))
    assert form_reasons("Getty Images", why) == []


# the new forms' hits on the real corpus (cnndm_test250, BBC 2004-05, CNN stories), read
# one by one: each a line the page addressed to its reader
NEW_FORMS = {"contact_line", "tip_request", "publisher_service", "subscribe", "support_us",
             "for_more", "link_label"}
CORPUS_HITS = ["For more information, visit thepromise.sja.org.uk."]


def test_the_new_forms_find_only_promotions_in_the_real_corpus(corpus_dir):
    hits = []
    for text in corpus_texts(corpus_dir):
        for paragraph in text.split("\n"):
            hits += [paragraph[s:e].strip() for s, e in find_promotions(paragraph)
                     if promotion_form(paragraph[s:e]) in NEW_FORMS]
    assert hits == CORPUS_HITS


@pytest.mark.parametrize("line", [
    "Tap water in our town is safe, officials said.", "Vote counting in our state went on.",
    "Follow-up talks will be held here next week.", "Share prices in our region fell."])
def test_a_verb_read_as_a_noun_is_no_call_to_action(line):
    assert promotion_form(line) is None


def test_bbc_s_local_line_glued_to_the_next_sentence_ends_at_its_place():
    # fresh7's XSum form, reworded: the line and the sentence glued with no space
    text = ("Follow updates on this story and other news from EssexA woman who lives near "
            "the prison said she had heard shouting.")
    assert [text[s:e] for s, e in find_promotions(text)] == [
        "Follow updates on this story and other news from Essex"]


def test_a_promotion_broken_over_highlight_lines_goes_once_joined():
    """A Daily Mail promotion cut into four @highlight lines (fresh11, reworded): each line
    alone is none, the joined bullet is, and it is counted by its form."""
    from transforms.curation.highlights import clean_highlights
    lines = ["Investors back the move as shares jump 5 per cent",
             "The Mail has teamed up with",
             "the FairPensions campaign to offer a tool that allows you to send your views to",
             "your pension fund or ISA provider. Vote no on fat cat pay: Find out", "more"]
    assert [promotion_form(x) for x in lines[1:]] == [None] * 4
    dropped = collections.Counter()
    kept = clean_highlights(lines, dropped)
    assert kept == ("Investors back the move as shares jump 5 per cent",)
    assert dropped["highlight_promotion"] == 1 and dropped["promotion_form.partner_offer"] == 1
