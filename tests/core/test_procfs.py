"""/proc readings shared by Ctrl-C handling, the trainer's memory figures and benchmarks."""
import os
import subprocess
import sys
import time

import pytest

from transforms.core import procfs

pytestmark = pytest.mark.fast   # unit tests: `python -m pytest -q -m fast`


def test_tree_finds_a_grandchild_and_memory_figures_are_plausible():
    child = subprocess.Popen([sys.executable, "-c",
                              "import subprocess, sys; subprocess.run([sys.executable, '-c', "
                              "'import time; time.sleep(30)'])"])
    try:
        for _ in range(100):
            found = procfs.tree(child.pid)
            if len(found) == 2:
                break
            time.sleep(0.1)
        assert child.pid in found and len(found) == 2, found
        assert os.getpid() not in found
        assert procfs.stat(child.pid)[0] == os.getpid()
        rss, hwm = procfs.rss_bytes(), procfs.hwm_bytes()
        assert 10 * 2**20 < rss <= hwm
    finally:
        for pid in procfs.tree(child.pid):
            os.kill(pid, 9)
        child.wait()
    assert procfs.stat(child.pid) is None and procfs.rss_bytes(child.pid) is None
