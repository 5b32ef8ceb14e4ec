"""A teacher signed in to the school server renames a class in place and
archives it (after asking); the toast at the bottom of the teacher's window
offers Undo, which brings the class back. Archived again, the toast goes by
itself after a few seconds, and on a pupils' laptop the class is no longer
offered to sign in to. The server is real; what it holds is checked through
its API, what the people see by the screenshots."""
import json
import sys
import tempfile
import time
import urllib.error
from pathlib import Path

from harness import (ACTIVE, DESTRUCTIVE_RED, SUGGESTED_BLUE, App, bbox, biggest, blobs, blobs_in, centre, controls,
                     find_color, open_teacher_classes, row_items, row_top, small_buttons, wait_for)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer, call, keep_teacher_sign_in  # noqa: E402

ME = (600, 235)
TITLE_BLUE = (0x2B, 0x2B, 0x6E)
CLASS_ICON = (0x2E, 0x34, 0x36)


def toast(app, name):
    """The toast: the dark strip across the bottom of the window, or None
    (a chosen button there, as the admin's "Kept", is no strip)."""
    found = find_color(app.screenshot(name), ACTIVE, tol=10, box=(0, 640, 1200, 815))
    if not found or len(found) <= 500:
        return None
    box = bbox(found)
    return box if box[2] - box[0] > 600 else None


def next_row(shot, top):
    """The top of the row after the one starting at `top`."""
    y = top
    while row_items(shot, y):
        y += 2
    return row_top(shot, y)


def confirm(app, name):
    """Presses the red button of the question that opened."""
    def red_button():
        found = blobs(app.screenshot(name), DESTRUCTIVE_RED, tol=30)
        return max(found, key=lambda b: (b[2] - b[0]) * (b[3] - b[1])) if found else None
    sure = wait_for(red_button, what="the question")
    app.click((sure[0] + sure[2]) / 2, (sure[1] + sure[3]) / 2)


def offered(server, code):
    """What a new computer is offered for signing in after typing `code`:
    the classes, or the refusal's status."""
    try:
        return [c["id"] for c in call(server.port, "GET", f"/sign-in/classes?code={code}")]
    except urllib.error.HTTPError as refused:
        return refused.code


def archived(server, token, klass):
    listed = call(server.port, "GET", "/classes?archived=true", token)
    return next(c["archived"] for c in listed if c["id"] == klass)


def class_cards(app, name):
    """The class cards a pupil may choose from on the sign-in screen."""
    shot = app.screenshot(name)
    title = bbox(find_color(shot, TITLE_BLUE, tol=10))
    # The cards are in the row under the question; each card's picture and
    # name are several dark blobs, and cards are far apart.
    found = sorted(blobs_in(shot, CLASS_ICON, (0, title[3] + 10, shot.size[0], title[3] + 200), tol=8, min_cells=8))
    cards = []
    for b in found:
        if cards and b[0] - cards[-1][2] < 40:
            cards[-1] = (cards[-1][0], min(cards[-1][1], b[1]), max(cards[-1][2], b[2]), max(cards[-1][3], b[3]))
        else:
            cards.append(b)
    return cards


def test_a_teacher_renames_archives_undoes_and_archives_a_class(display, tmp_path):
    server = SchoolServer(Path(tempfile.mkdtemp())).start()
    app = None
    try:
        signed = server.sign_in()
        token = signed["token"]
        klass = call(server.port, "POST", "/classes", token, {"name": "2b"})["id"]
        other = call(server.port, "POST", "/classes", token, {"name": "4c"})["id"]
        mia = call(server.port, "POST", f"/classes/{klass}/pupils", token, {"name": "Mia"})["id"]
        call(server.port, "PUT", f"/pupils/{mia}/picture-password", token, {"pictures": [1, 2, 3]})
        keep_teacher_sign_in(tmp_path, server, signed)

        app = App(display, tmp_path)
        teacher = small_buttons(app)[0]
        app.click((teacher[0] + teacher[2]) / 2, (teacher[1] + teacher[3]) / 2)
        open_teacher_classes(app, "archive")

        # 2b, the first class, is chosen; under it its name, Rename, Archive.
        chosen = biggest(blobs_in(app.screenshot("archive-classes"), ACTIVE, (0, 130, 600, 240)))
        time.sleep(1.0)
        shot = app.screenshot("archive-header")
        top = row_top(shot, chosen[3] + 6)
        header = controls(shot, top)
        assert len(header) == 3, header                # name, Rename, Archive class…
        assert toast(app, "archive-no-toast") is None

        # Renamed in place: the field's text replaced, Return.
        app.click(header[0][0] + 20, top + 32)
        app.key("ctrl+a")
        app.type("3b")
        app.key("Return")
        wait_for(lambda: sorted(c["name"] for c in call(server.port, "GET", "/classes", token)) == ["3b", "4c"],
                 what="the new name on the server")

        # Archived after asking; the toast offers Undo.
        time.sleep(1.0)
        app.click((header[2][0] + header[2][1]) / 2, top + 32)
        confirm(app, "archive-sure")
        wait_for(lambda: archived(server, token, klass), what="the class archived on the server")
        strip = wait_for(lambda: toast(app, "archive-toast"), what="the toast")
        assert strip[3] - strip[1] >= 48, strip
        # Its code no longer opens it on a new computer; the other's does.
        codes = {c["id"]: c["code"] for c in call(server.port, "GET", "/classes?archived=true", token)}
        assert offered(server, codes[klass]) == 404
        assert offered(server, codes[other]) == [other]
        # Undo is the light button at the strip's right end.
        app.click(strip[2] - 18 - 80, (strip[1] + strip[3]) / 2)
        wait_for(lambda: not archived(server, token, klass), what="the class restored on the server")
        wait_for(lambda: toast(app, "archive-undone") is None, what="the toast gone")
        time.sleep(1.0)
        back = app.screenshot("archive-back")
        # 3b is back, chosen, with its header.
        assert find_color(back, ACTIVE, tol=10, box=(0, chosen[1], 600, chosen[3])), "the class is not back"
        assert len(controls(back, row_top(back, chosen[3] + 6))) == 3

        # Archived again: the toast goes by itself and the class stays archived.
        app.click((header[2][0] + header[2][1]) / 2, top + 32)
        confirm(app, "archive-sure-again")
        wait_for(lambda: toast(app, "archive-toast-again"), what="the toast")
        started = time.time()
        wait_for(lambda: toast(app, "archive-expiring") is None, seconds=12, what="the toast going by itself")
        assert time.time() - started > 3, "the toast went too soon to press Undo"
        assert archived(server, token, klass)

        # Shown on demand, archived classes can be restored.
        shot = app.screenshot("archive-done")
        mid_y = (chosen[1] + chosen[3]) // 2
        show_archived = row_items(shot, mid_y)[-1]     # the box's label, at the row's end
        app.click((show_archived[0] + show_archived[1]) / 2, mid_y)
        time.sleep(1.5)
        app.click(chosen[0] + 30, mid_y)               # "3b (archived)", first again
        restore = wait_for(lambda: find_color(app.screenshot("archive-shown"), SUGGESTED_BLUE, tol=20,
                                              box=(0, chosen[3], 1200, chosen[3] + 120)), what="Restore class")
        app.click(*centre(restore))
        wait_for(lambda: not archived(server, token, klass), what="the class restored from the archive")
        time.sleep(1.0)
        app.screenshot("archive-restored")
        app.click((header[2][0] + header[2][1]) / 2, top + 32)
        confirm(app, "archive-sure-last")
        wait_for(lambda: archived(server, token, klass), what="the class archived again")
        app.stop()
        app = None

        # A pupils' laptop, where the teacher signed in once, offers only 4c.
        pupil_home = tmp_path / "pupil"
        (pupil_home / "config" / "teamsketch").mkdir(parents=True)
        (pupil_home / "config" / "teamsketch" / "classroom.json").write_text(json.dumps({"server": server.url}))
        mark = "laptop-of-the-class-0000000000"
        (pupil_home / "config" / "teamsketch" / "device-mark").write_text(mark)
        call(server.port, "POST", "/sessions", body={"name": server.teacher, "password": server.password}, device=mark)
        app = App(display, pupil_home)
        app.click(*ME)
        cards = wait_for(lambda: class_cards(app, "archive-pupil-classes"), what="the classes to sign in to")
        time.sleep(1.0)
        cards = class_cards(app, "archive-pupil-classes")
        assert len(cards) == 1, cards
        # Restored, it is offered again (so the cards above were counted right).
        call(server.port, "PUT", f"/classes/{klass}/archived", token, {"archived": False})
        back = find_color(app.screenshot("archive-pupil-back"), CLASS_ICON, tol=8, box=(300, 500, 460, 620))
        app.click(*centre(back))                       # Back
        time.sleep(1.0)
        app.click(*ME)
        wait_for(lambda: len(class_cards(app, "archive-pupil-classes-again")) == 2, what="both classes offered")
    finally:
        if app:
            app.stop()
        server.stop()
