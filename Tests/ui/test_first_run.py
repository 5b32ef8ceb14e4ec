"""A classroom laptop's first start asks how it is used. "This laptop
belongs to a class": the teacher signs in at the school server once and
picks the class; the teacher is signed out again and the start screen
offers the picture sign-in, which goes straight to the class's names.
"Use without a server": the start screen, and the question never again."""
import json
import sys
import tempfile
import time
from pathlib import Path

from harness import SUGGESTED_BLUE, App, bbox, centre, find_color, press_home_button, wait_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer, call  # noqa: E402
from test_pupil_sign_in import ME, badges  # noqa: E402


def start(display, home, extra_env=None):
    """The app on `home`, and the first page it shows (its log is kept
    across starts: only this start's lines count)."""
    log = home / "app.log"
    before = log.stat().st_size if log.exists() else 0
    app = App(display, home, first_run=True, extra_env=extra_env)
    page = wait_for(lambda: next((line[6:] for line in log.read_bytes()[before:].decode(errors="replace").splitlines()
                                  if line.startswith("page: ")), None), what="the first page shown")
    return app, page


def big_buttons(app, name):
    """The two choices, left to right: the blue one and the light one."""
    shot = app.screenshot(name)
    blue = bbox(find_color(shot, SUGGESTED_BLUE, tol=25))
    return blue, (blue[2] + 48 + (blue[2] - blue[0]) // 2, (blue[1] + blue[3]) // 2)


def set_up_for_class(app, server, klass, name):
    """A laptop's first start: "This laptop belongs to a class", the
    teacher's sign-in at the server once, the class chosen."""
    blue, _ = big_buttons(app, f"{name}-first-run")
    app.click((blue[0] + blue[2]) / 2, (blue[1] + blue[3]) / 2)
    wait_for(lambda: "page: school" in app.read_log().splitlines(), what="the school server's form", app=app)
    time.sleep(0.6)
    app.key("ctrl+a")
    app.type(f"127.0.0.1:{server.port}")
    app.key("Tab")
    app.type(server.teacher)
    app.key("Tab")
    app.type(server.password)
    app.key("Return")
    wait_for(lambda: "set up: classes offered: 1" in app.read_log(), seconds=30, what="the teacher's classes", app=app)
    time.sleep(0.5)
    app.click(*centre(find_color(app.screenshot(f"{name}-first-run-class"), SUGGESTED_BLUE, tol=25)))
    wait_for(lambda: f"set up for class: {klass}" in app.read_log(), seconds=20, what=f"{name}'s laptop set up")
    wait_for(lambda: "page: home" in app.read_log().split("set up for class")[-1].splitlines(), what="the start screen")


def test_a_laptop_set_up_for_a_class_offers_its_pupils_sign_in(display, tmp_path):
    server = SchoolServer(Path(tempfile.mkdtemp())).start()
    app = None
    try:
        teacher = server.sign_in()["token"]
        klass = call(server.port, "POST", "/classes", teacher, {"name": "2b"})["id"]
        for name in ["Mia", "Ole"]:
            pupil = call(server.port, "POST", f"/classes/{klass}/pupils", teacher, {"name": name})["id"]
            call(server.port, "PUT", f"/pupils/{pupil}/picture-password", teacher, {"pictures": [1, 2, 3]})

        app, page = start(display, tmp_path)
        assert page == "first-run"
        # The teacher signs in once and picks the class (a blue button of
        # its own below the question; Back is the light one).
        set_up_for_class(app, server, klass, "first-run")
        setup = json.loads((tmp_path / "config" / "teamsketch" / "classroom.json").read_text())
        assert setup["server"] == server.url and setup["classID"] == klass
        assert not (tmp_path / "config" / "teamsketch" / "school.json").exists(), "the teacher is still signed in"
        app.screenshot("first-run-home")

        # "Me" now asks the children who they are: the class's names at
        # once, no code to type (the laptop was introduced to the class).
        app.click(*ME)
        names = wait_for(lambda: badges(app.screenshot("first-run-names"), (300, 200, 900, 380)), seconds=20,
                         what="the class's names")
        assert len(names) == 2, names
        app.stop()

        # Started again: no question.
        app, page = start(display, tmp_path)
        assert page == "home"
    finally:
        if app:
            app.stop()
        server.stop()


def test_a_laptop_used_without_a_server_is_asked_once(display, tmp_path):
    app, page = start(display, tmp_path)
    try:
        assert page == "first-run"
        _, alone = big_buttons(app, "first-run-alone")
        app.click(*alone)                                               # Use without a server
        wait_for(lambda: "page: home" in app.read_log().splitlines(), what="the start screen")
        assert json.loads((tmp_path / "config" / "teamsketch" / "classroom.json").read_text())["standalone"] is True
        app.stop()
        app, page = start(display, tmp_path)
        assert page == "home"
        press_home_button(app, 0)                                       # New sketch works as ever
    finally:
        app.stop()
