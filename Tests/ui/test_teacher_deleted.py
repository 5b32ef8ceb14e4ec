"""A sketch deleted on another laptop leaves the teacher's gallery and
waits under "Deleted" for 30 days: the teacher brings it back with one
button, and it is back in the gallery, on the school server, and with its
lines. The server is real; the deletion is pushed through its API as
another laptop of the teacher's would."""
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from harness import (DESTRUCTIVE_RED, RED, App, bbox, biggest, blobs, blobs_in, centre, chosen_tab, curve, draw_a_red_sketch,
                     edges, find_color, mid, open_teacher_section, pen_button, press_home_button, small_buttons,
                     start_new_sketch, wait_for)
from test_teacher import open_teacher_window

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer, call, delete_sketch, keep_teacher_sign_in  # noqa: E402


def buttons_in_band(shot, y0, y1, x0=10, x1=1190):
    """Pairs of border columns (a button's left and right) in a band."""
    found = edges(shot, x0, x1, y0, y1)
    return [(a, b) for a, b in zip(found, found[1:]) if 60 <= b - a <= 400]


def restore_from_the_bin(app, active):
    """In the teacher's sketches (`active`: its tab), the bin at the
    bottom right lists what was deleted: Restore on its only row, then back
    to the sketches, where the red sketch shows again."""
    # The bin is the dark icon right of the "No sketches" line.
    bin_ = wait_for(lambda: blobs_in(app.screenshot("deleted-filters"), (0x2E, 0x34, 0x36), (1000, 790, 1200, 860),
                                     tol=40, min_cells=5), what="the bin")
    app.click(*mid(biggest(bin_)))
    time.sleep(1.0)

    def restore_button():
        s = app.screenshot("deleted-list")
        for y in range(active[3] + 100, 700, 4):
            found = [b for b in buttons_in_band(s, y - 20, y + 20, 600, 1190)]
            if found:
                return found[-1], y
        return None
    (x0, x1), y = wait_for(restore_button, what="the Restore button")
    app.click((x0 + x1) / 2, y)
    time.sleep(1.0)
    app.screenshot("deleted-restored")

    # Back in the gallery.
    back = buttons_in_band(app.screenshot("deleted-back"), active[3] + 30, active[3] + 100, 10, 600)
    assert back, "the way back to the sketches"
    app.click((back[0][0] + back[0][1]) / 2, active[3] + 65)
    wait_for(lambda: find_color(app.screenshot("deleted-back-gallery"), RED, tol=90, box=(0, 200, 1200, 800)),
             what="the sketch back in the gallery")


def test_a_sketch_deleted_elsewhere_is_brought_back_from_the_teachers_window(display, tmp_path):
    server = SchoolServer(Path(tempfile.mkdtemp())).start()
    app = None
    try:
        signed = server.sign_in()
        token = signed["token"]
        keep_teacher_sign_in(tmp_path, server, signed)

        app = App(display, tmp_path)
        shot, sheet = start_new_sketch(app, "Haus")
        app.click(*centre(pen_button(shot, sheet, RED)))
        app.drag(curve(sheet))
        app.click(45, 60)
        # With its line: the sketch and its first line may go in two pushes
        # (the outbox is sent every 5 s), and a line sent after the deletion
        # is rightly kept here as a copy, which would stay in the gallery.
        sketch = wait_for(lambda: next((s for s in call(server.port, "GET", "/sketches", token) if s["opCount"] >= 1), None),
                          seconds=30, what="the sketch with its line on the server")["id"]

        teacher = small_buttons(app)[0]
        app.click((teacher[0] + teacher[2]) / 2, (teacher[1] + teacher[3]) / 2)   # signed in: straight in
        active = chosen_tab(app, "deleted-teacher")                               # "Sketches"
        wait_for(lambda: find_color(app.screenshot("deleted-gallery"), RED, tol=90, box=(0, 200, 1200, 800)),
                 what="the sketch's thumbnail")

        # Another laptop of the teacher's deletes it; this one hears of it.
        delete_sketch(server.port, token, sketch)
        # A laptop asks for others' changes every 30 s when it has nothing to send.
        wait_for(lambda: not find_color(app.screenshot("deleted-gone"), RED, tol=90, box=(0, 200, 1200, 800)),
                 seconds=60, what="the sketch leaving the gallery")

        restore_from_the_bin(app, active)
        listed = wait_for(lambda: call(server.port, "GET", "/sketches", token), seconds=30, what="the sketch on the server")
        assert [s["id"] for s in listed] == [sketch] and listed[0]["opCount"] == 1, listed
    finally:
        if app:
            app.stop()
        server.stop()


def test_a_pupil_throws_a_sketch_away_and_the_teacher_brings_it_back(display, tmp_path):
    """On a laptop used without a server: the bin under the card asks once,
    the sketch leaves "Open", and the teacher's "Deleted" brings it back."""
    app = App(display, tmp_path)
    try:
        draw_a_red_sketch(app, "Haus")

        press_home_button(app, 3)                           # Open
        card = bbox(wait_for(lambda: find_color(app.screenshot("bin-gallery"), RED, tol=60, box=(0, 100, 1200, 820)),
                             what="the sketch's card"))
        # The bin: the dark icon below the card's picture and name.
        shot = app.screenshot("bin-gallery")
        below = (max(0, card[0] - 150), card[3] + 40, min(1200, card[2] + 150), min(shot.size[1], card[3] + 200))
        bin_ = biggest(blobs_in(shot, (0x2E, 0x34, 0x36), below, tol=40, min_cells=5))
        assert bin_, "no bin under the card"
        app.click(*mid(bin_))

        # "Throw away" is the red button of the question; "Keep it" would keep it.
        def throw_button():
            found = [b for b in blobs(app.screenshot("bin-asked"), DESTRUCTIVE_RED, tol=12)
                     if b[2] - b[0] >= 60 and b[3] - b[1] >= 24]
            return biggest(found)
        app.click(*mid(wait_for(throw_button, what="the question with its red Throw away button")))
        wait_for(lambda: "gallery: thrown away" in app.read_log(), what="the sketch thrown away")
        wait_for(lambda: not find_color(app.screenshot("bin-gone"), RED, tol=60, box=(0, 100, 1200, 820)),
                 what="the card leaving Open")
        db = sqlite3.connect(tmp_path / "teamsketch" / "teamsketch.sqlite")
        assert db.execute("SELECT count(*) FROM sketch WHERE deletedAt IS NOT NULL").fetchone()[0] == 1, \
            "the sketch is kept, marked deleted"
        db.close()

        app.click(45, 60)                                   # home
        wait_for(lambda: "page: home" in app.read_log().split("page: gallery")[-1].splitlines(), what="the start screen")
        open_teacher_window(app)
        open_teacher_section(app, "bin", lambda shot: blobs_in(shot, (0x2E, 0x34, 0x36), (1000, 790, 1200, 860),
                                                               tol=40, min_cells=5))   # "Sketches", with its bin
        restore_from_the_bin(app, chosen_tab(app, "bin-teacher"))

        # Locked (the header's right-most dark icon), back in the pupil's
        # "Open" too.
        dark = find_color(app.screenshot("bin-before-lock"), (0x2E, 0x34, 0x36), tol=8, box=(0, 20, 1200, 140))
        right = max(x for x, _ in dark)
        app.click(*centre([p for p in dark if p[0] > right - 60]))
        wait_for(lambda: "page: home" in app.read_log().split("page: teacher")[-1].splitlines(), what="the start screen again")
        press_home_button(app, 3)
        wait_for(lambda: find_color(app.screenshot("bin-back"), RED, tol=60, box=(0, 100, 1200, 820)),
                 what="the sketch in Open again")
    finally:
        app.stop()
