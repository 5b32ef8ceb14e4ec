"""A teacher signed in to the school server sets up a class in the
teacher's window: makes the class, imports the class list (a bad row is
named, the rest added after asking), and gives everyone new pictures,
saving the sheet to print. The server is real; what it holds is checked
through its API."""
import sys
import tempfile
import time
import urllib.error
from pathlib import Path

from harness import (ACTIVE, DESTRUCTIVE_RED, SUGGESTED_BLUE, App, bbox, blobs, centre, chosen_tab, controls, edges,
                     find_color, row_items, row_top, save_file, small_buttons, wait_for)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer, call, keep_teacher_sign_in  # noqa: E402

PUPIL_NOTE = (163, 72, 14)   # .pupil-note in teamsketch.css


def test_a_teacher_makes_a_class_imports_the_list_and_prints_pictures(display, tmp_path):
    server = SchoolServer(Path(tempfile.mkdtemp())).start()
    app = None
    try:
        signed = server.sign_in()
        keep_teacher_sign_in(tmp_path, server, signed)
        roster = tmp_path / "2b.csv"
        roster.write_text("name\nMia\nOle\nMia\n", encoding="utf-8")

        app = App(display, tmp_path)
        teacher = small_buttons(app)[0]
        app.click((teacher[0] + teacher[2]) / 2, (teacher[1] + teacher[3]) / 2)   # signed in: straight in
        active = chosen_tab(app, "classes-teacher")  # "Sketches", chosen
        tab_edges = edges(app.screenshot("classes-tabs"), active[2] + 8, 1030, active[1], active[3])
        # Right of "Sketches": BP|Classes, Classes|Grades, Grades|Settings, the end.
        assert len(tab_edges) >= 4, tab_edges
        app.click((tab_edges[0] + tab_edges[1]) / 2, (active[1] + active[3]) / 2)   # "Classes", the third

        # A new class: the field is the first control under the tabs.
        time.sleep(1.0)
        shot = app.screenshot("classes-empty")
        top = row_top(shot, active[3] + 10)
        field = controls(shot, top)[0]
        app.click((field[0] + field[1]) / 2, top + 35)
        app.type("2b")
        app.key("Return")
        chosen = wait_for(lambda: find_color(app.screenshot("classes-made"), ACTIVE, tol=10, box=(0, 130, 600, 230)),
                          what="the new class")
        classes = call(server.port, "GET", "/classes", signed["token"])
        assert [c["name"] for c in classes] == ["2b"]
        klass = classes[0]["id"]

        # The class list: one row is the same name again.
        shot = app.screenshot("classes-pupil-row")
        top = row_top(shot, bbox(chosen)[3] + 6)      # the class's name, Rename, Archive
        while row_items(shot, top):
            top += 2
        top = row_top(shot, top)                       # the pupils' row
        row = controls(shot, top)
        if len(row) == 3:
            # The new pupil's field has the keyboard: its focus ring hides
            # its border. It starts where the class's button does.
            row.insert(0, (bbox(chosen)[0], row[0][0] - 12))
        assert len(row) == 4, row                      # new pupil, add, import, new pictures
        def import_roster(name):
            """Import class list (CSV)…, the file's path typed, and the
            question about its repeated Mia answered "Add the other 2"."""
            app.click((row[2][0] + row[2][1]) / 2, top + 35)
            time.sleep(1.5)
            app.key("ctrl+a")
            app.type(str(roster))
            app.key("Return")
            ask = wait_for(lambda: find_color(app.screenshot(name), SUGGESTED_BLUE, tol=20), what="the question")
            app.click(*centre(ask))
        import_roster("classes-ask")
        wait_for(lambda: len(call(server.port, "GET", f"/classes/{klass}/pupils", signed["token"])) == 2,
                 what="the two pupils on the server")
        names = sorted(p["name"] for p in call(server.port, "GET", f"/classes/{klass}/pupils", signed["token"]))
        assert names == ["Mia", "Ole"]
        wait_for(lambda: "roster: added 2 of 2, already 0" in app.read_log(), what="how many were added")

        # Two more by hand, one after the other as a teacher types them:
        # the field keeps the keyboard, so the second name is a pupil too,
        # never the class's new name.
        time.sleep(1.0)
        app.click((row[0][0] + row[0][1]) / 2, top + 35)
        app.type("Ben")
        app.key("Return")
        app.type("Lea")
        app.key("Return")
        wait_for(lambda: len(call(server.port, "GET", f"/classes/{klass}/pupils", signed["token"])) == 4,
                 what="Ben and Lea on the server")
        names = sorted(p["name"] for p in call(server.port, "GET", f"/classes/{klass}/pupils", signed["token"]))
        assert names == ["Ben", "Lea", "Mia", "Ole"], names
        assert [c["name"] for c in call(server.port, "GET", "/classes", signed["token"])] == ["2b"]

        # The same list again: nobody is added twice, and the teacher is
        # told who was there already rather than left to wonder.
        time.sleep(1.0)
        import_roster("classes-ask-again")
        wait_for(lambda: "roster: added 0 of 0, already 2" in app.read_log(), what="the names already there said")
        assert len(call(server.port, "GET", f"/classes/{klass}/pupils", signed["token"])) == 4
        app.screenshot("classes-already")
        # After the import the keyboard is in the new pupil's field, not in
        # the class's name: typing a name adds a pupil.
        wait_for(lambda: app.read_log().count("classes: the next pupil's name has the keyboard") == 2,
                 what="the page made anew after the second import")
        app.type("Zoe")
        app.key("Return")
        wait_for(lambda: len(call(server.port, "GET", f"/classes/{klass}/pupils", signed["token"])) == 5,
                 what="Zoe on the server")
        assert [c["name"] for c in call(server.port, "GET", "/classes", signed["token"])] == ["2b"]

        # New pictures for everyone: asked first, then the sheet is saved.
        time.sleep(1.0)
        app.click((row[3][0] + row[3][1]) / 2, top + 35)
        def red_button():
            found = blobs(app.screenshot("classes-sure"), DESTRUCTIVE_RED, tol=30)
            return max(found, key=lambda b: (b[2] - b[0]) * (b[3] - b[1])) if found else None
        sure = wait_for(red_button, what="the question")
        app.click((sure[0] + sure[2]) / 2, (sure[1] + sure[3]) / 2)     # "New pictures"
        sheet = tmp_path / "2b.pdf"
        save_file(app, sheet)
        assert sheet.read_bytes().startswith(b"%PDF")
        wait_for(lambda: all(p["hasPicturePassword"] for p in
                             call(server.port, "GET", f"/classes/{klass}/pupils", signed["token"])),
                 what="everyone's pictures on the server")
        app.screenshot("classes-done")

        # Someone guesses Mia's pictures; back on the class, the teacher
        # reads it under her row.
        mia = next(p["id"] for p in call(server.port, "GET", f"/classes/{klass}/pupils", signed["token"]) if p["name"] == "Mia")
        for _ in range(3):
            try:
                call(server.port, "POST", "/sign-in/pupil", body={"pupilId": mia, "pictures": [8, 8, 8]})
            except urllib.error.HTTPError as refused:
                assert refused.code == 401, refused.code
        assert [p.get("failedSignInsToday") for p in call(server.port, "GET", f"/classes/{klass}/pupils", signed["token"])
                if p["name"] == "Mia"] == [3]
        assert not find_color(app.screenshot("classes-no-note"), PUPIL_NOTE, tol=14), "no note before"
        app.click((tab_edges[2] + tab_edges[3]) / 2, (active[1] + active[3]) / 2)   # "Classroom settings"
        # The class made in this window since it opened is offered there
        # at once (before, only after locking and opening it again).
        wait_for(lambda: "settings: classes offered: 1" in app.read_log(), what="2b among the settings' choices")
        time.sleep(0.5)
        app.click((tab_edges[0] + tab_edges[1]) / 2, (active[1] + active[3]) / 2)   # "Classes" again
        note = wait_for(lambda: find_color(app.screenshot("classes-note"), PUPIL_NOTE, tol=14), what="the note under Mia")
        assert bbox(note)[1] > top, "under the pupils, not in the header"
    finally:
        if app:
            app.stop()
        server.stop()
