"""The article record that flows from reading to annotation."""
from dataclasses import dataclass, replace
from typing import Optional


@dataclass(frozen=True)
class Article:
    """A news story: body paragraphs, the editors' highlight bullets, and provenance."""
    article_id: str
    paragraphs: tuple
    highlights: tuple
    source: Optional[str]
    url: Optional[str]
    origin: str
    source_file: str
    title: Optional[str] = None   # where the input has one (web pages, BBC text)
    date: Optional[str] = None    # publication date, ISO 8601, where known

    def with_(self, **changes) -> "Article":
        return replace(self, **changes)

    @property
    def n_chars(self) -> int:
        return sum(len(p) for p in self.paragraphs) + sum(len(h) for h in self.highlights)
