"""ReCoRD's own figures, measured with this project's code on real ReCoRD files.

Written by `python -m benchmarks.record_reference --write` (see that module for the sources);
do not edit by hand.
"""

RECORD_REFERENCE = {'method': "measured by benchmarks/record_reference.py with the hardness report's code "
           '(models.hardness, record_metric, bootstrap: 95% Poisson bootstrap, 1000 '
           'replicates, seeded by query id)',
 'paper': {'entities_per_passage_dev': 17.5,
           'source': 'Zhang et al. 2018, Table 1 (all of ReCoRD dev)'},
 'sources': [{'group': 'dev',
              'file': 'examples.json',
              'origin': 'github:sheng-z/ReCoRD-explorer@a029c2efcd18929152dc93a9fbb7d1659a034f23 '
                        "dataset/examples.json: the official ReCoRD explorer's 123 dev "
                        'examples',
              'sha256': '06142dd0e3c609e1071baf09e90b968ec125334d8c5ff90c820969862f2245da',
              'passages': 123,
              'queries': 123},
             {'group': 'dev',
              'file': 'allennlp_models_record.json',
              'origin': '../shared/corpus/record_format (allenai/allennlp-models test '
                        'fixture): 2 dev passages',
              'sha256': 'b62a9f4ca798e6a21cfb33f6b9bfc23db14d559900a6435183f9376352d90361',
              'passages': 2,
              'queries': 2},
             {'group': 'train',
              'file': 'ReCoRD_train.jsonl',
              'origin': 'github:timoschick/fewglue@f52d9515de38cad663869c9e25b79107cda1d345 '
                        'FewGLUE/ReCoRD/train.jsonl: 32 SuperGLUE train lines',
              'sha256': '22bbee303ffd8e2c29f36d253c14a1c3d072ceab18c31481cea8ba3ea28d89ca',
              'passages': 32,
              'queries': 32},
             {'group': 'train',
              'file': 'ReCoRD_dev32_P-tuning.jsonl',
              'origin': 'github:THUDM/P-tuning@f4225d4d8003868b31ed659dfe9732a351ad42d9 '
                        'FewGLUE_32dev/ReCoRD/dev32.jsonl: 32 other SuperGLUE train lines',
              'sha256': 'c420c9c49ee310d8648e64893c72b8f69b94085d3207c303787c24409c438663',
              'passages': 32,
              'queries': 32},
             {'group': 'train',
              'file': 'train.jsonl',
              'origin': '../shared/corpus/record_format (huggingface/datasets dummy data): '
                        'SuperGLUE train lines',
              'sha256': '44734ca614e434461e0a46c3ecdcb9d38ce0b40de3b11525a89dfb7456af06f2',
              'passages': 3,
              'queries': 9}],
 'dev': {'passages': 125,
         'queries': 125,
         'entities_per_passage': 16.9,
         'clusters_per_passage': 9.0,
         'most_frequent_share': 0.344,
         'most_frequent_share_ci95': [0.259, 0.426],
         'most_frequent_em': 32.8,
         'most_frequent_em_ci95': [24.4, 41.1],
         'most_frequent_f1': 34.5,
         'most_frequent_f1_ci95': [26.1, 42.6],
         'first_entity_em': 11.2,
         'first_entity_em_ci95': [5.9, 17.2],
         'random_expected_em': 16.4,
         'random_expected_em_ci95': [14.8, 18.0]},
 'train': {'passages': 67,
           'queries': 73,
           'entities_per_passage': 17.9,
           'clusters_per_passage': 10.1,
           'most_frequent_share': 0.205,
           'most_frequent_share_ci95': [0.118, 0.294],
           'most_frequent_em': 19.2,
           'most_frequent_em_ci95': [11.0, 28.2],
           'most_frequent_f1': 19.6,
           'most_frequent_f1_ci95': [11.3, 28.6],
           'first_entity_em': 4.1,
           'first_entity_em_ci95': [0.0, 9.3],
           'random_expected_em': 13.4,
           'random_expected_em_ci95': [11.9, 15.0]}}
