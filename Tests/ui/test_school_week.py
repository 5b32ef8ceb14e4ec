"""A school week with one class, as the people in it go through it: the
school's first teacher account is made on the server's command line;
she, the school's admin, makes her colleague's account in her window,
makes class 2b, imports its list, makes a word list from a file and gives
it to 2b; two classroom laptops, fresh from the box, are set up for the
class at their first start, and Mia and Ole sign in with their pictures;
they draw one sketch together over the LAN, Ole on a 1366 × 768 screen
with his whole pen bar, and play Buchstaben Post together with the
teacher's list; the teacher grades each of them with a comment; each
pupil finds their own grade and comment on their laptop, not the
other's; then the teacher moves Ole to 2c, removes Ben for good and
exports the grades and the game's results. Three apps with their own
data on their own displays, one real school server; every screen is
judged by the controls a person needs on it."""
import csv
import json
import re
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import a11y
from harness import (ACCEPT_GREEN, ACTIVE, DARK_BLUE, DESTRUCTIVE_RED, EMPTY_SLOT, RED, SUGGESTED_BLUE, TILE_YELLOW,
                     App, Display, bbox, blobs,
                     centre, controls, curve, edges, find_color, join_by_code, open_lobby, pen_button,
                     press_home_button, row_items, row_top, save_file, settled_shot, shown_sheet, wait_for)
from test_first_run import set_up_for_class, start
from test_joiner_screen_size import fits
from test_pupil_feedback import stars
from test_pupil_sign_in import ME, badges
from test_wordpost_together import TRAIN_RED, actions_button
from test_screen_sizes import geometry, maximise, wait_for_window_manager
from test_teacher_journey import open_teacher_window
from test_teacher_people import click_named, pressed, pupils, signs_in
from test_teacher_review import hover_click

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer, call, keep_teacher_sign_in  # noqa: E402


def sign_in_with_pictures(app, home, badge, pictures, name):
    """"Me", the pupil's name badge (`badge`-th from the left), their three
    pictures: signed in once the laptop keeps the sign-in."""
    app.click(*ME)
    names = wait_for(lambda: badges(app.screenshot(f"{name}-names"), (300, 200, 900, 380)), seconds=20,
                     what="the class's names", app=app)
    assert len(names) == 2, f"two pupils have pictures, {len(names)} names are offered"
    app.click(*names[badge])
    slots = bbox(wait_for(lambda: find_color(app.screenshot(f"{name}-pictures"), EMPTY_SLOT, tol=4),
                          what="the picture slots", app=app))
    row0 = slots[3] + 76
    for i in pictures:
        app.click(600 + 126 * (i % 3 - 1), row0 + 126 * (i // 3))
    wait_for((home / "config" / "teamsketch" / "school.json").exists, what=f"{name}'s sign-in", app=app)
    time.sleep(1.0)


def game_screen(app, name):
    """Buchstaben Post's game: letters in hand, the trains, the word's
    empty slots; else None."""
    shot = app.screenshot(name)
    tiles, trains = blobs(shot, TILE_YELLOW), blobs(shot, TRAIN_RED, tol=20)
    return (shot, tiles, trains) if tiles and trains and blobs(shot, EMPTY_SLOT) else None


def shows_page_after(app, mark, page):
    """Whether the app's log says `page` was shown after `mark` bytes."""
    app.log.flush()
    log = app.data_home / "app.log"
    return f"page: {page}" in log.read_bytes()[mark:].decode(errors="replace").splitlines()


def log_size(app):
    app.log.flush()
    return (app.data_home / "app.log").stat().st_size


def dialog_button(app, colour, shot_name, what):
    """A question's button of `colour`: a blob of a button's size, the one
    nearest the window's middle, where questions open (a red train or red
    ink elsewhere is not it)."""
    def found():
        shot = app.screenshot(shot_name)
        middle = (shot.size[0] / 2, shot.size[1] / 2)
        buttons = [b for b in blobs(shot, colour, tol=30)
                   if 90 <= b[2] - b[0] <= 240 and 36 <= b[3] - b[1] <= 80]
        return min(buttons, key=lambda b: abs((b[0] + b[2]) / 2 - middle[0]) + abs((b[1] + b[3]) / 2 - middle[1])) \
            if buttons else None
    return wait_for(found, what=what, app=app)


def centre_of(box):
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def click_tab(app, root, name):
    """A click on the teacher window's tab of that name: the push button of
    the name in the row of "Sketches" (the home screen's hidden "Buchstaben
    Post" button shares the tab's name)."""
    row = a11y.find(root, "Sketches", role="push button").queryComponent().getExtents(0)
    for n in a11y.nodes(root):
        try:
            if n.name == name and n.getRoleName() == "push button":
                e = n.queryComponent().getExtents(0)
                if abs(e.y - row.y) <= 4 and e.width > 0:
                    app.click(e.x + e.width / 2, e.y + e.height / 2)
                    time.sleep(0.8)
                    return
        except Exception:
            pass
    raise AssertionError(f"no tab {name!r} beside Sketches")


def local_grades(home):
    with sqlite3.connect(home / "teamsketch" / "teamsketch.sqlite") as db:
        return [json.loads(r) for (r,) in db.execute("SELECT record FROM grade")]


def test_a_school_week_with_one_class(display, tmp_path, bus):
    # The admin makes the teacher's account (`TeamsketchServer
    # create-teacher`, the password on its standard input).
    server = SchoolServer(Path(tempfile.mkdtemp())).start()
    teacher = mia = ole = small = second = None
    try:
        signed = server.sign_in()
        token = signed["token"]
        laptop = tmp_path / "teacher"
        keep_teacher_sign_in(laptop, server, signed)
        roster = tmp_path / "2b.csv"
        roster.write_text("name\nMia\nOle\nBen\n", encoding="utf-8")

        # Monday: the teacher makes 2b and imports its list.
        teacher = App(display, laptop, extra_env=bus.app_env)
        active = open_teacher_window(teacher)
        tabs = edges(teacher.screenshot("week-tabs"), active[2] + 8, 1030, active[1], active[3])
        teacher.click((tabs[0] + tabs[1]) / 2, (active[1] + active[3]) / 2)          # "Classes"
        time.sleep(1.0)
        shot = teacher.screenshot("week-classes")
        top = row_top(shot, active[3] + 10)
        field = controls(shot, top)[0]
        teacher.click((field[0] + field[1]) / 2, top + 35)
        teacher.type("2b")
        teacher.key("Return")
        chosen = wait_for(lambda: find_color(teacher.screenshot("week-class"), ACTIVE, tol=10, box=(0, 130, 600, 230)),
                          what="the new class shown chosen", app=teacher)
        two_b = call(server.port, "GET", "/classes", token)[0]["id"]
        shot = teacher.screenshot("week-class-rows")
        row = row_top(shot, bbox(chosen)[3] + 6)
        while row_items(shot, row):
            row += 2
        row = row_top(shot, row)                           # new pupil, add, import, pictures
        buttons = controls(shot, row)
        assert len(buttons) >= 3, f"the pupils' row shows {len(buttons)} controls, not its import button"
        teacher.click((buttons[2][0] + buttons[2][1]) / 2, row + 35)
        time.sleep(1.5)
        teacher.key("ctrl+a")
        teacher.type(str(roster))
        teacher.key("Return")
        listed = wait_for(lambda: (lambda p: p if len(p) == 3 else None)(
            call(server.port, "GET", f"/classes/{two_b}/pupils", token)), what="the three pupils on the server",
            app=teacher)
        ids = {p["name"]: p["id"] for p in listed}

        # She is the school's admin: she makes her colleague's account too.
        root = a11y.root(teacher)
        click_named(teacher, root, "Name of the new teacher", role=None)
        teacher.type("Herr Kurz")
        click_named(teacher, root, "First password of the new teacher", role=None)
        teacher.type("tafel und kreide")
        teacher.key("Return")
        wait_for(lambda: signs_in(server, "Herr Kurz", "tafel und kreide"), what="Herr Kurz signing in", app=teacher)

        # She makes a word list of animals from a file and gives it to 2b.
        words = tmp_path / "tiere.csv"
        words.write_text("word,hint,priority\nHUND,Er bellt.,1\nKATZE,Sie miaut.,1\nMAUS,Sie ist klein.,1\n",
                         encoding="utf-8")
        click_tab(teacher, root, "Buchstaben Post")
        click_named(teacher, root, "Word lists")
        click_named(teacher, root, "New word list", role=None)
        click_named(teacher, root, "Import words (CSV)…", role=None)
        save_file(teacher, words)
        wait_for(lambda: a11y.find(root, "Save the word list").queryComponent().getExtents(0).width > 0 or None,
                 what="the file chooser closed", app=teacher)
        time.sleep(0.5)
        # The name field is the row above the blue Save.
        save = bbox(find_color(teacher.screenshot("week-word-list"), SUGGESTED_BLUE, tol=20))
        teacher.click(save[2] + 20, save[1] - 28)
        teacher.key("ctrl+a")
        teacher.type("Tiere")
        wait_for(lambda: a11y.focused(root).name == "Name of the word list" or None, what="the name field's keyboard",
                 app=teacher)
        click_named(teacher, root, "Save the word list", role=None)
        wait_for(lambda: "word lists: ✓ “Tiere” is saved." in teacher.read_log(), what="the list saved", app=teacher)
        given_to = a11y.find(root, "2b", role="check box", seconds=15)
        assert not pressed(given_to), "the new list is given to 2b before she says so"
        # "Given to:" and a box for each class, in the row under Save: the
        # first drawn thing right of the words is 2b's box.
        shot = teacher.screenshot("week-given-to")
        page = shot.getpixel((10, save[3] + 40))[:3]
        box = next((x, y) for y in range(save[3] + 20, save[3] + 90, 2) for x in range(140, 400)
                   if sum(abs(a - b) for a, b in zip(shot.getpixel((x, y))[:3], page)) > 60)
        teacher.click(box[0] + 6, box[1] + 6)
        wait_for(lambda: pressed(given_to) or None, what="2b ticked", app=teacher)

        def pools_for(klass):
            page = call(server.port, "GET", "/sync/changes?after=0&limit=1000", token)["changes"]
            given = [json.loads(c["payload"]) | {"pool": c["entityId"]} for c in page if c["entity"] == "poolAssignment"]
            return [g["pool"] for g in given if g.get("classId") == klass and g.get("assigned")]
        pool = wait_for(lambda: pools_for(two_b), seconds=30, what="the list given to 2b on the server", app=teacher)[0]
        saved = [json.loads(c["payload"]) for c in call(server.port, "GET", "/sync/changes?after=0&limit=1000", token)["changes"]
                 if c["entity"] == "pool" and c["entityId"] == pool]
        assert [i["word"] for i in saved[-1]["pool"]["items"]] == ["HUND", "KATZE", "MAUS"], saved
        # The pictures the window would print on cards; a test must know them.
        call(server.port, "PUT", f"/pupils/{ids['Mia']}/picture-password", token, {"pictures": [4, 5, 6]})
        call(server.port, "PUT", f"/pupils/{ids['Ole']}/picture-password", token, {"pictures": [0, 1, 2]})

        # Two fresh classroom laptops are set up for 2b at their first
        # start; Mia and Ole sign in with their pictures. Ole's laptop has
        # a 1366 × 768 screen.
        mia_home, ole_home = tmp_path / "mia", tmp_path / "ole"
        mia_home.mkdir()
        ole_home.mkdir()
        small = Display("1366x768").start()
        wait_for_window_manager(small)
        second = Display().start()
        mia, page = start(second, mia_home, extra_env=bus.app_env)
        assert page == "first-run", page
        set_up_for_class(mia, server, two_b, "mia")
        sign_in_with_pictures(mia, mia_home, 0, [4, 5, 6], "mia")
        ole, page = start(small, ole_home, extra_env=bus.app_env)
        assert page == "first-run", page
        set_up_for_class(ole, server, two_b, "ole")
        sign_in_with_pictures(ole, ole_home, 1, [0, 1, 2], "ole")

        # Tuesday: they draw one sketch together. Ole's window fills his
        # small screen, pen bar and all.
        width, height = maximise(ole, ole.window, 1366, 768)
        code = open_lobby(mia, "Zoo")
        join_by_code(ole, code)
        mia.click(*centre(wait_for(lambda: find_color(mia.screenshot("week-lobby"), ACCEPT_GREEN, tol=30),
                                   what="Ole in Mia's lobby", app=mia)))
        time.sleep(0.5)
        mia.click(*centre(wait_for(lambda: find_color(mia.screenshot("week-lobby-ready"), SUGGESTED_BLUE, tol=25),
                                   what="Start", app=mia)))
        ole_shot, ole_sheet = wait_for(lambda: shown_sheet(ole, "week-ole-sheet"), what="Ole's sheet", app=ole)
        mia_shot, mia_sheet = wait_for(lambda: shown_sheet(mia, "week-mia-sheet"), what="Mia's sheet", app=mia)
        fits(ole, width, height, "Ole's sketch screen")
        ole_shot = ole.screenshot("week-ole-sheet")
        _, y, _, h = geometry(ole, ole.window)
        assert ole_sheet[3] < y + h - 60, f"no room for the pen bar under Ole's sheet ({ole_sheet}, window to {y + h})"
        pen = pen_button(ole_shot, ole_sheet, DARK_BLUE)
        assert max(p[1] for p in pen) < y + h - 2, "Ole's dark blue pen is below his screen"
        mia.click(*centre(pen_button(mia_shot, mia_sheet, RED)))
        mia.drag(curve(mia_sheet))
        ole.click(*centre(pen))
        ole.drag([(x, y + 60) for x, y in curve(ole_sheet)])
        wait_for(lambda: len(find_color(mia.screenshot("week-both"), DARK_BLUE, tol=40, box=mia_sheet)) > 200,
                 what="Ole's dark blue line on Mia's sheet", app=mia)
        wait_for(lambda: len(find_color(ole.screenshot("week-both-ole"), RED, tol=40, box=ole_sheet)) > 200,
                 what="Mia's red line on Ole's sheet", app=ole)
        # Home: Ole leaves, then Mia, the host, ends the session for
        # everyone (each after a question with a red button). The sketch
        # stays saved on both laptops.
        for app, name in [(ole, "ole"), (mia, "mia")]:
            mark = log_size(app)
            app.click(45, 60)
            app.click(*centre_of(dialog_button(app, DESTRUCTIVE_RED, f"week-{name}-leaves",
                                               f"the question before {name} leaves the session")))
            wait_for(lambda: shows_page_after(app, mark, "home"), what=f"{name} at home", app=app)

        # In the afternoon they play Buchstaben Post together with the
        # teacher's list: on both laptops it is the one offered.
        for app, home, name in [(mia, mia_home, "mia"), (ole, ole_home, "ole")]:
            def assigned():
                with sqlite3.connect(home / "teamsketch" / "teamsketch.sqlite") as db:
                    return db.execute("SELECT count(*) FROM poolAssignment").fetchone()[0] > 0
            wait_for(assigned, seconds=60, what=f"the class's list on {name}'s laptop", app=app)
            press_home_button(app, 4)                       # Buchstaben Post
            offered = wait_for(lambda: re.search(r"word lists: (\S+) chosen=(\S+) fromTeacher=(\w+)", app.read_log()),
                               what=f"the lists offered on {name}'s laptop", app=app)
            assert (offered[1], offered[2], offered[3]) == (pool, pool, "true"), offered.group(0)
        mia.click(*actions_button(mia, 1))                  # Play together
        game_code = wait_for(lambda: re.findall(r"hosting: code=(\d{6})", mia.read_log())[1:] or None,
                             what="the game's join code", app=mia)[0]
        ole.click(*actions_button(ole, 2))                  # Join
        time.sleep(0.5)
        ole.type(game_code)
        ole.key("Return")
        mia.click(*centre(wait_for(lambda: find_color(mia.screenshot("week-game-lobby"), ACCEPT_GREEN, tol=30),
                                   what="Ole in the game's lobby", app=mia)))
        time.sleep(0.5)
        mia.click(*centre(wait_for(lambda: find_color(mia.screenshot("week-game-ready"), SUGGESTED_BLUE, tol=25),
                                   what="the game's Start", app=mia)))
        for app, name in [(ole, "ole"), (mia, "mia")]:
            wait_for(lambda: game_screen(app, f"week-{name}-game"), what=f"{name}'s game: own word and the trains",
                     app=app)
        assert "page: wordpost" in ole.read_log().splitlines()
        for app, name in [(ole, "ole"), (mia, "mia")]:
            mark = log_size(app)
            app.click(45, 60)
            # "End the game?": its red End (the train is red as well).
            app.click(*centre_of(dialog_button(app, DESTRUCTIVE_RED, f"week-{name}-ends-game",
                                               f"the question before {name} ends the game")))
            wait_for(lambda: shows_page_after(app, mark, "home"), what=f"{name} at home", app=app)

        def zoo():
            listed = call(server.port, "GET", "/sketches", token)
            return next((s for s in listed if s.get("name") == "Zoo" and len(s.get("authors", [])) == 2), None)
        sketch = wait_for(zoo, seconds=60, what="the team's sketch on the server with both as its authors")
        assert sorted(sketch["authors"]) == sorted([ids["Mia"], ids["Ole"]]), sketch

        # Wednesday: the teacher's window, open all along, gets the sketch
        # with its next pull; she grades each of them, with a comment.
        teacher.click((active[0] + active[2]) / 2, (active[1] + active[3]) / 2)    # "Sketches"
        wait_for(lambda: find_color(teacher.screenshot("week-sketches"), RED, tol=90, box=(0, 200, 1200, 800)),
                 seconds=50, what="the team's sketch in the teacher's list", app=teacher)
        card = find_color(settled_shot(teacher, "week-sketches", box=(0, 120, 1200, 800)), RED, tol=90,
                          box=(0, 200, 1200, 800))
        hover_click(teacher, *centre(card))
        wait_for(lambda: "page: review" in teacher.read_log().splitlines(), what="the review", app=teacher)
        a11y.find(root, "Grade 2 for Mia", seconds=15)
        review = teacher.screenshot("week-review")
        assert len(find_color(review, DARK_BLUE, tol=40, box=(0, 100, 720, 720))) > 200, "Ole's line is not replayed"
        given = {"Mia": (2, "Ein schönes Dach"), "Ole": (3, "Mehr Farben!")}
        for name, (grade, comment) in given.items():
            click_named(teacher, root, f"Grade {grade} for {name}", role=None)
            click_named(teacher, root, f"Comment for {name}", role=None)
            teacher.type(comment)
            teacher.key("Return")
        teacher.screenshot("week-graded")

        def grades_on_server():
            page = call(server.port, "GET", "/sync/changes?after=0&limit=1000", token)
            records = [json.loads(c["payload"]) for c in page["changes"] if c["entity"] == "grade"]
            return {r.get("pupilId"): (r.get("grade"), r.get("comment")) for r in records}
        wait_for(lambda: grades_on_server().get(ids["Ole"]) == given["Ole"] or None, seconds=45,
                 what=lambda: f"both grades on the server, under each pupil; it has {grades_on_server()}", app=teacher)
        assert grades_on_server().get(ids["Mia"]) == given["Mia"], grades_on_server()

        # Thursday: each pupil finds their own grade under the sketch in
        # "Open" (a 2 is four stars, a 3 three) and, tapped, the teacher's
        # words, not the classmate's.
        for app, home, name, count in [(mia, mia_home, "Mia", 4), (ole, ole_home, "Ole", 3)]:
            wait_for(lambda: [g for g in local_grades(home) if g.get("comment") == given[name][1]] or None,
                     seconds=60, what=f"{name}'s grade on {name}'s laptop", app=app)
            assert not [g for g in local_grades(home) if g.get("comment") == given["Ole" if name == "Mia" else "Mia"][1]], \
                f"{name}'s laptop holds the classmate's grade"
            press_home_button(app, 3)                       # Open
            small_stars = wait_for(lambda: (lambda found: found if len(found) == count else None)(
                stars(app.screenshot(f"week-{name}-open"))), what=f"{count} stars under {name}'s card", app=app)
            x0, x1 = min(b[0] for b in small_stars), max(b[2] for b in small_stars)
            app.click((x0 + x1) / 2, (small_stars[0][1] + small_stars[0][3]) / 2)
            wait_for(lambda: "page: feedback" in app.read_log().splitlines(), what=f"{name}'s feedback", app=app)
            a11y.find(a11y.root(app), given[name][1], role="label")
            assert len(stars(app.screenshot(f"week-{name}-feedback"))) == count

        # Friday: Ole moves to 2c; Ben leaves the school and is removed for
        # good; the grades go out as a spreadsheet.
        two_c = call(server.port, "POST", "/classes", token, {"name": "2c"})["id"]
        teacher.click(45, 60)                               # from the review back to the sketches
        time.sleep(0.8)
        click_named(teacher, root, "Classes")               # shown again: 2c is there too
        a11y.find(root, "Move Ole to another class", seconds=15)
        click_named(teacher, root, "Move Ole to another class")
        # The question: the other class, 2c, chosen already (dark) above
        # the blue Move.
        move = dialog_button(teacher, SUGGESTED_BLUE, "week-move", "the question before moving Ole")
        assert find_color(teacher.screenshot("week-move"), ACTIVE, tol=10,
                          box=(move[0] - 250, move[1] - 160, move[2] + 250, move[1])), "2c is not shown chosen"
        teacher.click(*centre_of(move))
        wait_for(lambda: pupils(server, token, two_c) == ["Ole"], what="Ole in 2c on the server", app=teacher)
        click_named(teacher, root, "Remove Ben")
        sure = dialog_button(teacher, DESTRUCTIVE_RED, "week-remove", "the question before removing Ben")
        a11y.find(root, "Remove Ben for good?", role="label")
        teacher.click(*centre_of(sure))
        wait_for(lambda: pupils(server, token, two_b) == ["Mia"], what="Ben removed, Ole gone to 2c", app=teacher)
        a11y.find(root, "Ben was removed.", role="label")

        click_named(teacher, root, "Sketches")
        click_named(teacher, root, "Export grades (CSV)…")
        out = tmp_path / "grades.csv"
        save_file(teacher, out)
        rows = sorted((r["sketch"], r["pupil"], r["pupil_grade"], r["pupil_comment"])
                      for r in csv.DictReader(out.open(encoding="utf-8")))
        assert rows == [("Zoo", "Mia", "2", "Ein schönes Dach"), ("Zoo", "Ole", "3", "Mehr Farben!")], rows
        # And the game's spreadsheet: a row of the header's width for each
        # pupil who played, Ole under his new class's teacher all the same.
        click_tab(teacher, root, "Buchstaben Post")
        click_named(teacher, root, "Results")
        click_named(teacher, root, "Export game stats (CSV)…")
        games = tmp_path / "games.csv"
        save_file(teacher, games)
        text = games.read_text(encoding="utf-8")
        table = list(csv.reader(text.splitlines(), csv.Sniffer().sniff(text, delimiters=",;")))
        assert table and "pupil" in table[0], table
        assert all(len(row) == len(table[0]) for row in table), table
    finally:
        for running in [teacher, mia, ole, small, second]:
            if running:
                running.stop()
        server.stop()
