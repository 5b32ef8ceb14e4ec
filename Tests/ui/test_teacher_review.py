"""A teacher reviews a pupil's sketch as it happens in class: the pupil
draws (and takes a slip back with Ctrl+Z), the teacher opens the sketch
from the teacher's window, zooms in for a closer look, grades the team and the pupil with comments,
and finds the grades in the exported spreadsheet and the PDF; then grades
the pupil's Buchstaben Post results, finds that grade in the game stats'
spreadsheet, and every grade in the grade list, which opens the review."""
import csv
import sqlite3
import time
import uuid

from harness import (RED, SUGGESTED_BLUE, App, bbox, blobs, centre, chosen_tab, curve, edges, find_color, pen_button, save_file,
                     choose_teacher_pin, start_new_sketch, wait_for)
from test_class_wall import dark_icons

ACTIVE = (0x2B, 0x2B, 0x6E)   # a chosen toggle (.choice:checked, .grade:checked)
BACKGROUND = (0xFB, 0xF8, 0xF2)


def hover_click(app, x, y):
    """A grid item activates on a click after the pointer came to rest on
    it, as a person's does."""
    app.xdo("mousemove", int(x) - 10, int(y) - 10)
    time.sleep(0.2)
    app.xdo("mousemove", int(x), int(y))
    time.sleep(0.2)
    app.click(x, y)


def save_button(shot):
    """The review's "Save grade": the biggest blue blob right of the replay
    (the ink bars and the timeline are blue too, but thin)."""
    found = [b for b in blobs(shot, SUGGESTED_BLUE, tol=20) if b[0] > 620 and b[3] - b[1] > 30]
    return max(found, key=lambda b: (b[2] - b[0]) * (b[3] - b[1])) if found else None


def grade_keys(shot, x0, x1, y0, y1):
    """The first row of five grade keys between y0 and y1 (five bordered
    buttons of one width, close together): their centres' x and a y inside
    them, or None."""
    for y in range(y0, y1, 4):
        e = edges(shot, x0, x1, y - 14, y + 14)
        for i in range(len(e) - 9):
            keys = [(e[i + 2 * k], e[i + 2 * k + 1]) for k in range(5)]
            widths = [b - a for a, b in keys]
            gaps = [keys[k + 1][0] - keys[k][1] for k in range(4)]
            if all(60 <= w <= 110 for w in widths) and max(widths) - min(widths) <= 4 and all(3 <= g <= 12 for g in gaps):
                return [(a + b) // 2 for a, b in keys], y + 12
    return None


def seed_game_results(tmp_path, name):
    """Three rounds of Buchstaben Post the pupil played (two words
    finished), as the game stores them."""
    db = sqlite3.connect(tmp_path / "teamsketch" / "teamsketch.sqlite")
    game, now = str(uuid.uuid4()), int(time.time() * 1000)
    for i, (word, finished, ms) in enumerate([("HUND", 1, 21000), ("KATZE", 1, 35000), ("MAUS", 0, 60000)]):
        db.execute("INSERT INTO wordPostRoundStat (id, gameId, round, playerName, word, finished, durationMs, "
                   "lettersSent, lettersReceived, wrongPlacements, playedAt) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                   (str(uuid.uuid4()), game, i + 1, name, word, finished, ms, 2, 1, i, now - (2 - i) * 60000))
    db.commit()
    db.close()


def test_a_teacher_replays_grades_and_exports_a_pupils_sketch(display, tmp_path):
    app = App(display, tmp_path)
    try:
        # The pupil draws a curve and a line, and takes the line back.
        shot, sheet = start_new_sketch(app, "Haus")
        app.click(*centre(pen_button(shot, sheet, RED)))
        app.drag(curve(sheet))
        top = sheet[1] + 60
        app.drag([(sheet[0] + 100 + i * 10, top) for i in range(40)])
        assert find_color(app.screenshot("review-two-lines"), RED, box=(sheet[0], top - 8, sheet[2], top + 8), tol=30)
        app.key("ctrl+z")
        time.sleep(0.5)
        undone = app.screenshot("review-undone")
        assert not find_color(undone, RED, box=(sheet[0], top - 8, sheet[2], top + 8), tol=30), "Ctrl+Z left the line"
        assert len(find_color(undone, RED, box=sheet, tol=30)) > 200, "Ctrl+Z took more than the last line"

        # The pupil played Buchstaben Post on this computer too.
        seed_game_results(tmp_path, "Pupil")

        # The teacher: home, the teacher button, a new PIN, the sketches.
        app.click(45, 60)
        time.sleep(0.8)
        choose_teacher_pin(app)                       # a new computer: the PIN chosen twice
        # The chosen tab, a tab-sized dark block (the PIN screen's title has
        # its colour, so a colour alone can match the title while it shows).
        settings_tab = chosen_tab(app, "review-teacher")
        # The tabs left of the chosen one (the last, the settings):
        # Sketches | Buchstaben Post | Classes | Grades | ...
        row_y = (settings_tab[1] + settings_tab[3]) // 2
        # Drawn a moment after the chosen tab on a busy machine.
        tabs = wait_for(lambda: (found if len(found := edges(app.screenshot("review-tabs"), 10, settings_tab[0] + 3,
                                                                   settings_tab[1], settings_tab[3])) >= 5 else None),
                        seconds=30, what="the teacher's tabs")
        app.click((tabs[0] + tabs[1]) / 2, row_y)
        card = wait_for(lambda: find_color(app.screenshot("review-sketches"), RED, tol=90, box=(0, 200, 1200, 800)),
                        what="the sketch's thumbnail")
        hover_click(app, *centre(card))

        # The review: the replay shows the curve; grade 2 and a comment.
        save = wait_for(lambda: save_button(app.screenshot("review-open")), what="the review's Save button")
        review = app.screenshot("review-open")
        assert len(find_color(review, RED, tol=40, box=(0, 100, 620, 720))) > 100, "the replay shows no ink"

        # A closer look: zoom in twice (second from the right in the top bar,
        # before Export) and the curve's line is drawn thicker; out again.
        def line_width(shot):
            red = find_color(shot, RED, tol=40, box=(0, 100, 620, 720))
            columns = {}
            for x, _ in red:
                columns[x] = columns.get(x, 0) + 1
            widths = sorted(columns.values())
            return widths[len(widths) // 2] if widths else 0
        before = line_width(review)
        icons = dark_icons(review, top=20, bottom=100, left=600)
        # Each zoom is drawn on the next frame, which a busy machine may
        # show later than any fixed pause: wait for the drawing itself.
        for _ in range(2):
            app.click(*icons[-2])
            time.sleep(0.3)
        def zoomed_width():
            width = line_width(app.screenshot("review-zoomed"))
            return width if width >= 1.6 * before else None
        wait_for(zoomed_width, what=f"zooming in to draw the line ({before} px) bigger")
        for _ in range(2):
            app.click(*icons[-3])
            time.sleep(0.3)
        wait_for(lambda: line_width(app.screenshot("review-unzoomed")) <= before + 1, what="zooming out to go back")
        grades_y = save[1] - 188
        app.click(save[0] + 40 + 88, grades_y)        # the second of five grade keys
        time.sleep(0.3)
        chosen = find_color(app.screenshot("review-graded"), ACTIVE, tol=10, box=(620, grades_y - 30, 1200, grades_y + 30))
        assert chosen, "no grade key shows as chosen"
        assert save[0] + 88 <= centre(chosen)[0] <= save[0] + 176, f"the wrong key is chosen: {bbox(chosen)}"
        app.click(save[0] + 200, save[1] - 60)        # the comment box
        app.type("Well drawn, Pupil")
        app.click(*centre([(save[0], save[1]), (save[2], save[3])]))
        time.sleep(0.5)

        # The pupil's own grade, under their share of the ink: 1, a comment,
        # Return saves it.
        own = grade_keys(app.screenshot("review-own"), save[0] - 10, 1195, 130, grades_y - 40)
        assert own, "no grade keys beside the pupil"
        xs, own_y = own
        app.click(xs[0], own_y)
        time.sleep(0.3)
        assert find_color(app.screenshot("review-own-graded"), ACTIVE, tol=10, box=(xs[0] - 30, own_y - 20, xs[0] + 30, own_y + 20)), \
            "the pupil's grade key does not show as chosen"
        app.click(xs[1], own_y + 72)                  # their comment, under the keys
        app.type("Bright colours")
        app.key("Return")
        time.sleep(0.8)

        # A PDF with the grade, from the review's export button.
        (tmp_path / "out").mkdir()
        app.click(1155, 60)
        save_file(app, tmp_path / "out" / "haus.pdf")
        assert (tmp_path / "out" / "haus.pdf").read_bytes().startswith(b"%PDF")

        # Back to the sketches; the grades spreadsheet has it.
        app.click(45, 60)
        time.sleep(1.0)
        shot = app.screenshot("review-back")
        row_y = 165
        right = max(x for x in range(600, 1195) if sum(abs(a - b) for a, b in zip(shot.getpixel((x, row_y))[:3], BACKGROUND)) > 30)
        app.click(right - 60, row_y)                   # "Export grades (CSV)…", the row's last
        save_file(app, tmp_path / "out" / "grades.csv")
        rows = list(csv.DictReader((tmp_path / "out" / "grades.csv").open(encoding="utf-8")))
        assert len(rows) == 1, rows
        assert rows[0]["sketch"] == "Haus" and rows[0]["pupil"] == "Pupil"
        assert rows[0]["team_grade"] == "2" and rows[0]["team_comment"] == "Well drawn, Pupil"
        assert rows[0]["pupil_grade"] == "1" and rows[0]["pupil_comment"] == "Bright colours"
        assert rows[0]["strokes"] == "2" and rows[0]["ink_percent"] == "100"

        # Buchstaben Post: the pupil's results get a 3 and a comment.
        tabs_shot = app.screenshot("review-tabs-again")
        active = bbox(find_color(tabs_shot, ACTIVE, tol=10, box=(0, 20, 1200, 130)))   # "Sketches"
        tabs = edges(tabs_shot, 10, 1030, active[1], active[3])
        tab_y = (active[1] + active[3]) // 2
        app.click((tabs[1] + tabs[2]) / 2, tab_y)
        game = wait_for(lambda: grade_keys(app.screenshot("review-game"), 10, 1195, 300, 780), what="the game's grade keys")
        xs, game_y = game
        app.click(xs[2], game_y)
        app.click(xs[4] + 150, game_y)                # the comment, right of the keys
        app.type("Quick with words")
        shot = app.screenshot("review-game-graded")
        assert find_color(shot, ACTIVE, tol=10, box=(xs[2] - 30, game_y - 20, xs[2] + 30, game_y + 20)), "3 is not chosen"
        right = edges(shot, int(xs[4]) + 50, 1198, game_y - 14, game_y + 14)
        app.click((right[-2] + right[-1]) / 2, game_y)   # its Save, the row's last
        time.sleep(0.8)
        # "Export game stats (CSV)…": the last button of the row above.
        above = edges(shot, 600, 1198, game_y - 84 - 14, game_y - 84 + 14)
        app.click((above[-2] + above[-1]) / 2, game_y - 84)
        save_file(app, tmp_path / "out" / "game.csv")
        stats = list(csv.DictReader((tmp_path / "out" / "game.csv").open(encoding="utf-8")))
        assert len(stats) == 1, stats
        assert stats[0]["pupil"] == "Pupil" and stats[0]["words"] == "2" and stats[0]["rounds"] == "3"
        assert stats[0]["seconds_per_word"] == "28.0" and stats[0]["wrong_placements"] == "3"
        assert stats[0]["grade"] == "3" and stats[0]["comment"] == "Quick with words"

        # The grade list: the team's, the pupil's and the game's grade, each
        # with its grade in a badge; the team's opens the review.
        app.click((tabs[3] + tabs[4]) / 2, tab_y)
        badges = wait_for(lambda: [b for b in blobs(app.screenshot("review-grades"), ACTIVE, tol=10)
                                   if b[1] > active[3] + 10], what="the grade list")
        time.sleep(0.5)
        badges = [b for b in blobs(app.screenshot("review-grades"), ACTIVE, tol=10) if b[1] > active[3] + 10]
        assert len(badges) == 3, badges
        badges.sort(key=lambda b: b[1])
        # Newest work first: the game (played after the sketch was made),
        # then the sketch's team, then its pupil.
        app.click(badges[1][2] + 200, (badges[1][1] + badges[1][3]) / 2)
        save = wait_for(lambda: save_button(app.screenshot("review-from-grades")), what="the review opened from the grade list")
        # It shows the grades given: the team's 2 and the pupil's 1 chosen.
        reopened = app.screenshot("review-from-grades")
        assert len(find_color(reopened, RED, tol=40, box=(0, 100, 620, 720))) > 100, "the replay shows no ink"
        assert find_color(reopened, ACTIVE, tol=10, box=(save[0] + 88, save[1] - 218, save[0] + 176, save[1] - 158)), \
            "the team's grade is not shown"
        own = grade_keys(reopened, save[0] - 10, 1195, 130, save[1] - 230)
        assert own and find_color(reopened, ACTIVE, tol=10, box=(own[0][0] - 30, own[1] - 20, own[0][0] + 30, own[1] + 20)), \
            "the pupil's grade is not shown"
    finally:
        app.stop()
