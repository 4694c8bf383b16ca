"""Loopback HTTP servers for the tests: Python's `http.server` in a thread per server, each
serving its own robots.txt (or a status for it) and `ok` for every other path."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Union


@contextmanager
def serve(robots: Union[bytes, int]) -> Iterator[str]:
    """A server on 127.0.0.1 whose `/robots.txt` is `robots` (a body, or a status code);
    yields its origin (`http://127.0.0.1:PORT`)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            if self.path == "/robots.txt" and isinstance(robots, int):
                self.send_error(robots)
                return
            body = robots if self.path == "/robots.txt" else b"ok"
            assert isinstance(body, bytes)
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
