"""A pupil on a shared classroom laptop signs in without typing: class,
name, three pictures. Then draws, and the sketch reaches the school server
as theirs; "Not me" makes way for the next child. The laptop was set up by
the teacher before (it knows the server); the first time, the teacher types
the class's code, since the server shows a class's names only to computers
the class has seen."""
import json
import sys
import tempfile
import time
from pathlib import Path

from harness import (DARK_BLUE, EMPTY_SLOT, RED, SUGGESTED_BLUE, App, bbox, centre, controls, curve, find_color,
                     press_home_button, pen_button, row_top, start_new_sketch, wait_for)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer, call  # noqa: E402

ME = (600, 235)
TITLE_BLUE = (0x2B, 0x2B, 0x6E)
# A form's message ("Those are not your pictures. Try again!").
MESSAGE_BROWN = (0x8A, 0x3B, 0x12)
WRONG_RED = (0xC0, 0x1C, 0x28)


def give_class_code(app, code, name):
    """A computer the class has not seen shows no class, only the field for
    its code right under the title: the teacher types it as read out. Then
    the title asks for the class (a shorter line) and the class card is the
    first dark icon below it."""
    shot = app.screenshot(name)
    title = bbox(find_color(shot, TITLE_BLUE, tol=10))
    top = row_top(shot, title[3] + 10)
    field = controls(shot, top)[0]
    entry = ((field[0] + field[1]) // 2, top + 26)
    assert shot.getpixel(entry)[:3] == (255, 255, 255), "no empty code field first: a class was shown before the code"
    app.click(*entry)
    app.type(code.lower().replace("-", " "))
    app.key("Return")

    def card():
        given = app.screenshot(name + "-given")
        asked = find_color(given, TITLE_BLUE, tol=10)
        if not asked or bbox(asked)[2] - bbox(asked)[0] >= title[2] - title[0]:
            return None
        first = row_top(given, bbox(asked)[3] + 10)
        return find_color(given, (0x2E, 0x34, 0x36), tol=8, box=(300, first, 900, first + 120))
    return wait_for(card, what="the class after its code")


def badges(shot, box):
    """The round letter badges (saturated colours) in `box`, left to right."""
    px = shot.load()
    x0, y0, x1, y1 = box
    cells = [(x, y) for y in range(y0, y1, 3) for x in range(x0, x1, 3)
             if max(px[x, y][:3]) - min(px[x, y][:3]) > 70]
    if not cells:
        return []
    cols = sorted({x for x, _ in cells})
    groups, run = [], [cols[0]]
    for x in cols[1:]:
        if x - run[-1] > 9:
            groups.append(run)
            run = []
        run.append(x)
    groups.append(run)
    ys = [y for _, y in cells]
    return [((g[0] + g[-1]) / 2, (min(ys) + max(ys)) / 2) for g in groups]


def test_a_pupil_signs_in_with_pictures_draws_and_makes_way_for_the_next(display, tmp_path):
    server = SchoolServer(Path(tempfile.mkdtemp())).start()
    app = None
    try:
        teacher = server.sign_in()["token"]
        made = call(server.port, "POST", "/classes", teacher, {"name": "2b"})
        klass = made["id"]
        for name in ["Mia", "Ole"]:
            pupil = call(server.port, "POST", f"/classes/{klass}/pupils", teacher, {"name": name})["id"]
            call(server.port, "PUT", f"/pupils/{pupil}/picture-password", teacher, {"pictures": [1, 2, 3]})
        config = tmp_path / "config" / "teamsketch"
        config.mkdir(parents=True)
        (config / "classroom.json").write_text(json.dumps({"server": server.url}))

        app = App(display, tmp_path)
        # Another child drew on this laptop before, without signing in.
        shot, sheet = start_new_sketch(app, "Oles Bild")
        app.click(*centre(pen_button(shot, sheet, DARK_BLUE)))
        app.drag(curve(sheet))
        app.click(45, 60)
        time.sleep(0.8)

        app.click(*ME)
        time.sleep(1.0)
        card = give_class_code(app, made["code"], "pupil-classes")
        app.click(*centre(card))
        pupils = wait_for(lambda: badges(app.screenshot("pupil-names"), (300, 200, 900, 380)), what="the pupils")
        assert len(pupils) == 2, pupils
        app.click(*pupils[0])                      # Mia (names come sorted)
        slots = bbox(wait_for(lambda: find_color(app.screenshot("pupil-pictures"), EMPTY_SLOT, tol=4),
                              what="the picture slots"))
        row0 = slots[3] + 76
        keys = {i: (600 + 126 * (i % 3 - 1), row0 + 126 * (i // 3)) for i in range(9)}
        for wrong in [3, 2, 1]:                    # the right pictures in the wrong order
            app.click(*keys[wrong])
        # The screen takes no pictures while the server checks (a password
        # hash takes its time on a busy machine): Mia tries again once it
        # has said these are not her pictures.
        below_grid = (300, row0 + 300, 900, row0 + 380)
        wait_for(lambda: find_color(app.screenshot("pupil-wrong"), MESSAGE_BROWN, tol=30, box=below_grid), seconds=30,
                 what="the message about the wrong pictures")
        # Not words alone: a big red mark beside them, for a child who
        # cannot read them yet.
        mark = find_color(app.screenshot("pupil-wrong"), WRONG_RED, tol=30, box=below_grid)
        assert len(mark) > 800 and bbox(mark)[3] - bbox(mark)[1] >= 48, "no big red mark for the wrong try"
        assert not (config / "school.json").exists(), "signed in with the wrong order"
        for right in [1, 2, 3]:
            app.click(*keys[right])
        signed = tmp_path / "config" / "teamsketch" / "school.json"
        wait_for(signed.exists, what="the pupil's sign-in")
        record = json.loads(signed.read_text())
        assert record["name"] == "Mia" and record["isTeacher"] is False and record["classID"] == klass
        time.sleep(1.0)
        app.screenshot("pupil-home")

        # Mia draws; the sketch reaches the server as hers.
        shot, sheet = start_new_sketch(app, "Mias Haus")
        app.click(*centre(pen_button(shot, sheet, RED)))
        app.drag(curve(sheet))
        app.click(45, 60)                          # home

        def on_server():
            listed = call(server.port, "GET", "/sketches", teacher)
            items = listed.get("sketches", listed) if isinstance(listed, dict) else listed
            return [s for s in items if s.get("name") == "Mias Haus"]
        sketches = wait_for(on_server, seconds=40, what="Mia's sketch on the server")
        assert sketches

        # "Open" shows Mia her own sketch, not the other child's.
        press_home_button(app, 3)
        gallery = app.screenshot("pupil-open")
        assert find_color(gallery, RED, tol=90, box=(0, 100, 1200, 820)), "Mia's own sketch is not listed"
        assert not find_color(gallery, DARK_BLUE, tol=40, box=(0, 100, 1200, 820)), "another child's sketch is listed"
        app.click(45, 60)
        time.sleep(0.6)

        # "Not me": the next child; the laptop starts at the class's names.
        app.click(*ME)
        time.sleep(1.0)
        profile = app.screenshot("pupil-profile")
        assert find_color(profile, (0x2E, 0x34, 0x36), tol=8), "no profile"
        # "Not me" is the second of four equal buttons (200 px, 32 apart);
        # "Done", the blue one, is the last.
        done = bbox(find_color(profile, SUGGESTED_BLUE, tol=20, box=(0, 560, 1200, 820)))
        app.click((done[0] + done[2]) / 2 - 2 * 232, (done[1] + done[3]) / 2)
        wait_for(lambda: not signed.exists(), what="the sign-out")
        assert len(wait_for(lambda: badges(app.screenshot("pupil-next"), (300, 200, 900, 380)),
                            what="the class's names again")) == 2
    finally:
        if app:
            app.stop()
        server.stop()
