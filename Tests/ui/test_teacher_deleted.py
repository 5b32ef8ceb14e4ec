"""A sketch deleted on another laptop leaves the teacher's gallery and
waits under "Deleted" for 30 days: the teacher brings it back with one
button, and it is back in the gallery, on the school server, and with its
lines. The server is real; the deletion is pushed through its API as
another laptop of the teacher's would."""
import sys
import tempfile
import time
from pathlib import Path

from harness import (RED, App, biggest, blobs_in, centre, chosen_tab, curve, edges, find_color, mid, pen_button,
                     small_buttons, start_new_sketch, wait_for)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer, call, delete_sketch, keep_teacher_sign_in  # noqa: E402


def buttons_in_band(shot, y0, y1, x0=10, x1=1190):
    """Pairs of border columns (a button's left and right) in a band."""
    found = edges(shot, x0, x1, y0, y1)
    return [(a, b) for a, b in zip(found, found[1:]) if 60 <= b - a <= 400]


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

        # The bin, at the gallery's bottom right, lists it: the dark icon
        # right of the "No sketches" line.
        shot = app.screenshot("deleted-filters")
        bin_ = wait_for(lambda: blobs_in(app.screenshot("deleted-filters"), (0x2E, 0x34, 0x36), (1000, 790, 1200, 860),
                                         tol=40, min_cells=5), what="the bin")
        app.click(*mid(biggest(bin_)))
        time.sleep(1.0)
        shot = app.screenshot("deleted-list")

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

        # Back in the gallery, and on the server with its line.
        back = buttons_in_band(app.screenshot("deleted-back"), active[3] + 30, active[3] + 100, 10, 600)
        assert back, "the way back to the sketches"
        app.click((back[0][0] + back[0][1]) / 2, active[3] + 65)
        wait_for(lambda: find_color(app.screenshot("deleted-back-gallery"), RED, tol=90, box=(0, 200, 1200, 800)),
                 what="the sketch back in the gallery")
        listed = wait_for(lambda: call(server.port, "GET", "/sketches", token), seconds=30, what="the sketch on the server")
        assert [s["id"] for s in listed] == [sketch] and listed[0]["opCount"] == 1, listed
    finally:
        if app:
            app.stop()
        server.stop()
