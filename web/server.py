"""Serving the page with waitress (a pure-Python production WSGI server).

Each open live stream (one per phone) holds one waitress thread for as long as the
phone watches, so ``threads`` must cover every phone plus spare for the page's other
requests: ``kotd serve`` runs 64 threads, so 54 phones stay live at once with 10 threads
kept for pages and actions (``live_stream_limit``). A waiting stream costs a sleeping
thread (measured: 50 live phones add about 1% of one core and 10 MB on this machine,
BENCHMARKS.md). Streams notice a gone client within ``LIVE_POLL_SECONDS`` (waitress's
``client_disconnected``, enabled by ``channel_request_lookahead``) and end. A phone that
vanishes without hanging up (Wi-Fi gone) is not noticed that way: its stream lasts until
``LIVE_MAX_SECONDS``, until the same address opens more than
``LIVE_STREAMS_PER_ADDRESS`` streams (the phone came back), or until the stream limit is
reached, when the oldest stream gives way to the new one, so the threads never run out.
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask
from waitress import wasyncore
from waitress.server import create_server

from web.context import stop_streams

SERVER_OPTIONS: dict[str, Any] = {
    "channel_timeout": 60,  # idle connections; live streams write a heartbeat every 15 s
    "channel_request_lookahead": 4,  # lets a stream ask "is the client still there?"
    "connection_limit": 200,
    "ident": "kotd",
    "clear_untrusted_proxy_headers": True,
    # a stranger's body is refused while its headers arrive (413), never spooled to a
    # temporary file: the app reads at most web.guard.MAX_BODY_BYTES, phones send less
    "max_request_body_size": 64 * 1024,
    "max_request_header_size": 32 * 1024,
}


def live_stream_limit(threads: int) -> int:
    """Live streams allowed with ``threads`` waitress threads: the rest stay free for
    pages and actions (24 threads: 20 streams and 4 spare)."""
    return max(1, threads - max(2, threads // 6))


class Server:
    """A waitress server for one app: ``run()`` blocks, ``start()`` runs it in a thread,
    ``close()`` ends the live streams and stops it. ``port`` is the port really bound."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0, threads: int = 24,
                 **options: Any) -> None:
        self.app = app
        if app.config.get("LIVE_MAX_STREAMS") is None:
            app.config["LIVE_MAX_STREAMS"] = live_stream_limit(threads)
        self._server = create_server(app, host=host, port=port, threads=threads,
                                     **{**SERVER_OPTIONS, **options})
        self.host = str(self._server.effective_host)
        self.port = int(self._server.effective_port)
        self._thread: threading.Thread | None = None
        self._closing = False

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def run(self) -> None:
        try:
            self._server.run()
        except OSError:
            if not self._closing:  # close() shuts the sockets under the loop's select
                raise

    def start(self) -> Server:
        self._thread = threading.Thread(target=self.run, name="kotd-waitress", daemon=True)
        self._thread.start()
        return self

    def close(self, timeout: float = 5.0) -> None:
        self._closing = True
        stop_streams(self.app)
        self._server.task_dispatcher.shutdown(timeout=timeout)
        wasyncore.close_all(self._server._map)
        if self._thread is not None:
            self._thread.join(timeout)

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def make_server(app: Flask, host: str = "127.0.0.1", port: int = 0, threads: int = 24,
                **options: Any) -> Server:
    """A server not yet running: ``.start()`` (thread) or ``.run()``; ``.close()`` stops."""
    return Server(app, host, port, threads, **options)


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8000, threads: int = 24,
          **options: Any) -> None:
    """Serve until interrupted (Ctrl-C or SIGTERM ends the live streams first)."""
    server = make_server(app, host, port, threads, **options)
    print(f"kotd: serving the table page on http://{host}:{server.port}/", flush=True)
    try:
        server.run()
    finally:
        stop_streams(app)
