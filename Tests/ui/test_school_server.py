"""The school server as a teacher meets it: from the home screen's small
server button to signed in, a sketch drawn offline-first reaching the
server by itself, and signed out again."""
import json
import sys
import tempfile
import time
from pathlib import Path

from harness import App, SUGGESTED_BLUE, centre, curve, find_color, largest_white_rect, small_buttons, wait_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer, call  # noqa: E402

def school_button(app):
    """The small server button under the big ones (after the teacher's)."""
    return small_buttons(app)[1]


def test_a_teacher_signs_in_and_a_sketch_reaches_the_server(display, tmp_path):
    server = SchoolServer(Path(tempfile.mkdtemp()), password="richtig-geheim").start()
    port = server.port
    app = None
    try:
        app = App(display, tmp_path)
        button = school_button(app)
        assert 48 <= button[2] - button[0] + 2 and 48 <= button[3] - button[1] + 2, f"target too small: {button}"
        app.click(*centre_of(button))
        time.sleep(0.6)
        app.screenshot("school-signed-out")
        # The address as the server prints it, without "http://" (the app
        # tries HTTPS, then HTTP). A wrong password first: a message, no
        # sign-in.
        app.type(f"127.0.0.1:{port}")
        app.key("Tab")
        app.type("Frau Berg")
        app.key("Tab")
        app.type("falsch-geheim")
        app.key("Return")
        time.sleep(1.5)
        wrong = app.screenshot("school-wrong-password")
        sign_in_file = tmp_path / "config" / "teamsketch" / "school.json"
        assert not sign_in_file.exists()
        assert find_color(wrong, (0x8A, 0x3B, 0x12), tol=30), "no message about the wrong password"
        app.key("ctrl+a")
        app.type("richtig-geheim")
        app.key("Return")
        wait_for(sign_in_file.exists, what="the stored sign-in")
        stored = json.loads(sign_in_file.read_text())
        assert stored["name"] == "Frau Berg" and stored["server"] == f"http://127.0.0.1:{port}"
        assert oct(sign_in_file.stat().st_mode & 0o777) == "0o600"
        time.sleep(0.5)
        app.screenshot("school-signed-in")

        # Back home (Back has the focus), a new sketch, one stroke: it
        # reaches the server by itself.
        app.key("Return")
        time.sleep(0.5)
        app.click(*centre(find_color(app.screenshot("school-home-again"), SUGGESTED_BLUE, tol=25)))
        time.sleep(0.5)
        token = server.sign_in()["token"]
        app.key("ctrl+a")
        app.type("Schulhof")
        app.key("Return")
        time.sleep(0.8)
        shot = app.screenshot("school-canvas")
        sheet = largest_white_rect(shot)
        assert sheet[2] - sheet[0] > 500, "no drawing sheet"
        app.drag(curve(sheet))
        sketches = wait_for(lambda: [s for s in call(port, "GET", "/sketches", token=token) if s["opCount"] >= 1],
                            seconds=30, what="the sketch on the server")
        assert sketches[0]["name"] == "Schulhof"
    finally:
        if app:
            app.stop()
        server.stop()


def centre_of(box):
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
