"""A teacher signed in to the school server grades their pupil's sketch
and a guest's Buchstaben Post results, and looks at the grade list by
class: the pupil's grade goes under the pupil's account (the name on the
sketch is one of the class's pupils) and reaches the server; the guest is
no pupil of the class, so the class's list leaves their grade out. The
server is real; what it holds is checked through its API."""
import json
import sys
import tempfile
import time
from pathlib import Path

from harness import (ACTIVE, RED, App, blobs, centre, chosen_tab, curve, edges, find_color, pen_button, settled_shot,
                     small_buttons, start_new_sketch, wait_for)
from test_teacher_review import grade_keys, hover_click, save_button, seed_game_results

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer, call, keep_teacher_sign_in  # noqa: E402


def badges(app, name, below):
    """The grade list's badges (the grade in a dark block), top to bottom."""
    time.sleep(0.5)
    found = [b for b in blobs(app.screenshot(name), ACTIVE, tol=10) if b[1] > below and b[3] - b[1] < 70]
    return sorted(found, key=lambda b: b[1])


def test_a_teacher_grades_a_pupil_of_their_class_and_lists_the_class(display, tmp_path):
    server = SchoolServer(Path(tempfile.mkdtemp())).start()
    app = None
    try:
        signed = server.sign_in()
        token = signed["token"]
        klass = call(server.port, "POST", "/classes", token, {"name": "2b"})["id"]
        pupil = call(server.port, "POST", f"/classes/{klass}/pupils", token, {"name": "Pupil"})["id"]
        keep_teacher_sign_in(tmp_path, server, signed)

        # "Pupil" draws on the teacher's laptop; Ole, a guest, played
        # Buchstaben Post on it.
        app = App(display, tmp_path)
        shot, sheet = start_new_sketch(app, "Haus")
        app.click(*centre(pen_button(shot, sheet, RED)))
        app.drag(curve(sheet))
        seed_game_results(tmp_path, "Ole")
        app.click(45, 60)
        time.sleep(0.8)

        teacher = small_buttons(app)[0]
        app.click((teacher[0] + teacher[2]) / 2, (teacher[1] + teacher[3]) / 2)   # signed in: straight in
        active = chosen_tab(app, "grades-class-teacher")                          # "Sketches", chosen
        tab_y = (active[1] + active[3]) // 2
        tabs = edges(app.screenshot("grades-class-tabs"), 10, 1030, active[1], active[3])
        assert len(tabs) >= 5, tabs                   # Sketches | BP | Classes | Grades | Settings
        wait_for(lambda: find_color(app.screenshot("grades-class-sketches"), RED, tol=90, box=(0, 200, 1200, 800)),
                 what="the sketch's thumbnail", app=app)
        # The class menu comes with the roster from the server: the card
        # is aimed at once the page has all it shows.
        card = find_color(settled_shot(app, "grades-class-sketches", box=(0, 120, 1200, 800)), RED, tol=90, box=(0, 200, 1200, 800))
        hover_click(app, *centre(card))

        # The pupil's own grade, 2, saved with Return.
        save = wait_for(lambda: save_button(app.screenshot("grades-class-review")), what="the review", app=app)
        xs, y = wait_for(lambda: grade_keys(app.screenshot("grades-class-review"), save[0] - 10, 1195, 130, save[1] - 230),
                         what="the pupil's grade keys")
        app.click(xs[1], y)
        app.click(xs[1], y + 72)
        app.type("Fine lines")
        app.key("Return")

        # The server has it, under the pupil's account.
        def pupil_grades():
            page = call(server.port, "GET", "/sync/changes?after=0&limit=1000", token)
            payloads = [c["payload"] for c in page["changes"] if c["entity"] == "grade"]
            return [p if isinstance(p, dict) else json.loads(p) for p in payloads]
        graded = wait_for(pupil_grades, what="the grade on the server")
        assert graded[0]["pupilId"] == pupil and graded[0]["grade"] == 2 and graded[0]["pupilName"] == "Pupil", graded

        # A second thought: 3. Under the grade, what it was before: two more
        # lines of text ("Before:" and the 2 with its comment).
        def text_lines(name):
            """Lines of text under the comment that start where the pupil's
            grade keys do (the next heading starts further left)."""
            shot = app.screenshot(name)
            px = shot.load()
            starts = {}
            for yy in range(y + 90, min(shot.height, y + 300)):
                dark = [xx for xx in range(700, min(shot.width, 1195)) if sum(px[xx, yy][:3]) < 300]
                if dark:
                    starts[yy] = dark[0]
            lines, last = [], None
            for yy in sorted(starts):
                if last is None or yy - last > 2:
                    lines.append(starts[yy])
                else:
                    lines[-1] = min(lines[-1], starts[yy])
                last = yy
            return sum(1 for left in lines if xs[0] - 50 <= left <= xs[0] - 32)
        before = text_lines("grades-class-first")
        app.click(xs[2], y)
        app.click(xs[2], y + 72)
        app.key("Return")
        wait_for(lambda: len(pupil_grades()) == 2 or None, what="the second edit on the server")
        after = wait_for(lambda: (lambda n: n if n >= before + 2 else None)(text_lines("grades-class-history")),
                         what="the earlier grade under the grade")
        assert after >= before + 2, (before, after)

        # Ole's results get a 4.
        app.click(45, 60)
        time.sleep(1.0)
        app.click((tabs[1] + tabs[2]) / 2, tab_y)
        xs, y = wait_for(lambda: grade_keys(app.screenshot("grades-class-game"), 10, 1195, 300, 780),
                         what="the game's grade keys")
        app.click(xs[3], y)
        right = edges(app.screenshot("grades-class-game-graded"), xs[4] + 50, 1198, y - 14, y + 14)
        app.click((right[-2] + right[-1]) / 2, y)     # Save
        time.sleep(0.8)

        # The grade list: both; the class menu (right of the pupils') shows
        # 2b's, which is only the pupil's.
        app.click((tabs[3] + tabs[4]) / 2, tab_y)
        both = wait_for(lambda: len(badges(app, "grades-class-all", active[3] + 10)) == 2 or None,
                        what="two grades in the list")
        assert both
        shot = app.screenshot("grades-class-all")
        menus = edges(shot, 10, 1198, active[3] + 25, active[3] + 60)
        assert len(menus) >= 4, menus                 # the pupil menu's and the class menu's borders
        app.click((menus[2] + menus[3]) / 2, active[3] + 42)
        time.sleep(0.6)
        app.screenshot("grades-class-menu")
        app.key("Down")
        app.key("Return")
        one = wait_for(lambda: badges(app, "grades-class-2b", active[3] + 10), what="the class's grades")
        assert len(one) == 1, one
    finally:
        if app:
            app.stop()
        server.stop()
