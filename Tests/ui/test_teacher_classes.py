"""A teacher signed in to the school server sets up a class in the
teacher's window: makes the class, imports the class list (a bad row is
named, the rest added after asking), and gives everyone new pictures,
saving the sheet to print. The server is real; what it holds is checked
through its API."""
import json
import sys
import tempfile
import time
from pathlib import Path

from harness import SUGGESTED_BLUE, App, bbox, blobs, centre, find_color, small_buttons, wait_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer, call  # noqa: E402

BACKGROUND = (0xFB, 0xF8, 0xF2)
ACTIVE = (0x2B, 0x2B, 0x6E)
DESTRUCTIVE_RED = (0xE0, 0x1B, 0x24)


def row_items(shot, y, x0=10, x1=1190):
    """The controls crossing row `y`, left to right, as (x0, x1) runs."""
    xs = [x for x in range(x0, x1) if sum(abs(a - b) for a, b in zip(shot.getpixel((x, y))[:3], BACKGROUND)) > 30]
    runs, run = [], []
    for x in xs:
        if run and x - run[-1] > 4:
            runs.append((run[0], run[-1]))
            run = []
        run.append(x)
    if run:
        runs.append((run[0], run[-1]))
    return runs


def controls(shot, top):
    """The controls of the row starting at `top` (72 px tall), left to
    right, as (x0, x1): pairs of the border columns of each."""
    found = edges(shot, 10, 1190, top, top + 70)
    return [(found[i], found[i + 1]) for i in range(0, len(found) - 1, 2)]


def row_top(shot, y):
    """The first row at or below `y` with anything on it."""
    return next(r for r in range(y, 800, 2) if row_items(shot, r))


def edges(shot, x0, x1, y0, y1):
    """Where linked buttons meet: columns that are a border colour both
    above and below the text line (text is never that tall)."""
    def border(x, y):
        r, g, b = shot.getpixel((x, y))[:3]
        return 150 <= (r + g + b) / 3 <= 215 and max(r, g, b) - min(r, g, b) < 20
    ya, yb = y0 + (y1 - y0) // 5, y1 - (y1 - y0) // 5
    xs = [x for x in range(x0, x1) if border(x, ya) and border(x, yb)]
    out = []
    for x in xs:
        if not out or x - out[-1] > 6:
            out.append(x)
    return out


def save_file(app, path):
    time.sleep(1.5)
    app.screenshot("classes-file-dialog")
    app.key("ctrl+a")
    app.type(str(path))
    app.key("Return")
    wait_for(lambda: path.exists() and path.stat().st_size > 0, what=f"{path.name} written")


def test_a_teacher_makes_a_class_imports_the_list_and_prints_pictures(display, tmp_path):
    server = SchoolServer(Path(tempfile.mkdtemp())).start()
    app = None
    try:
        signed = server.sign_in()
        config = tmp_path / "config" / "teamsketch"
        config.mkdir(parents=True)
        # This laptop's teacher signed in earlier (the server screen's test
        # covers that); the sign-in is kept as the app keeps it.
        (config / "school.json").write_text(json.dumps({
            "server": server.url, "accountID": signed["account"]["id"], "name": signed["account"]["name"],
            "isTeacher": True, "token": signed["token"], "expiresAt": time.time() - 978307200 + 3600}))
        roster = tmp_path / "2b.csv"
        roster.write_text("name\nMia\nOle\nMia\n", encoding="utf-8")

        app = App(display, tmp_path)
        teacher = small_buttons(app)[0]
        app.click((teacher[0] + teacher[2]) / 2, (teacher[1] + teacher[3]) / 2)   # signed in: straight in
        tabs = wait_for(lambda: find_color(app.screenshot("classes-teacher"), ACTIVE, tol=10, box=(300, 20, 1000, 130)),
                        what="the teacher's window")
        active = bbox(tabs)                             # "Sketches", chosen
        tab_edges = edges(app.screenshot("classes-tabs"), active[2] + 3, 1030, active[1], active[3])
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
        top = row_top(shot, bbox(chosen)[3] + 6)
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
