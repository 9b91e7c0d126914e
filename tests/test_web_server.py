"""The page's server stops cleanly however it is closed: twice, from two threads at once,
or after its loop has ended."""

from __future__ import annotations

import threading
import urllib.request

from flask import Flask

from web.server import make_server


def test_a_server_closed_from_two_threads_at_once_stops_without_an_error(app: Flask) -> None:
    """Two closes racing (a test's fixture and the app's own shutdown): the second may find
    the loop's wake-up pipe already closed by the first; neither raises, and the port is
    let go."""
    for _ in range(15):
        server = make_server(app, threads=2).start()
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/api/state",
                                    timeout=5) as reply:
            assert reply.status == 200
        errors: list[BaseException] = []

        def close(s=server, errors=errors) -> None:
            try:
                s.close()
            except BaseException as e:  # any error is the failure
                errors.append(e)
        both = [threading.Thread(target=close) for _ in range(2)]
        for t in both:
            t.start()
        for t in both:
            t.join(10)
        assert errors == []
        server.close()  # a third close, after the loop has ended, is harmless too
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{server.port}/", timeout=1)
            raise AssertionError("the closed server still answers")
        except OSError:
            pass
