"""A teacher signed in to the school server sets up a class in the
teacher's window: makes the class, imports the class list (a bad row is
named, the rest added after asking), and gives everyone new pictures,
saving the sheet to print. The server is real; what it holds is checked
through its API."""
import sys
import tempfile
import time
from pathlib import Path

from harness import (ACTIVE, DESTRUCTIVE_RED, SUGGESTED_BLUE, App, bbox, blobs, centre, chosen_tab, controls, edges,
                     find_color, row_items, row_top, save_file, small_buttons, wait_for)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer, call, keep_teacher_sign_in  # noqa: E402

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
        # Right of "Sketches": BP|Classes, Classes|Settings, the end.
        assert len(tab_edges) >= 3, tab_edges
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
        assert len(row) == 4, row                      # new pupil, add, import, new pictures
        app.click((row[2][0] + row[2][1]) / 2, top + 35)
        save_file_like = tmp_path / "2b.csv"
        time.sleep(1.5)
        app.key("ctrl+a")
        app.type(str(save_file_like))
        app.key("Return")
        ask = wait_for(lambda: find_color(app.screenshot("classes-ask"), SUGGESTED_BLUE, tol=20), what="the question")
        app.click(*centre(ask))                         # "Add the other 2"
        wait_for(lambda: len(call(server.port, "GET", f"/classes/{klass}/pupils", signed["token"])) == 2,
                 what="the two pupils on the server")
        names = sorted(p["name"] for p in call(server.port, "GET", f"/classes/{klass}/pupils", signed["token"]))
        assert names == ["Mia", "Ole"]

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
    finally:
        if app:
            app.stop()
        server.stop()
