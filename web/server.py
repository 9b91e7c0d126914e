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
reached, when the oldest spectator's stream gives way to the new one (a phone with the
table's token is never pushed off by a spectator), so the threads never run out.

A stranger on the Wi-Fi must not stall the table by opening connections and sending
nothing, or one header line every few seconds (a "slow loris"). waitress reads requests
without a thread per connection; :class:`TableServer` adds what it lacks:

* at most ``PER_ADDRESS`` connections from one address (a phone's browser opens about
  six); more are closed as they arrive, so one visitor cannot fill ``connection_limit``;
* a request must arrive whole (headers and body) within ``REQUEST_SECONDS`` of its first
  byte, and a connection with nothing to do is closed after ``channel_timeout``, checked
  every ``cleanup_interval``; a live stream is a request in progress and is never cut.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from typing import Any

from flask import Flask
from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

from web.context import stop_streams

log = logging.getLogger("kotd.server")

PER_ADDRESS = 24
"""Connections one address may hold open at once (a phone's browser opens about six)."""

REQUEST_SECONDS = 10.0
"""A request (headers and body) must have arrived whole this long after its first byte."""

SERVER_OPTIONS: dict[str, Any] = {
    "channel_timeout": 20,  # idle connections; a live stream is a request, never idle
    "cleanup_interval": 2,  # how often idle and slow connections are looked for
    "channel_request_lookahead": 4,  # lets a stream ask "is the client still there?"
    "connection_limit": 500,  # below the 1024 files a process may open
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


class TableServer(TcpWSGIServer):  # type: ignore[misc]
    """waitress's TCP server with a per-address connection limit and a deadline for a
    request to arrive (see the module's text)."""

    per_address = PER_ADDRESS
    request_seconds = REQUEST_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._partial_since: dict[tuple[int, int], float] = {}
        self._refused_logged = 0.0
        super().__init__(*args, **kwargs)

    def handle_accept(self) -> None:
        try:
            pair = self.accept()
        except OSError:
            return
        if pair is None:
            return
        conn, addr = pair
        host = addr[0] if isinstance(addr, tuple) else ""
        held = sum(1 for channel in list(self.active_channels.values())
                   if isinstance(channel.addr, tuple) and channel.addr[0] == host)
        if held >= self.per_address:
            conn.close()  # this address holds enough: the phones' share is kept
            now = time.monotonic()
            if now - self._refused_logged > 60:
                self._refused_logged = now
                log.warning("%s holds %d connections: more are refused", host, held)
            return
        self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)

    def maintenance(self, now: float) -> None:
        """Close idle connections (waitress) and those whose request is still arriving
        ``request_seconds`` after its first byte."""
        super().maintenance(now)
        seen = {}
        for fd, channel in list(self.active_channels.items()):
            if channel.request is None:
                continue  # no request half-way in
            key = (fd, id(channel.request))
            since = seen[key] = self._partial_since.get(key, now)
            if now - since > self.request_seconds and not channel.requests:
                channel.will_close = True
        self._partial_since = seen


def create_table_server(app: Flask, host: str, port: int, threads: int,
                        **options: Any) -> TableServer:
    """A :class:`TableServer` for one listening address (as waitress's create_server);
    ``options`` are waitress's, plus ``per_address`` and ``request_seconds``."""
    per_address = options.pop("per_address", PER_ADDRESS)
    request_seconds = options.pop("request_seconds", REQUEST_SECONDS)
    adj = Adjustments(host=host, port=port, threads=threads, **options)
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    server = TableServer(app, {}, dispatcher=dispatcher, adj=adj, sockinfo=adj.listen[0])
    server.per_address = int(per_address)
    server.request_seconds = float(request_seconds)
    return server


class Server:
    """A waitress server for one app: ``run()`` blocks, ``start()`` runs it in a thread,
    ``close()`` ends the live streams and stops it. ``port`` is the port really bound."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0, threads: int = 24,
                 **options: Any) -> None:
        self.app = app
        if app.config.get("LIVE_MAX_STREAMS") is None:
            app.config["LIVE_MAX_STREAMS"] = live_stream_limit(threads)
        self._server = create_table_server(app, host, port, threads,
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
        if self._thread is not None and self._thread.is_alive():
            # closed by the loop's own thread, which then ends at once (closed from here,
            # the loop would sit in its select for up to a second first)
            with contextlib.suppress(OSError):  # pipe closed: the loop closed its map, ends
                self._server.trigger.pull_trigger(
                    lambda: wasyncore.close_all(self._server._map))
            self._thread.join(timeout)
        wasyncore.close_all(self._server._map)  # a server never started, or a stuck loop

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
