"""Process-tree sampling for the benchmarks: CPU seconds, RSS and peak RSS (VmHWM) of a
process and its descendants, read from /proc; and waiting for a quiet machine."""
import threading
import time

from transforms.core import procfs

TICK = procfs.TICK


def machine_busy_s():
    """CPU seconds the whole machine has been busy (all cores, /proc/stat)."""
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return (sum(v) - v[3] - v[4]) / TICK
    except (OSError, IndexError, ValueError):
        return None


class TreeMonitor(threading.Thread):
    """Samples a process and all its descendants every `interval` seconds: peak of the
    summed RSS (what the job holds at once, workers included), peak RSS of any one
    process, the number of processes, and CPU seconds (last sample of each process).
    Also the machine's busy CPU seconds over the run, to tell how much other people's
    processes took (`other_cpu_s`)."""

    def __init__(self, pid, interval=0.2):
        super().__init__(daemon=True)
        self.root, self.interval = pid, interval
        self.peak_tree_rss = 0
        self.peak_proc_rss = 0
        self.peak_proc_hwm = 0
        self.runner_hwm = 0   # the process itself, apart from
        self.worker_hwm = 0   # the largest process under it
        self.max_procs = 0
        self.cpu = {}
        self.busy_start = machine_busy_s()
        self.busy_s = None
        self._stop_event = threading.Event()

    def sample(self):
        tree = procfs.tree(self.root)
        rss = {pid: procfs.rss_bytes(pid) or 0 for pid in tree}
        self.cpu.update(tree)
        self.peak_tree_rss = max(self.peak_tree_rss, sum(rss.values()))
        self.peak_proc_rss = max([self.peak_proc_rss, *rss.values()])
        hwm = {pid: procfs.hwm_bytes(pid) or 0 for pid in tree}
        self.peak_proc_hwm = max([self.peak_proc_hwm, *hwm.values()])
        self.runner_hwm = max(self.runner_hwm, hwm.get(self.root, 0))
        self.worker_hwm = max([self.worker_hwm, *(v for pid, v in hwm.items() if pid != self.root)])
        self.max_procs = max(self.max_procs, len(tree))

    def run(self):
        while not self._stop_event.is_set():
            self.sample()
            self._stop_event.wait(self.interval)

    def stop(self):
        self._stop_event.set()
        self.join()
        end = machine_busy_s()
        if end is not None and self.busy_start is not None:
            self.busy_s = end - self.busy_start

    @property
    def cpu_s(self):
        return sum(self.cpu.values())


def wait_quiet(max_wait_s, window_s=3.0, max_other_cores=0.2, log=print) -> float:
    """Wait (up to `max_wait_s`) until other processes keep fewer than `max_other_cores`
    cores busy over a `window_s` window; returns the other cores of the last window. On a
    shared machine this keeps parallel runs from measuring other people's jobs."""
    deadline = time.monotonic() + max_wait_s
    other = None
    while True:
        start = machine_busy_s()
        mine = time.process_time()
        time.sleep(window_s)
        end = machine_busy_s()
        if start is None or end is None:
            return None
        other = max(end - start - (time.process_time() - mine), 0.0) / window_s
        if other < max_other_cores or time.monotonic() >= deadline:
            if other >= max_other_cores:
                log(f"  machine still busy ({other:.2f} cores taken by others): running anyway")
            return other



def _children_usage():
    import resource
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


