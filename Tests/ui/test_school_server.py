"""The school server as a teacher meets it: from the home screen's small
server button to signed in, a sketch drawn offline-first reaching the
server by itself, and signed out again."""
import json
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from harness import (App, ROOT, SUGGESTED_BLUE, bbox, centre, curve, find_color, largest_white_rect, wait_for)

SERVER = ROOT / ".build" / "debug" / "TeamsketchServer"
BACKGROUND = (0xFB, 0xF8, 0xF2)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def api(port, method, path, token=None, body=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read() or b"null")


def school_button(app):
    """The small server button under the big ones: the first band of
    non-background rows after the big buttons end."""
    home = app.screenshot("school-home")
    blue = bbox(find_color(home, SUGGESTED_BLUE, tol=25))
    # The window is 1200 × 820 at the screen's corner (harness.App).
    w, h = min(home.size[0], 1190), min(home.size[1], 810)
    px = home.load()

    def marked(x, y):
        return sum(abs(a - b) for a, b in zip(px[x, y][:3], BACKGROUND)) > 30

    def row(y):
        return [x for x in range(20, w - 20, 2) if marked(x, y)]

    y = blue[3]
    while y < h and row(y):
        y += 1  # the rest of the big buttons
    while y < h and not row(y):
        y += 1  # the gap under them
    top = y
    xs = []
    while y < h and row(y):
        xs += row(y)
        y += 1
    assert xs, "nothing under the big buttons"
    return min(xs), top, max(xs), y - 1


def test_a_teacher_signs_in_and_a_sketch_reaches_the_server(display, tmp_path):
    work = Path(tempfile.mkdtemp())
    database = str(work / "server.sqlite")
    subprocess.run([str(SERVER), "create-teacher", "Frau Berg", "--database", database],
                   input="richtig-geheim\n", text=True, check=True, capture_output=True)
    port = free_port()
    server = subprocess.Popen([str(SERVER), "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--database", database, "--no-announce"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    app = None
    try:
        wait_for(lambda: _answers(port), what="the server")
        app = App(display, tmp_path)
        button = school_button(app)
        assert 48 <= button[2] - button[0] + 2 and 48 <= button[3] - button[1] + 2, f"target too small: {button}"
        app.click(*centre_of(button))
        time.sleep(0.6)
        app.screenshot("school-signed-out")
        # A wrong password first: a message, no sign-in.
        app.type(f"http://127.0.0.1:{port}")
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
        token = api(port, "POST", "/sessions", body={"name": "Frau Berg", "password": "richtig-geheim"})["token"]
        app.key("ctrl+a")
        app.type("Schulhof")
        app.key("Return")
        time.sleep(0.8)
        shot = app.screenshot("school-canvas")
        sheet = largest_white_rect(shot)
        assert sheet[2] - sheet[0] > 500, "no drawing sheet"
        app.drag(curve(sheet))
        sketches = wait_for(lambda: [s for s in api(port, "GET", "/sketches", token=token) if s["opCount"] >= 1],
                            seconds=30, what="the sketch on the server")
        assert sketches[0]["name"] == "Schulhof"
    finally:
        if app:
            app.stop()
        server.terminate()
        server.wait(10)


def centre_of(box):
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _answers(port):
    try:
        return api(port, "GET", "/health")["status"] == "ok"
    except OSError:
        return False
