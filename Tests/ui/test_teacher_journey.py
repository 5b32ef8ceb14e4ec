"""The way through the teacher's window the whole class depends on, from
end to end: the teacher imports the class list on their laptop; on a
classroom laptop a pupil signs in with her three pictures and draws; back
on the teacher's laptop the teacher grades that sketch and finds the grade
in the exported spreadsheet. Two laptops (two apps with their own data,
each on its own display), one real school server; the teacher's app stays
open throughout, so Mia's sketch must come into its open list by itself.
What the server holds is checked through its API."""
import csv
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from harness import (ACTIVE, EMPTY_SLOT, RED, App, Display, bbox, centre, chosen_tab, controls,
                     curve, edges, find_color, pen_button, row_items, row_top, save_file, small_buttons,
                     start_new_sketch, wait_for)
from test_pupil_sign_in import ME, badges, give_class_code
from test_teacher_review import BACKGROUND, grade_keys, hover_click, save_button

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer, call, keep_teacher_sign_in  # noqa: E402


def open_teacher_window(app):
    """Signed in as a teacher: straight in, at "Sketches" (chosen)."""
    teacher = small_buttons(app)[0]
    app.click((teacher[0] + teacher[2]) / 2, (teacher[1] + teacher[3]) / 2)
    return chosen_tab(app, "journey-teacher")


def test_a_pupil_signs_in_draws_and_the_teacher_grades_it(display, tmp_path):
    server = SchoolServer(Path(tempfile.mkdtemp())).start()
    app = pupil = second = None
    try:
        signed = server.sign_in()
        token = signed["token"]
        laptop = tmp_path / "teacher"
        keep_teacher_sign_in(laptop, server, signed)
        roster = tmp_path / "2b.csv"
        roster.write_text("name\nMia\nOle\n", encoding="utf-8")

        # 1. The teacher makes the class and imports its list.
        app = App(display, laptop)
        active = open_teacher_window(app)
        tabs = edges(app.screenshot("journey-tabs"), active[2] + 8, 1030, active[1], active[3])
        app.click((tabs[0] + tabs[1]) / 2, (active[1] + active[3]) / 2)          # "Classes"
        time.sleep(1.0)
        shot = app.screenshot("journey-classes")
        top = row_top(shot, active[3] + 10)
        field = controls(shot, top)[0]
        app.click((field[0] + field[1]) / 2, top + 35)
        app.type("2b")
        app.key("Return")
        chosen = wait_for(lambda: find_color(app.screenshot("journey-class"), ACTIVE, tol=10, box=(0, 130, 600, 230)),
                          what="the new class")
        klass = call(server.port, "GET", "/classes", token)[0]["id"]
        shot = app.screenshot("journey-class-rows")
        row = row_top(shot, bbox(chosen)[3] + 6)         # the class's name, Rename, Archive
        while row_items(shot, row):
            row += 2
        row = row_top(shot, row)                          # the pupils' row: new pupil, add, import, pictures
        buttons = controls(shot, row)
        app.click((buttons[2][0] + buttons[2][1]) / 2, row + 35)
        time.sleep(1.5)                                   # the file chooser takes a typed path
        app.key("ctrl+a")
        app.type(str(roster))
        app.key("Return")
        # A list without bad rows is added at once.
        pupils = wait_for(lambda: (lambda p: p if len(p) == 2 else None)(
            call(server.port, "GET", f"/classes/{klass}/pupils", token)), what="the two pupils on the server")
        mia = next(p["id"] for p in pupils if p["name"] == "Mia")
        # The teacher's laptop stays on at the sketches, with none yet.
        app.click((active[0] + active[2]) / 2, (active[1] + active[3]) / 2)    # "Sketches"
        time.sleep(1.0)
        assert not find_color(app.screenshot("journey-no-sketches"), RED, tol=90, box=(0, 200, 1200, 800))
        # Mia's pictures (the teacher's window gives random ones and prints
        # them; a test needs to know them).
        call(server.port, "PUT", f"/pupils/{mia}/picture-password", token, {"pictures": [4, 5, 6]})

        # 2. On a classroom laptop Mia signs in with her pictures and draws.
        classroom = tmp_path / "classroom"
        (classroom / "config" / "teamsketch").mkdir(parents=True)
        (classroom / "config" / "teamsketch" / "classroom.json").write_text(json.dumps({"server": server.url}))
        second = Display().start()
        pupil = App(second, classroom)
        pupil.click(*ME)
        time.sleep(1.0)
        code = next(c["code"] for c in call(server.port, "GET", "/classes", token) if c["id"] == klass)
        pupil.click(*centre(give_class_code(pupil, code, "journey-pupil-classes")))
        names = wait_for(lambda: badges(pupil.screenshot("journey-names"), (300, 200, 900, 380)), what="the pupils")
        assert len(names) == 1, names                      # Ole has no pictures yet: not offered
        pupil.click(*names[0])                               # Mia
        slots = bbox(wait_for(lambda: find_color(pupil.screenshot("journey-pictures"), EMPTY_SLOT, tol=4),
                              what="the picture slots"))
        row0 = slots[3] + 76
        for i in [4, 5, 6]:
            pupil.click(600 + 126 * (i % 3 - 1), row0 + 126 * (i // 3))
        signed_in = classroom / "config" / "teamsketch" / "school.json"
        wait_for(signed_in.exists, what="Mia's sign-in")
        time.sleep(1.0)
        shot, sheet = start_new_sketch(pupil, "Mias Haus")
        pupil.click(*centre(pen_button(shot, sheet, RED)))
        pupil.drag(curve(sheet))
        pupil.click(45, 60)                                  # home: saved, then synced

        def on_server():
            listed = call(server.port, "GET", "/sketches", token)
            items = listed.get("sketches", listed) if isinstance(listed, dict) else listed
            return [s for s in items if s.get("name") == "Mias Haus"]
        wait_for(on_server, seconds=40, what="Mia's sketch on the server")

        def outbox():
            with sqlite3.connect(classroom / "teamsketch" / "teamsketch.sqlite") as db:
                return db.execute("SELECT count(*) FROM outbox").fetchone()[0]
        wait_for(lambda: outbox() == 0, seconds=40, what="Mia's lines on the server too")
        pupil.stop()
        pupil = None

        # 3. On the teacher's laptop, still at the sketches: Mia's comes in
        # with the next sync (every 30 s), and is graded 2 with a comment.
        card = wait_for(lambda: find_color(app.screenshot("journey-sketches"), RED, tol=90, box=(0, 200, 1200, 800)),
                        seconds=50, what="Mia's sketch, pulled from the server, in the open list")
        hover_click(app, *centre(card))
        save = wait_for(lambda: save_button(app.screenshot("journey-review")), what="the review")
        xs, y = wait_for(lambda: grade_keys(app.screenshot("journey-review"), save[0] - 10, 1195, 130, save[1] - 230),
                         what="Mia's own grade keys")
        app.click(xs[1], y)                                # 2
        app.click(xs[1], y + 72)
        app.type("Ein schönes Dach")
        app.key("Return")
        app.screenshot("journey-graded")

        def grades():
            page = call(server.port, "GET", "/sync/changes?after=0&limit=1000", token)
            payloads = [c["payload"] for c in page["changes"] if c["entity"] == "grade"]
            return [p if isinstance(p, dict) else json.loads(p) for p in payloads]
        graded = wait_for(lambda: [g for g in grades() if g.get("pupilId") == mia], seconds=45,
                          what=lambda: f"Mia's grade on the server, under her account (id {mia}); it has {grades()}")
        assert graded[0]["grade"] == 2, graded

        # The grades spreadsheet (the Sketches row's last button) has it.
        app.click(45, 60)
        time.sleep(1.0)
        shot = app.screenshot("journey-back")
        row_y = 165                                         # the filters' row
        right = max(x for x in range(600, 1195)
                    if sum(abs(a - b) for a, b in zip(shot.getpixel((x, row_y))[:3], BACKGROUND)) > 30)
        app.click(right - 60, row_y)
        out = tmp_path / "grades.csv"
        save_file(app, out)
        rows = list(csv.DictReader(out.open(encoding="utf-8")))
        assert [(r["sketch"], r["pupil"], r["pupil_grade"], r["pupil_comment"]) for r in rows] == \
            [("Mias Haus", "Mia", "2", "Ein schönes Dach")], rows
    finally:
        for running in [app, pupil, second]:
            if running:
                running.stop()
        server.stop()
