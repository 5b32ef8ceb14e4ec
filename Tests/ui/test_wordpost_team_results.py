"""A team game of Buchstaben Post between two pupils' laptops, each signed
in to the school server: Mia hosts, Ole joins by code, and after a round
Mia ends the game. Her laptop records the round for both players and
files Ole's under Ole's account: the teacher finds it on Ole's page of the
web gallery and under his name in the class's games.csv, and Mia's page
keeps only hers."""
import csv
import http.cookiejar
import io
import json
import re
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

from harness import (ACCEPT_GREEN, DESTRUCTIVE_RED, App, Display, EMPTY_SLOT, SUGGESTED_BLUE, TILE_YELLOW, blobs, centre, find_color,
                     press_home_button, wait_for)
from test_relay_join import signed_in
from test_wordpost_together import TRAIN_RED, actions_button

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer, call  # noqa: E402


class Browser:
    """The teacher's browser on the web gallery: cookies kept, forms sent."""

    def __init__(self, port, language=None):
        self.base = f"http://127.0.0.1:{port}"
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        if language:
            self.opener.addheaders.append(("Accept-Language", language))

    def get(self, path):
        with self.opener.open(self.base + path, timeout=30) as answer:
            return answer.read().decode()

    def post(self, path, fields):
        data = urllib.parse.urlencode(fields).encode()
        with self.opener.open(urllib.request.Request(self.base + path, data=data, method="POST"), timeout=30) as answer:
            return answer.read().decode()

    def sign_in(self, name, password):
        page = self.get("/gallery/signin")
        token = re.search(r'name="form" value="([0-9a-f]+)"', page)[1]
        self.post("/gallery/signin", {"form": token, "name": name, "password": password})


def test_each_players_round_of_a_team_game_is_filed_under_them(display, tmp_path):
    server = SchoolServer(Path(tempfile.mkdtemp())).start()
    second = Display().start()
    mia = ole = None
    env = {"TEAMSKETCH_SOUNDS": "0"}
    try:
        teacher = server.sign_in()["token"]
        klass = call(server.port, "POST", "/classes", teacher, {"name": "2b"})["id"]
        tokens = {}
        for name in ["Mia", "Ole"]:
            pupil = call(server.port, "POST", f"/classes/{klass}/pupils", teacher, {"name": name})["id"]
            call(server.port, "PUT", f"/pupils/{pupil}/picture-password", teacher, {"pictures": [1, 2, 3]})
            answer = call(server.port, "POST", "/sign-in/pupil", body={"pupilId": pupil, "pictures": [1, 2, 3]})
            tokens[name] = dict(answer, classId=klass, id=pupil)
            (tmp_path / name).mkdir()
            signed_in(tmp_path / name, server.url, tokens[name], name)
            # The picture sign-in also names the laptop's pupil.
            (tmp_path / name / "config" / "teamsketch" / "profile.json").write_text(json.dumps({"name": name}))

        mia = App(display, tmp_path / "Mia", extra_env=env)
        press_home_button(mia, 4)                  # Buchstaben Post
        mia.click(*actions_button(mia, 1))               # Play together
        code = wait_for(lambda: re.search(r"hosting: code=(\d{6})", mia.read_log()), what="the join code")[1]

        ole = App(second, tmp_path / "Ole", extra_env=env)
        press_home_button(ole, 4)
        ole.click(*actions_button(ole, 2))               # Join
        time.sleep(0.5)
        ole.type(code)
        ole.key("Return")
        mia.click(*centre(wait_for(lambda: find_color(mia.screenshot("wpteam-lobby"), ACCEPT_GREEN, tol=30),
                                   what="Ole in Mia's lobby")))
        time.sleep(0.5)
        mia.click(*centre(find_color(mia.screenshot("wpteam-ready"), SUGGESTED_BLUE, tol=25)))

        def game_screen(app, name):
            shot = app.screenshot(name)
            tiles, trains = blobs(shot, TILE_YELLOW), blobs(shot, TRAIN_RED, tol=20)
            return shot if tiles and trains and blobs(shot, EMPTY_SLOT) else None
        wait_for(lambda: game_screen(ole, "wpteam-ole-game"), what="Ole's game")
        wait_for(lambda: game_screen(mia, "wpteam-mia-game"), what="Mia's game")
        time.sleep(2.0)                                  # a round that lasted a little

        # Mia ends the game ("End the game", then "End").
        mia.click(45, 60)
        time.sleep(0.8)
        # (Ole's train is red too: the End button is the red right of it.)
        end = wait_for(lambda: [b for b in blobs(mia.screenshot("wpteam-end"), DESTRUCTIVE_RED, tol=30) if b[0] > 300],
                       what="the End button")[0]
        mia.click((end[0] + end[2]) / 2, (end[1] + end[3]) / 2)
        time.sleep(1.0)
        mia.screenshot("wpteam-ended")

        def rounds_of(name):
            page = call(server.port, "GET", "/sync/changes?after=0&limit=1000", tokens[name]["token"])
            return [c for c in page["changes"] if c["entity"] == "wordPostRoundStat"]
        wait_for(lambda: rounds_of("Ole"), seconds=40, what="Ole's round on the server")
        browser = Browser(server.port)
        browser.sign_in(server.teacher, server.password)
        rows = list(csv.reader(io.StringIO(browser.get(f"/gallery/classes/{klass}/games.csv"))))
        players = [r[0] for r in rows[1:]]
        assert sorted(players) == ["Mia", "Ole"], rows
        # A German teacher's spreadsheet, read with the file's own dialect
        # as LibreOffice sniffs it: every row as wide as the titles, the
        # seconds with a decimal comma in their own cell.
        german = Browser(server.port, language="de-DE,de;q=0.9")
        german.sign_in(server.teacher, server.password)
        text = german.get(f"/gallery/classes/{klass}/games.csv")
        dialect = csv.Sniffer().sniff(text.splitlines()[0] + "\n" + text.splitlines()[1])
        assert dialect.delimiter == ";", text
        rows = list(csv.reader(io.StringIO(text), dialect))
        assert rows[0][0] == "Kind" and all(len(r) == len(rows[0]) for r in rows), rows
        assert sorted(r[0] for r in rows[1:]) == ["Mia", "Ole"], rows
        assert all(re.fullmatch(r"\d+,\d", r[4]) for r in rows[1:]), rows
        oles_page = browser.get(f"/gallery/classes/{klass}/pupils/{tokens['Ole']['id']}")
        assert "Ole" in oles_page and "<table" in oles_page, oles_page
        mias_page = browser.get(f"/gallery/classes/{klass}/pupils/{tokens['Mia']['id']}")
        assert len(rounds_of("Ole")) == 1 and len(rounds_of("Mia")) >= 1
        assert "<table" in mias_page
    finally:
        for app in (ole, mia):
            if app:
                app.stop()
        second.stop()
        server.stop()
