"""The Hugging Face `cnn_dailymail` loader's transformation of an rc-data `.story` file,
written for the tests and the quality benchmark from reading the loading script (`_get_art_abs`,
`fix_missing_period`, END_TOKENS), so the tests can make rows in the layout most users
hold from `.story` text: each line stripped; " ." appended to a line whose last character
is none of `. ! ? ' ` " ’ ”` or `)` (an `@highlight` line and an empty line are left
alone); empty lines skipped; the lines after an `@highlight` marker are highlights, the
others the article; the article joined with single spaces, the highlights with newlines
(version 3.0.0). Exports keep the columns `article`, `highlights`, `id` (the story hash)."""
import csv
import pathlib

# the loader's "acceptable ways to end a sentence" (its "..." can never equal one character)
LOADER_END_CHARACTERS = set(".!?'`\"") | {"\u2019", "\u201d", ")"}


def add_missing_period(line: str) -> str:
    if "@highlight" in line or line == "" or line[-1] in LOADER_END_CHARACTERS:
        return line
    return line + " ."


def story_to_row(text: str, story_id: str) -> dict:
    """One .story text -> {"article", "highlights", "id"} as the loader yields it."""
    article, highlights, highlight_next = [], [], False
    for raw in text.splitlines():
        line = add_missing_period(raw.strip())
        if not line:
            continue
        if line.startswith("@highlight"):
            highlight_next = True
        elif highlight_next:
            highlights.append(line)
        else:
            article.append(line)
    return {"article": " ".join(article), "highlights": "\n".join(highlights), "id": story_id}


def write_csv(stories, path) -> pathlib.Path:
    """The .story files `stories` as a CSV export of the loader's rows."""
    path = pathlib.Path(path)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=["article", "highlights", "id"])
        w.writeheader()
        for story in stories:
            story = pathlib.Path(story)
            w.writerow(story_to_row(story.read_text(encoding="utf-8"), story.stem))
    return path
