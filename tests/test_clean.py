from transforms.curation.articles import Article
from transforms.curation.clean import (CleanConfig, clean_article, fix_dateline, infer_source,
                              is_boilerplate, normalise_whitespace, strip_dailymail_byline,
                              strip_link_lines, strip_trailing_credit, undo_ptb_escapes)


def art(paragraphs, highlights=("A bullet",), **kw):
    base = dict(article_id="a1", source=None, url=None, origin="public", source_file="f")
    base.update(kw)
    return Article(paragraphs=tuple(paragraphs), highlights=tuple(highlights), **base)


def test_link_lines_are_dropped():
    text = 'He spoke in September.  Watch Bush criticize the Iraqi government »'
    assert strip_link_lines(text) == "He spoke in September."
    assert strip_link_lines("See photos of the rescue mission »") == ""


def test_dailymail_byline_is_dropped():
    text = ("By . Daily Mail Reporter . PUBLISHED: . 14:11 EST, 25 October 2013 . | . "
            "UPDATED: . 14:11 EST, 25 October 2013 . A man was arrested.")
    assert strip_dailymail_byline(text) == "A man was arrested."
    assert strip_dailymail_byline("By . Tom Smith . A man was arrested.") == "A man was arrested."
    assert strip_dailymail_byline("A man was arrested.") == "A man was arrested."


def test_whitespace_and_ptb_escapes():
    assert normalise_whitespace("a\u00a0 b \t c ") == "a b c"
    assert undo_ptb_escapes("6 km -LRB- 3.7 miles -RRB-") == "6 km ( 3.7 miles )"


def test_dateline_gets_its_space():
    assert fix_dateline("(CNN)The French") == "(CNN) The French"
    assert fix_dateline("Marseille, France (CNN)The") == "Marseille, France (CNN) The"
    assert fix_dateline("WASHINGTON (CNN) -- As") == "WASHINGTON (CNN) -- As"


def test_boilerplate_paragraphs():
    for p in ("E-mail to a friend", "Scroll down for video",
              "CNN's Margot Haddad reported from Marseille and Pamela Brown from Dusseldorf.",
              "CNN.com senior producer Wayne Drash contributed to this report in Atlanta.",
              "Copyright 2007 Reuters. All rights reserved."):
        assert is_boilerplate(p), p
    assert not is_boilerplate("The mayor said the bridge would reopen on Monday.")
    # a long paragraph that merely ends with a credit is not boilerplate
    assert not is_boilerplate("word " * 80 + "CNN's X reported from Paris.")


def test_trailing_credit_of_one_paragraph_article():
    text = 'It is over. "Yes," he said. CNN\'s Ann Lee contributed to this report.'
    assert strip_trailing_credit(text) == 'It is over. "Yes," he said.'


def test_source_inference():
    assert infer_source(art(["x"], source="Daily Mail")) == "dailymail"
    assert infer_source(art(["x"], url="http://www.cnn.com/2015/x")) == "cnn"
    assert infer_source(art(["x"]), "WASHINGTON (CNN) -- As") == "cnn"
    assert infer_source(art(["x"]), "By . Tom . PUBLISHED: . 1 May") == "dailymail"
    assert infer_source(art(["x"]), "Nothing here") == "unknown"


def test_clean_article_reasons():
    assert clean_article(art([], ())) ["reason"] == "empty_article"
    assert clean_article(art(["  E-mail to a friend "], ())) ["reason"] == "empty_article"
    assert clean_article(art([], ("h",)))["reason"] == "only_highlights"
    assert clean_article(art(["Body."], ()))["reason"] == "no_highlights"
    big = clean_article(art(["x" * 200], ()), CleanConfig(max_article_chars=100))
    assert big["reason"] == "article_too_long"


def test_clean_article_output():
    a = clean_article(art(["(CNN)The  text.  Watch this »", "E-mail to a friend"]))
    assert a.paragraphs == ("(CNN) The text.",)
    assert a.source == "cnn"
