"""The HTML pages and the QR code through Flask's test client."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from webkit import START, TOKEN, FakeEye, new_app, new_table

from web.i18n import LANGS, STRINGS

PAGES = ["/", "/scores", "/setup", "/history"]


def strings_of(html: str) -> dict:
    found = re.search(r'<script id="strings" type="application/json">(.*?)</script>', html, re.S)
    assert found
    return json.loads(found.group(1))


@pytest.mark.parametrize("path", PAGES)
def test_every_page_is_a_skeleton_with_its_script_and_strings(client: FlaskClient,
                                                              path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200 and response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert '<html lang="en">' in html and "/static/app.js" in html and "/static/app.css" in html
    assert strings_of(html) == STRINGS["en"]
    assert "http://" not in html and "https://" not in html  # nothing from outside the table
    assert "built-in method" not in html and "bound method" not in html  # a label, not code
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["Referrer-Policy"] == "no-referrer"


@pytest.mark.parametrize("path", PAGES)
def test_pages_speak_german_and_remember_it(client: FlaskClient, path: str) -> None:
    html = client.get(path + "?lang=de").get_data(as_text=True)
    assert '<html lang="de">' in html and strings_of(html)["undo"] == "Rückgängig"
    assert "Würfelkönig" in html
    html = client.get(path).get_data(as_text=True)  # the cookie remembers the choice
    assert '<html lang="de">' in html


def test_language_from_the_browser(client: FlaskClient) -> None:
    html = client.get("/", headers={"Accept-Language": "de-AT,de;q=0.8,en;q=0.5"}).get_data(
        as_text=True)
    assert '<html lang="de">' in html
    html = client.get("/?lang=fr", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert '<html lang="en">' in html


def test_the_strings_are_complete_in_every_language() -> None:
    for lang in LANGS:
        assert STRINGS[lang].keys() == STRINGS["en"].keys()
        assert all(value.strip() for value in STRINGS[lang].values())


def test_static_files_are_served(client: FlaskClient) -> None:
    assert client.get("/static/app.js").status_code == 200
    assert b"NoSleep" in client.get("/static/nosleep.min.js").data  # the screen kept awake
    css = client.get("/static/app.css").get_data(as_text=True)
    assert "@import" not in css and "url(http" not in css
    assert client.get("/static/nothing.js").status_code == 404


def test_unknown_pages_are_404_html(client: FlaskClient) -> None:
    response = client.get("/nowhere")
    assert response.status_code == 404 and response.mimetype == "text/html"


def test_qr_code_only_with_the_token(client: FlaskClient) -> None:
    response = client.get("/qr.svg")
    assert response.status_code == 403 and "token" in response.get_json()["error"]
    assert client.get("/qr.svg?token=wrong").status_code == 403
    response = client.get(f"/qr.svg?token={TOKEN}")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.get_data(as_text=True).startswith("<svg")
    assert client.get("/qr.svg", headers={"X-Table-Token": TOKEN}).status_code == 200


def test_qr_code_points_at_the_public_url_with_the_token(tmp_path: Path) -> None:
    app = new_app(new_table(tmp_path),
                     config={"PUBLIC_URL": "http://kotd.local:8000"})
    with app.test_request_context("/qr.svg"):
        from web.pages import page_url, qr_svg
        assert page_url() == "http://kotd.local:8000/"
        expected = qr_svg(f"http://kotd.local:8000/?token={TOKEN}")
    svg = app.test_client().get(f"/qr.svg?token={TOKEN}").data
    assert svg == expected
    assert svg.startswith(b"<svg") and b'xmlns="http://www.w3.org/2000/svg"' in svg
    assert qr_svg("http://kotd.local:8000/?token=other") != svg


def test_qr_code_from_the_pis_own_screen_points_at_the_network(
        client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from web import pages

    monkeypatch.setattr(pages, "_lan_address", lambda: "192.168.1.20")
    with client.application.test_request_context("/qr.svg", base_url="http://localhost:8000"):
        assert pages.page_url() == "http://192.168.1.20:8000/"
    with client.application.test_request_context("/qr.svg", base_url="http://kotd.lan:8000"):
        assert pages.page_url() == "http://kotd.lan:8000/"


def test_create_app_starts_no_thread(tmp_path: Path) -> None:
    import threading

    before = threading.active_count()
    new_app(new_table(tmp_path, *START), FakeEye())
    assert threading.active_count() == before
