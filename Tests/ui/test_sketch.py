"""Team Sketch on one device as a pupil uses it: start a sketch, draw with the
felt pens, switch widths, zoom, erase, undo the rub, and find the sketch again
after a restart."""
import signal
import subprocess
import time

from harness import (App, BIN, TOOLS, RED, DARK_BLUE, centre, curve, find_color, press_home_button, largest_white_rect,
                     pen_button, start_new_sketch, stroke_thickness)


def test_pens_widths_zoom_and_eraser(display, tmp_path):
    app = App(display, tmp_path)
    try:
        shot, sheet = start_new_sketch(app, "Widths")
        x0, y0, x1, y1 = sheet
        mid_x = (x0 + x1) // 2
        app.click(*centre(pen_button(shot, sheet, DARK_BLUE)))
        app.key("f")
        fine_y = y0 + (y1 - y0) * 0.3
        app.drag([(x0 + 80 + i * 20, fine_y) for i in range(int((x1 - x0 - 160) / 20))])
        app.key("b")
        broad_y = y0 + (y1 - y0) * 0.6
        app.drag([(x0 + 80 + i * 20, broad_y) for i in range(int((x1 - x0 - 160) / 20))])
        shot = app.screenshot("widths")
        fine = stroke_thickness(shot, mid_x, int(fine_y) - 20, int(fine_y) + 20, DARK_BLUE)
        broad = stroke_thickness(shot, mid_x, int(broad_y) - 20, int(broad_y) + 20, DARK_BLUE)
        assert 1 <= fine < broad, f"fine {fine}px should be thinner than broad {broad}px"

        # Ctrl+wheel zooms in around the pointer: the broad line gets thicker and
        # the position overview appears.
        app.scroll(mid_x, broad_y, up=True, ctrl=True, times=5)
        time.sleep(0.5)
        zoomed = app.screenshot("zoomed")
        zoomed_broad = stroke_thickness(zoomed, mid_x, int(broad_y) - 60, int(broad_y) + 60, DARK_BLUE)
        assert zoomed_broad > broad * 1.4, f"zoom did not magnify: {broad} -> {zoomed_broad}"
        frame = find_color(zoomed, (0x2B, 0x2B, 0x6E), box=(x1 - 260, y1 - 200, x1, y1), tol=12)
        assert frame, "no minimap viewport frame while zoomed"
        app.key("ctrl+0")
        time.sleep(0.5)
        back = app.screenshot("unzoomed")
        assert abs(stroke_thickness(back, mid_x, int(broad_y) - 20, int(broad_y) + 20, DARK_BLUE) - broad) <= 2
        assert not find_color(back, (0x2B, 0x2B, 0x6E), box=(x1 - 260, y1 - 200, x1, y1), tol=12)

        # The eraser removes the whole broad stroke it touches, the fine one stays.
        app.key("e")
        app.drag([(mid_x, broad_y - 30 + i * 3) for i in range(21)])
        app.key("e")
        erased = app.screenshot("erased")
        assert stroke_thickness(erased, x0 + 100, int(broad_y) - 20, int(broad_y) + 20, DARK_BLUE) == 0
        assert stroke_thickness(erased, mid_x, int(fine_y) - 20, int(fine_y) + 20, DARK_BLUE) >= 1

        # Undo after that rub brings the broad line back as it was, and the
        # fine one stays; undo again takes the line drawn before the rub.
        app.key("ctrl+z")
        undone = app.screenshot("erase-undone")
        assert abs(stroke_thickness(undone, x0 + 100, int(broad_y) - 20, int(broad_y) + 20, DARK_BLUE) - broad) <= 2
        assert stroke_thickness(undone, mid_x, int(fine_y) - 20, int(fine_y) + 20, DARK_BLUE) >= 1
        app.key("ctrl+z")
        again = app.screenshot("undone-again")
        assert stroke_thickness(again, mid_x, int(fine_y) - 20, int(fine_y) + 20, DARK_BLUE) == 0
        assert stroke_thickness(again, x0 + 100, int(broad_y) - 20, int(broad_y) + 20, DARK_BLUE) >= broad - 2
    finally:
        app.stop()


def test_sketch_survives_restart_and_sigkill(display, tmp_path):
    app = App(display, tmp_path)
    try:
        shot, sheet = start_new_sketch(app, "Kept")
        app.click(*centre(pen_button(shot, sheet, RED)))
        app.drag(curve(sheet))
        app.screenshot("before-kill")
    finally:
        # SIGKILL: no clean shutdown. Every finished stroke must already be stored.
        app.stop(signal.SIGKILL)

    out = tmp_path / "kept.png"
    env = {"XDG_DATA_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    r = subprocess.run([str(BIN), "export", "--width", "800", "Kept", str(out)], env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    from PIL import Image
    assert len(find_color(Image.open(out).convert("RGB"), RED, tol=30)) > 100

    app = App(display, tmp_path)
    try:
        press_home_button(app, 3)  # Open
        gallery = app.screenshot("gallery")
        thumb_red = find_color(gallery, RED, tol=40)
        assert len(thumb_red) > 10, "the gallery shows no thumbnail with the red curve"
        app.click(*centre(thumb_red))
        time.sleep(0.8)
        reopened = app.screenshot("reopened")
        sheet = largest_white_rect(reopened)
        assert len(find_color(reopened, RED, box=sheet, tol=30)) > 200
    finally:
        app.stop()


def test_a_damaged_store_is_reported_and_left_untouched(display, tmp_path):
    store = tmp_path / "teamsketch" / "teamsketch.sqlite"
    store.parent.mkdir(parents=True)
    garbage = b"SQLite format 3\x00" + bytes(range(256)) * 40
    store.write_bytes(garbage)
    app = App(display, tmp_path)
    try:
        # The alert is its own window, named by its title.
        deadline = time.time() + 10
        found = ""
        while time.time() < deadline and not found:
            found = subprocess.run(["xdotool", "search", "--name", "could not be opened"], env=app.env,
                                   capture_output=True, text=True).stdout.strip()
            time.sleep(0.2)
        assert found, "no message about the damaged store"
        shot = app.screenshot("damaged-store")
        # Pupils can still draw (kept in memory only).
        app.key("Return")
        shot, sheet = start_new_sketch(app, "Unsaved")
        app.click(*centre(pen_button(shot, sheet, RED)))
        app.drag(curve(sheet))
        assert len(find_color(app.screenshot("damaged-store-drawing"), RED, box=sheet, tol=30)) > 200
    finally:
        app.stop()
    assert store.read_bytes() == garbage, "the damaged file was changed"


def test_time_is_up_disables_drawing_but_keeps_the_sketch(display, tmp_path):
    import json
    src = tmp_path / "timed.teamsketch"
    subprocess.run([str(TOOLS), "generate", "--strokes", "3", "--points", "20", "--seed", "7", str(src)],
                   check=True, capture_output=True)
    doc = json.loads(src.read_text())
    doc["meta"]["timeLimitMinutes"] = 1
    doc["meta"]["createdAt"] = time.time() - 120
    doc["meta"]["name"] = "Timed"
    src.write_text(json.dumps(doc))
    app = App(display, tmp_path, extra_args=["--open-file", str(src)])
    try:
        time.sleep(0.8)
        shot = app.screenshot("time-up")
        sheet = largest_white_rect(shot)
        before = len(find_color(shot, RED, box=sheet, tol=30))
        app.click(*centre(pen_button(shot, sheet, RED)))
        app.drag(curve(sheet))
        after_shot = app.screenshot("time-up-drag")
        after = len(find_color(after_shot, RED, box=sheet, tol=30))
        assert after <= before + 5, "drawing still works after the time limit"
        assert find_color(after_shot, (0x2B, 0x2B, 0x6E), box=(sheet[0], 0, sheet[2], sheet[1] + 80), tol=10), \
            "no 'time is up' banner"
    finally:
        app.stop()
    r = subprocess.run([str(BIN), "export", "Timed", str(tmp_path / "timed.png")],
                       env={"XDG_DATA_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_export_from_the_app_writes_a_png(display, tmp_path):
    app = App(display, tmp_path)
    try:
        shot, sheet = start_new_sketch(app, "Exported")
        app.click(*centre(pen_button(shot, sheet, RED)))
        app.drag(curve(sheet))
        app.key("ctrl+s")
        time.sleep(1.5)
        app.screenshot("export-dialog")
        target = tmp_path / "out" / "picture.png"
        target.parent.mkdir()
        app.key("ctrl+a")
        app.type(str(target))
        app.key("Return")
        deadline = time.time() + 10
        while time.time() < deadline and not target.exists():
            time.sleep(0.2)
        assert target.exists(), "export wrote no file"
        from PIL import Image
        img = Image.open(target).convert("RGB")
        assert img.size == (1600, 1000)
        assert len(find_color(img, RED, tol=30)) > 500
    finally:
        app.stop()


def test_the_app_speaks_german(display, tmp_path):
    store = tmp_path / "teamsketch" / "teamsketch.sqlite"
    store.parent.mkdir(parents=True)
    store.write_bytes(b"not a database at all")
    app = App(display, tmp_path, extra_env={"LANGUAGE": "de"})
    try:
        deadline = time.time() + 10
        title = ""
        while time.time() < deadline and "Zeichnungen" not in title:
            ids = subprocess.run(["xdotool", "search", "--pid", str(app.proc.pid), "--name", "."], env=app.env,
                                 capture_output=True, text=True).stdout.split()
            title = " ".join(subprocess.run(["xdotool", "getwindowname", i], env=app.env, capture_output=True,
                                            text=True).stdout for i in ids)
            time.sleep(0.2)
        assert "Deine gespeicherten Zeichnungen konnten nicht geöffnet werden" in title, title
        app.screenshot("german")
    finally:
        app.stop()
