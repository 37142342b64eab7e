"""The pipeline's library, one room per stage of the paper's Figure 2, each importing only
the rooms below it (.importlinter; docs/pipeline.md, "Rooms"):

- `stages`: the stages of Figure 2 and what each reads and writes
- `builder`: the stages chained (`build`): markers, fingerprints, the lock
- `compose`: a build's configuration: defaults, then the config file, then flags
- `audit/`: the reading audit of a finished release
- `finalize/`: splits, exports, the report and the card, publishing (section 3.4)
- `human_filtering/`: human validation (section 3.4)
- `machine_filtering/`: the adversarial filter and the release rules (section 3.3)
- `quality/`: item flags and cues (shared by the release rules and the card)
- `generation/`: passages, sentences, queries (section 3.2)
- `curation/`: cleaning, entities, coreference (section 3.1)
- `ingestion/`: input layouts and readers (Figure 2, "read")
- `core/`: what every room shares
"""
