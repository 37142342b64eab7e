"""Passage-query-answers generation (paper section 3.2): passages, the sentence rules, cloze
queries.

- `cloze`: Cloze query generation (paper section 3.2, step 4): one query per entity mention ...
- `generate`: GenerateClozeQueries: passages -> sentences -> cloze queries (paper section 3.2)
- `passages`: Passage building (paper section 3.2, steps 1-2)
- `sentences`: Sentence selection (paper section 3.2, step 3)
- `stage`: The generate stage: news articles -> cloze candidates (paper sections 3.1-3.2)
"""
