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


# ---- Daily Mail clean-up (issue 12) ----------------------------------------------------
from transforms.curation.clean import caption_labels, split_captions, strip_photo_positions  # noqa: E402


def test_last_updated_behind_a_byline_goes_too():
    # the "Last updated" rule used to run before the byline was removed
    text = "By . Mail Foreign Service . Last updated at 11:21 AM on 8th November 2011 . A man."
    assert strip_dailymail_byline(text) == "A man."
    text = "Last updated at 5:34 PM on 7th January 2012 . By . Tom Smith . A man."
    assert strip_dailymail_byline(text) == "A man."
    text = ("By . Sam Webb . and Ian Drury . PUBLISHED: . 14:11 EST, 25 October 2013 . | . "
            "UPDATED: . 14:11 EST, 25 October 2013 . A man.")
    assert strip_dailymail_byline(text) == "A man."
    assert strip_dailymail_byline("By . Tom Smith") == ""   # a byline-only paragraph


def test_byline_over_several_paragraphs():
    a = clean_article(art(["By . Daily Mail Reporter .", "Last updated at 5:34 PM on 7th "
                           "January 2012 .", "A man was arrested on Monday."]))
    assert a.paragraphs == ("A man was arrested on Monday.",)


def test_photo_positions_are_dropped():
    text = ("Smith (pictured) and Jones (far left) met Bob (pictured with his wife in 2014) "
            "and (left to right) Ann (centre), Tom (above) and Sue (below, right).")
    assert strip_photo_positions(text) == "Smith and Jones met Bob and Ann, Tom and Sue."
    # a real parenthesis stays
    assert strip_photo_positions("Rhone Transit (RT) said") == "Rhone Transit (RT) said"


def test_caption_labels_and_scroll_down_split_the_paragraph():
    # real Daily Mail text (cnndm_test250): captions glued to the body, no paragraph breaks
    text = ("according to People's Daily Online. Scroll down for video Flying high: Half of "
            "the kite took to the sky in Chongqing last Saturday Skilful: The kite weighs 200 "
            "kilograms")
    assert split_captions(text) == [
        "according to People's Daily Online.",
        "Half of the kite took to the sky in Chongqing last Saturday",
        "The kite weighs 200 kilograms"]
    text = ("it is she does.' Scroll down for video Strictly business: Julia Louis-Dreyfus "
            "covers the supplement Short and sweet: Julia revealed that")
    assert split_captions(text) == ["it is she does.'", "Julia Louis-Dreyfus covers the "
                                    "supplement", "Julia revealed that"]


def test_speech_and_titles_are_not_caption_labels():
    for text in ("Prudential specialist Clare Moffat said: 'Although the emotional impact",
                 "Babineau told the Minneapolis Star-Tribune: On the way down, he thought",
                 "He added: 'It was fine.'", "The message was clear: We will win.",
                 'a pub or see the horror film "Hostel: Part II," currently six places'):
        assert caption_labels(text) == [], text
    assert split_captions("Mr Wang said: 'Big kites are fine.' Watch the video: In a CNN "
                          "exclusive, Alisyn looked.") == [
        "Mr Wang said: 'Big kites are fine.'", "In a CNN exclusive, Alisyn looked."]


def test_real_daily_mail_articles_are_clean(corpus_dir):
    import json
    rows = [json.loads(line) for line in open(corpus_dir / "cnndm_test250.jsonl")]
    raw = sum(("Scroll down" in r["article"]) + ("(pictured)" in r["article"]) for r in rows)
    assert raw > 50   # the artefacts are there before cleaning
    for r in rows:
        a = Article(r["id"], (r["article"],), tuple(r["highlights"]), r["source"], r["url"],
                    "public", "cnndm_test250.jsonl")
        cleaned = clean_article(a)
        for p in cleaned.paragraphs:
            for junk in ("Scroll down", "(pictured)", "(left)", "(right)", "(centre)"):
                assert junk not in p, (r["id"], p)
            assert not p.startswith(("Strictly business:", "Flying high:")), p


def test_publisher_footer_lines_are_boilerplate():
    from transforms.curation.clean import is_boilerplate
    assert is_boilerplate("© 2019 Science X Network")            # Phys.org
    assert is_boilerplate("Our Standards: The Thomson Reuters Trust Principles.")   # Reuters
    assert not is_boilerplate("The club won 2019 matches in all.")
