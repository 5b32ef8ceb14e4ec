"""A sketch deleted on another laptop while it is open here: the next
stroke is not lost. The drawing goes on in a copy, "Haus (copy)", the
laptop says so, and the copy reaches the school server with every stroke.
The server is real; the deletion is pushed through its API as another
laptop of the teacher's would."""
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness import DARK_BLUE, RED, App, centre, curve, find_color, pen_button, start_new_sketch, wait_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer, call, delete_sketch, keep_teacher_sign_in  # noqa: E402


def stored_sketches(home):
    """(name, deleted, ops) of every sketch in the app's store."""
    db = sqlite3.connect(f"file:{home / 'teamsketch' / 'teamsketch.sqlite'}?mode=ro", uri=True)
    try:
        return db.execute("SELECT name, deletedAt IS NOT NULL, (SELECT COUNT(*) FROM sketchOp WHERE sketchId = sketch.id)"
                          " FROM sketch ORDER BY createdAt, name").fetchall()
    finally:
        db.close()


def alert_named(app, title):
    """The window id of an alert with this title, or "" (alerts are their own windows)."""
    return subprocess.run(["xdotool", "search", "--name", title], env=app.env,
                          capture_output=True, text=True).stdout.strip()


def test_a_stroke_in_a_sketch_deleted_elsewhere_goes_to_a_copy(display, tmp_path):
    server = SchoolServer(Path(tempfile.mkdtemp())).start()
    app = None
    try:
        signed = server.sign_in()
        token = signed["token"]
        keep_teacher_sign_in(tmp_path, server, signed)

        app = App(display, tmp_path)
        shot, sheet = start_new_sketch(app, "Haus")
        app.click(*centre(pen_button(shot, sheet, RED)))
        left, top, right, bottom = sheet
        third = (right - left) // 3
        app.drag(curve((left, top, left + third, bottom)))
        sketch = wait_for(lambda: next((s for s in call(server.port, "GET", "/sketches", token) if s["opCount"] >= 1), None),
                          seconds=30, what="the sketch on the server")["id"]

        # Another laptop of the teacher's deletes it; this laptop hears of
        # it while the sketch is still open on its screen.
        delete_sketch(server.port, token, sketch)
        # (A laptop asks for others' changes every 30 s when it has nothing to send.)
        wait_for(lambda: stored_sketches(tmp_path) == [("Haus", 1, 1)], seconds=60, what="the deletion pulled")

        # The next stroke is kept in a copy, and the laptop says so.
        shot = app.screenshot("deleted-open-before")
        app.click(*centre(pen_button(shot, sheet, DARK_BLUE)))
        app.drag(curve((left + third, top, left + 2 * third, bottom)))
        wait_for(lambda: alert_named(app, "Your drawing is kept"), what="the message about the copy")
        told = app.screenshot("deleted-open-told")
        assert find_color(told, DARK_BLUE, box=sheet, tol=30), "the stroke is still on the screen"
        assert stored_sketches(tmp_path) == [("Haus", 1, 1), ("Haus (copy)", 0, 2)]

        # Drawing goes on in the copy; the copy reaches the server whole.
        app.key("Return")
        time.sleep(0.5)
        app.drag(curve((left + 2 * third, top, right, bottom)))
        wait_for(lambda: stored_sketches(tmp_path)[-1] == ("Haus (copy)", 0, 3), what="the third stroke in the copy")
        on_server = wait_for(lambda: [(s["name"], s["opCount"]) for s in call(server.port, "GET", "/sketches", token)
                                      if s["opCount"] == 3] or None, seconds=30, what="the copy on the server")
        assert on_server == [("Haus (copy)", 3)]
        assert not alert_named(app, "Your drawing is kept"), "told once, not once per stroke"
        after = app.screenshot("deleted-open-after")
        assert find_color(after, RED, box=sheet, tol=30) and find_color(after, DARK_BLUE, box=sheet, tol=30)
    finally:
        if app:
            app.stop()
        server.stop()
