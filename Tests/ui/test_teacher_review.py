"""A teacher reviews a pupil's sketch as it happens in class: the pupil
draws (and takes a slip back with Ctrl+Z), the teacher opens the sketch
from the teacher's window, grades it with a comment, and finds the grade
in the exported spreadsheet and the PDF."""
import csv
import time

from harness import (RED, SUGGESTED_BLUE, App, bbox, blobs, centre, curve, find_color, pen_button, save_file,
                     small_buttons, start_new_sketch, wait_for)

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

        # The teacher: home, the teacher button, a new PIN, the sketches.
        app.click(45, 60)
        time.sleep(0.8)
        teacher = small_buttons(app)[0]
        app.click((teacher[0] + teacher[2]) / 2, (teacher[1] + teacher[3]) / 2)
        time.sleep(0.6)
        for _ in range(2):
            app.type("1357")
            app.key("Return")
            time.sleep(0.4)
        settings_tab = bbox(wait_for(lambda: find_color(app.screenshot("review-teacher"), ACTIVE, tol=10,
                                                        box=(500, 20, 1200, 130)), what="the teacher's window"))
        # "Sketches" is the first of the linked tabs: the first button edge
        # right of the title, in the row of the chosen tab.
        row_y = (settings_tab[1] + settings_tab[3]) // 2
        shot = app.screenshot("review-tabs")
        first = next(x for x in range(300, settings_tab[0])
                     if sum(abs(a - b) for a, b in zip(shot.getpixel((x, row_y))[:3], BACKGROUND)) > 30)
        app.click(first + 70, row_y)
        card = wait_for(lambda: find_color(app.screenshot("review-sketches"), RED, tol=90, box=(0, 200, 1200, 800)),
                        what="the sketch's thumbnail")
        hover_click(app, *centre(card))

        # The review: the replay shows the curve; grade 2 and a comment.
        save = wait_for(lambda: save_button(app.screenshot("review-open")), what="the review's Save button")
        review = app.screenshot("review-open")
        assert len(find_color(review, RED, tol=40, box=(0, 100, 620, 720))) > 100, "the replay shows no ink"
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
        assert rows[0]["grade"] == "2" and rows[0]["comment"] == "Well drawn, Pupil"
        assert rows[0]["strokes"] == "2" and rows[0]["ink_percent"] == "100"
    finally:
        app.stop()
