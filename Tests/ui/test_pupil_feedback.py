"""A pupil sees what the teacher said about their sketch: under its card in
"Open", stars and a speech bubble; tapped, the sketch big with the stars
and the teacher's words, and "Draw on" takes them back to drawing."""
import json
import sqlite3
import time

from harness import (RED, SUGGESTED_BLUE, App, blobs, centre, draw_a_red_sketch, find_color, press_home_button, shown_sheet,
                     wait_for)

STAR_YELLOW = (0xF2, 0xB7, 0x05)


def grade_sketch(tmp_path, grade, comment):
    """The team's grade as it arrives from the school server."""
    db = sqlite3.connect(tmp_path / "teamsketch" / "teamsketch.sqlite")
    (sketch,) = db.execute("SELECT id FROM sketch").fetchone()
    record = {"target": "sketch", "targetId": sketch.lower(), "grade": grade, "comment": comment, "deleted": False,
              "at": int(time.time() * 1000)}
    db.execute("INSERT INTO grade (id, targetId, record) VALUES (?, ?, ?)",
               ("5d0c6a34-7a0e-4bb4-9a53-6f1a0c2d3e4f", sketch.lower(), json.dumps(record).encode()))
    db.commit()
    db.close()


def stars(shot, box=None):
    return blobs(shot.crop(box) if box else shot, STAR_YELLOW, tol=30, step=2, min_cells=8)


def test_a_pupil_sees_the_teachers_stars_and_words(display, tmp_path):
    heard = tmp_path / "heard"
    heard.mkdir()
    app = App(display, tmp_path, extra_env={"TEAMSKETCH_SPEECH_DIR": str(heard)})
    try:
        draw_a_red_sketch(app, "Haus")
        grade_sketch(tmp_path, 2, "Ein schönes Haus!")

        press_home_button(app, 3)                           # Open
        small = wait_for(lambda: (lambda found: found if len(found) == 4 else None)(
            stars(app.screenshot("feedback-gallery"))), what="four yellow stars under the card (a 2)")
        # The stars' button, below the card.
        x0 = min(b[0] for b in small)
        x1 = max(b[2] for b in small)
        y = (small[0][1] + small[0][3]) / 2
        app.click((x0 + x1) / 2, y)
        wait_for(lambda: "page: feedback" in app.read_log().splitlines(), what="the teacher's words")
        big = wait_for(lambda: (lambda found: found if len(found) == 4 else None)(
            stars(app.screenshot("feedback-page"))), what="four big yellow stars on the page")
        page = app.screenshot("feedback-page")
        assert min(b[3] - b[1] for b in big) > max(b[3] - b[1] for b in small), "the page's stars are not big"
        # The sketch itself, with the pupil's red line.
        assert len(find_color(page, RED, tol=40)) > 200, "the sketch is not shown"
        # The speaker beside the words reads them aloud (espeak-ng): the
        # rightmost dark shape on the words' line.
        words_line = (0, max(b[3] for b in big) + 60, page.size[0], max(b[3] for b in big) + 140)
        dark = blobs(page.crop(words_line), (0x2E, 0x34, 0x36), tol=24, step=2, min_cells=6)
        speaker = max(dark, key=lambda b: b[2])
        app.click(words_line[0] + (speaker[0] + speaker[2]) / 2, words_line[1] + (speaker[1] + speaker[3]) / 2)
        said = wait_for(lambda: sorted(heard.glob("said-*.wav")), seconds=20, what="the words read aloud", app=app)
        wav = said[0].read_bytes()
        assert wav[:4] == b"RIFF" and wav[8:12] == b"WAVE", "not a WAV file"
        samples = memoryview(wav[44:]).cast("h")
        assert len(samples) > 22050 * 0.5, f"under half a second of speech ({len(samples)} samples)"
        assert max(abs(v) for v in samples) > 1000, "the speech is silent"
        assert "read aloud: en" in app.read_log()

        # "Draw on" (blue) goes back to drawing the same sketch.
        blue = find_color(page, SUGGESTED_BLUE, tol=25)
        assert blue, "no Draw on button"
        app.click(*centre(blue))
        wait_for(lambda: shown_sheet(app, "feedback-draw-on"), what="the sketch open again")
    finally:
        app.stop()
