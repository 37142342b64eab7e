"""The annotation server: the app on uvicorn, bound to 127.0.0.1 unless told otherwise.

`Server.start()` runs it on a background thread (tests, notebooks); `serve_forever()`
blocks (the CLI). The listening socket is made here, so port 0 picks a free port and
`port` tells which.
"""
import dataclasses
import logging
import socket
import threading
import time

import uvicorn

from transforms.human_filtering import model_loop
from transforms.human_filtering.app import App, ServeConfig
from transforms.human_filtering.export import read_hits


class Server:
    def __init__(self, hits_dir: str, db: str, host: str = "127.0.0.1", port: int = 0,
                 cfg: ServeConfig = ServeConfig(), max_connections: int = 1000):
        rows, manifest, template = read_hits(hits_dir)
        cfg = dataclasses.replace(cfg, gold_share=manifest.get("gold_share", 0.0),
                                  completion_code=manifest.get("prolific_completion_code"))
        answers = None
        if cfg.show_model_answer:    # model in the loop: the answers must be there
            model_loop.check_share(cfg.model_answer_share)
            answers = model_loop.read_model_answers(hits_dir)
        self.app = App(rows, manifest, template, db, cfg, answers)
        self.store = self.app.store
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, port))
        self.sock.listen(2048)
        self.host, self.port = self.sock.getsockname()[:2]
        config = uvicorn.Config(self.app.asgi, log_config=None, access_log=False,
                                lifespan="off", server_header=False, timeout_keep_alive=5,
                                limit_concurrency=max_connections, backlog=2048, http="h11")
        # uvicorn's access log writes query strings, where tokens travel: off for good
        # (the app logs method, path and status of each request itself)
        logging.getLogger("uvicorn.access").disabled = True
        self.uvicorn = uvicorn.Server(config)
        self._thread = None

    @property
    def url(self) -> str:
        host = "[%s]" % self.host if ":" in self.host else self.host
        return "http://%s:%d" % (host, self.port)

    def serve_forever(self) -> None:
        try:
            self.uvicorn.run(sockets=[self.sock])
        finally:
            self.sock.close()

    def start(self) -> "Server":
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)
        self._thread.start()
        while not self.uvicorn.started:
            if not self._thread.is_alive():
                raise RuntimeError("the server stopped while starting")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.uvicorn.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
