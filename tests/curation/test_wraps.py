"""Line-wrap repair (transforms/curation/wraps.py) on Daily Mail-like lines of our own,
put into the Hugging Face `cnn_dailymail` layout by the loader's transformation
(benchmarks/hf_layout.py, written from reading the loader), and read through clean."""
import collections

import pytest

from benchmarks.hf_layout import add_missing_period, story_to_row
from transforms.core.rules import Rule
from transforms.curation import wraps
from transforms.curation.clean import clean_article
from transforms.ingestion.articles import Article
from transforms.ingestion.readers import split_story


def hf(*lines: str) -> str:
    """Lines of a page as the loader joins them."""
    return story_to_row("\n\n".join(lines) + "\n\n@highlight\n\nx", "s")["article"]


def repaired(*lines: str):
    text, dropped = wraps.repair(hf(*lines))
    return text, [(line, why.reason) for line, why in dropped]


def test_the_loader_helper_does_what_the_loader_does():
    assert add_missing_period("said the") == "said the ."
    for done in ("ends.", "asks?", "quoted'", "quoted’", "quoted”", 'q"', "(bracket)",
                 "@highlight"):
        assert add_missing_period(done) == done
    assert add_missing_period("caption [left]") == "caption [left] ."   # "]" is no end
    assert add_missing_period("trailing…") == "trailing… ."
    row = story_to_row("First line\n\nSecond line.\n\n@highlight\n\nBullet one\n\n"
                       "@highlight\n\nBullet two", "abc")
    assert row == {"article": "First line . Second line.", "highlights":
                   "Bullet one .\nBullet two .", "id": "abc"}


def test_a_wrap_dot_before_a_lower_case_word_is_no_sentence_end():
    assert repaired("The neighbours said the", "couple were delighted.") == \
        ("The neighbours said the couple were delighted.", [])
    assert repaired("Experts agree. It", "is the biggest find in decades.") == \
        ("Experts agree. It is the biggest find in decades.", [])


def test_a_line_ending_where_no_sentence_can_end_goes_on():
    # a joining word, a comma, a colon before speech, a title before a name
    assert repaired("He was driven to the", "Royal Infirmary by his wife.")[0] == \
        "He was driven to the Royal Infirmary by his wife."
    assert repaired("A spokesman said:", "'We are looking into it.'")[0] == \
        "A spokesman said: 'We are looking into it.'"
    assert repaired("In a statement,", "Kent Police said the road was closed.")[0] == \
        "In a statement, Kent Police said the road was closed."
    assert repaired("The letter was sent to Mr", "Hargreaves in May.")[0] == \
        "The letter was sent to Mr Hargreaves in May."


def test_inside_an_open_quotation_a_wrap_dot_is_no_sentence_end():
    text, dropped = repaired("'I will always love", "Chelsea and the fans here,' he said.")
    assert text == "'I will always love Chelsea and the fans here,' he said." and not dropped
    text, _ = repaired("He called it “the best day of", "My Life” and left.")
    assert text == "He called it “the best day of My Life” and left."


def test_a_caption_set_off_by_wrap_dots_is_dropped_and_the_sentence_end_restored():
    text, dropped = repaired(
        "Mr Holt bought the farm with his late wife in 2009",
        "Frank with one of his three grandchildren",
        "He said the land had been in the family for a century.")
    assert text == ("Mr Holt bought the farm with his late wife in 2009. He said the land had "
                    "been in the family for a century.")
    assert dropped == [("Frank with one of his three grandchildren", "wrap_caption")]


def test_a_caption_after_a_full_stop_and_at_the_end_goes():
    text, dropped = repaired("The bridge reopened on Monday.",
                             "Commuters queue on the bridge at Clifton last week",
                             "Traffic was light.", "The bridge at night")
    assert text == "The bridge reopened on Monday. Traffic was light."
    assert [r for _, r in dropped] == ["wrap_caption", "wrap_caption"]


def test_a_caption_inside_a_broken_sentence_goes_and_the_sentence_is_joined():
    text, dropped = repaired("Neighbours said the", "Frank and Mary Holt at their wedding in 1961",
                             "couple were married for fifty years.")
    assert text == "Neighbours said the couple were married for fifty years."
    assert dropped == [("Frank and Mary Holt at their wedding in 1961", "wrap_caption")]


def test_a_sentence_broken_after_its_opening_phrase_is_joined_not_dropped():
    text, dropped = repaired("She retired in May.", "In the summer of 2009",
                             "Frank moved to Spain with his wife.")
    assert text == "She retired in May. In the summer of 2009 Frank moved to Spain with his wife."
    assert not dropped


def test_a_line_with_a_verb_is_a_sentence_missing_its_full_stop():
    text, dropped = repaired("The council approved the plans in March",
                             "Work will start next year.")
    assert text == "The council approved the plans in March. Work will start next year."
    assert not dropped


def test_a_sentence_start_carried_on_by_the_next_line_is_no_caption():
    text, dropped = repaired("The couple's eldest son", "was born in Leeds in 1990.")
    assert text == "The couple's eldest son was born in Leeds in 1990." and not dropped


@pytest.mark.parametrize("line", [
    "VIDEO Scroll down to watch", "Scroll down for video", "SCROLL DOWN FOR VIDEO",
    "Scroll down to see the video", "VIDEO: The moment the roof collapsed",
    "WATCH: Fans celebrate in the square"])
def test_video_lines_go(line):
    text, dropped = repaired("The roof fell in on Sunday.", line, "Nobody was hurt.")
    assert text == "The roof fell in on Sunday. Nobody was hurt."
    assert dropped == [(line, "video_line")]


def test_real_sentence_ends_are_untouched():
    # a sentence end in the raw text has no space before its dot
    for text in ("He moved to the U.S. He said it was home.",
                 "She retired in 2009. Frank said she deserved it.",
                 "The trial begins on Monday... Reporters gathered outside."):
        assert not wraps.has_wrap_dots(text)
        assert wraps.repair(text) == (text, [])
    text, _ = repaired("He moved to the U.S. He said the", "move was hard.")
    assert text == "He moved to the U.S. He said the move was hard."


def test_lines_the_loader_leaves_alone_or_marks_differently():
    # a line ending in a quote or a bracket gets no dot; "…" and "]" get one
    text, _ = repaired("It was, he said, 'the end'", "The club disagreed.")
    assert text == "It was, he said, 'the end' The club disagreed."
    assert repaired("He paused…", "Then he left.")[0] == "He paused… Then he left."
    assert repaired("He paused…", "and then he left.")[0] == "He paused… and then he left."
    assert repaired("The figure rose to 12 per cent [in 2013]", "Ministers were alarmed.")[0] \
        == "The figure rose to 12 per cent [in 2013]. Ministers were alarmed."


def test_a_caption_after_a_line_the_loader_gave_no_dot_goes():
    # the line before ends in a bracket, so the loader put no dot between the two
    text, dropped = repaired("Keepers closed the enclosure (pictured above)",
                             "Medical Center staff at the zoo in 2012", "It reopened in May.")
    assert text == "Keepers closed the enclosure (pictured above) It reopened in May."
    assert dropped == [("Medical Center staff at the zoo in 2012", "wrap_caption")]


def test_tokenised_text_is_not_the_wrap_layout():
    text = "He said , ' we will win . ' The club 's fans were n't so sure ."
    assert not wraps.has_wrap_dots(text)


def test_the_line_rules_are_named_rules_with_reasons():
    assert all(isinstance(r, Rule) for r in wraps.WRAP_LINE_RULES)
    assert [(r.name, r.reason) for r in wraps.WRAP_LINE_RULES] == [
        ("not_video_line", "video_line"), ("not_promotion", "promotion"),
        ("not_link_headline", "link_headline"), ("not_list_intro", "list_intro"),
        ("not_wrap_caption", "wrap_caption"),
        ("not_caption", "caption")]


STORY = "\n\n".join([
    "By", "Sam Greer", "PUBLISHED:", "09:12 EST, 3 March 2014", "|", "UPDATED:",
    "11:40 EST, 3 March 2014",
    "A pensioner who spent forty years restoring a steam engine said the",
    "machine would finally run again at the Bluebell Railway in Sussex this summer",
    "Ted Marsh in his workshop in Horsted Keynes",
    "Ted Marsh, 81, told the Daily Mail: 'I never thought I would see the",
    "day it moved again.'",
    "Scroll down for video",
    "The engine was built in Swindon in 1927 and pulled trains to Cornwall.",
    "It", "was withdrawn from service in 1962.",
    "@highlight", "Ted Marsh spent forty years restoring the engine",
    "@highlight", "It will run at the Bluebell Railway this summer"])
SENTENCES = (
    "A pensioner who spent forty years restoring a steam engine said the machine would "
    "finally run again at the Bluebell Railway in Sussex this summer. Ted Marsh, 81, told "
    "the Daily Mail: 'I never thought I would see the day it moved again.' The engine was "
    "built in Swindon in 1927 and pulled trains to Cornwall. It was withdrawn from service "
    "in 1962.")


def _article(paragraphs, highlights, source=None):
    return Article("x", tuple(paragraphs), tuple(highlights), source, None, "test", "t")


def test_clean_reads_the_hugging_face_row_and_the_story_alike():
    row = story_to_row(STORY, "x")
    assert " said the . machine " in row["article"] and "grandchildren" not in row["article"]
    counts = collections.Counter()
    from_row = clean_article(_article((row["article"],), row["highlights"].split("\n")),
                             dropped=counts)
    assert " ".join(from_row.paragraphs) == SENTENCES
    assert from_row.highlights == ("Ted Marsh spent forty years restoring the engine",
                                   "It will run at the Bluebell Railway this summer")
    assert counts["wrap_caption"] == 1 and counts["video_line"] == 1, counts
    assert from_row.source == "dailymail"
    paragraphs, highlights = split_story(STORY)
    story_counts = collections.Counter()
    from_story = clean_article(_article(paragraphs, highlights), dropped=story_counts)
    assert " ".join(from_story.paragraphs) == SENTENCES
    assert from_story.highlights == from_row.highlights
    assert story_counts == counts


def test_paragraphs_with_full_stops_are_not_rewrapped():
    paragraphs = ("WASHINGTON (CNN) -- The Senate voted on Tuesday.",
                  "Watch the debate in the chamber »", "The bill now goes to the House.")
    assert not wraps.broken_lines(paragraphs)
    cleaned = clean_article(_article(paragraphs, ("The Senate voted",)))
    assert cleaned.paragraphs == ("WASHINGTON (CNN) -- The Senate voted on Tuesday.",
                                  "The bill now goes to the House.")


@pytest.mark.parametrize("glued", ["VIDEO Scroll down to watch", "SCROLL DOWN FOR VIDEO",
                                   "Scroll down to see the video", "Scroll down for video"])
def test_video_lines_glued_to_text_without_wrap_dots_are_cut(glued):
    # text with no line information left (no wrap dot to tell the line)
    from transforms.curation.clean import paragraph_pieces
    pieces = paragraph_pieces(f"The roof fell in on Sunday. {glued} Nobody was hurt.", None)
    assert [p for p, why in pieces if why is None] == ["The roof fell in on Sunday.",
                                                       "Nobody was hurt."]
    assert [why.reason for _, why in pieces if why is not None] == ["scroll_line"]


def test_a_labelled_caption_on_a_line_of_its_own_goes_even_with_a_verb():
    text, dropped = repaired("Police sealed off the road on Friday.",
                             "Lurking: Smith was seen outside the house hours before the fire",
                             "He was arrested the next day.")
    assert text == "Police sealed off the road on Friday. He was arrested the next day."
    assert [r for _, r in dropped] == ["wrap_caption"]
    # speech is no label: the line goes on
    text, dropped = repaired("He said:", "'We were lucky to get out alive.'")
    assert text == "He said: 'We were lucky to get out alive.'" and not dropped


def test_a_cnn_row_loses_link_lines_headlines_and_its_closing_credits():
    story = "\n\n".join([
        "WASHINGTON (CNN) -- The Senate passed the bill on Tuesday.",
        "Senators debated late into the night.  Watch the debate in the chamber »",
        "People we've lost in 2015",
        "The House votes next week.",
        "CNN's Jane Roe contributed to this report. E-mail to a friend",
        "Copyright 2007 CNN. All rights reserved.",
        "@highlight", "The Senate passed the bill"])
    row = story_to_row(story, "c")
    counts = collections.Counter()
    cleaned = clean_article(_article((row["article"],), row["highlights"].split("\n"), "cnn"),
                            dropped=counts)
    assert cleaned.paragraphs == ("WASHINGTON (CNN) -- The Senate passed the bill on Tuesday. "
                                  "Senators debated late into the night. The House votes next "
                                  "week.",)
    assert counts["link_headline"] == 3, counts    # the link line, the title, the e-mail line
