"""A corridor's touchscreen as a kiosk: the machine's kiosk file
(here the user's, which has the same keys) says closing needs the teacher's
PIN and that a machine left alone goes back to the start. Alt+F4 does not
close the app but asks for the PIN; with no PIN set, nobody there can
choose one (the school's IT sets it with `set-teacher-pin`); with the
teacher's window open it closes. A sketch left alone is saved and the start screen comes back."""
import re
import subprocess
import time

from harness import BIN, RED, App, bbox, centre, chosen_tab, curve, find_color, press_home_button, pen_button, \
    start_new_sketch, wait_for


def kiosk_file(home, text):
    folder = home / "config" / "teamsketch"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "kiosk.conf").write_text(text)


def test_closing_needs_the_teachers_pin(display, tmp_path):
    kiosk_file(tmp_path, "# a kiosk\nfullscreen = yes\nquit-needs-pin = yes\n")
    app = App(display, tmp_path)
    try:
        # Full screen: the window covers the whole display.
        def size():
            out = subprocess.run(["xdotool", "getwindowgeometry", app.window], env=app.env, capture_output=True,
                                 text=True).stdout
            return re.search(r"Geometry: (\d+)x(\d+)", out).groups()
        wait_for(lambda: size() == tuple(display.size.split("x")), what="the window covering the screen")
        # No PIN is set: whoever stands there cannot choose one and quit.
        app.key("alt+F4")
        wait_for(lambda: "kiosk: closing needs the teacher's PIN" in app.read_log(), what="the refusal")
        wait_for(lambda: "kiosk: no teacher PIN is set" in app.read_log(), what="no PIN to choose")
        for _ in range(2):
            app.type("1357")
            app.key("Return")
            time.sleep(0.4)
        app.key("alt+F4")
        time.sleep(1.0)
        assert app.proc.poll() is None, "the app closed without a PIN"
        assert not (tmp_path / "config" / "teamsketch" / "classroom.json").exists() or \
            '"pin"' not in (tmp_path / "config" / "teamsketch" / "classroom.json").read_text(), "a PIN was chosen at the kiosk"
        app.screenshot("kiosk-no-pin")
    finally:
        app.stop()

    # The school's IT sets the PIN for the kiosk's account.
    env = {"XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"), "PATH": "/usr/bin:/bin"}
    bad = subprocess.run([str(BIN), "set-teacher-pin"], input="12\n", env=env, capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "4 to 8 digits" in bad.stderr, bad.stderr
    done = subprocess.run([str(BIN), "set-teacher-pin"], input="1357\n", env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and "PIN is set" in done.stdout, done.stderr

    app = App(display, tmp_path)
    try:
        app.key("alt+F4")
        wait_for(lambda: "kiosk: closing needs the teacher's PIN" in app.read_log(), what="the refusal")
        time.sleep(1.0)
        assert app.proc.poll() is None, "the app closed without the PIN"
        app.screenshot("kiosk-refused")
        # The PIN screen came instead; with the teacher's window open,
        # closing works.
        app.type("1357")
        app.key("Return")
        chosen_tab(app, "kiosk-teacher")
        time.sleep(0.5)
        app.key("alt+F4")
        wait_for(lambda: app.proc.poll() is not None, seconds=10, what="the app closing with the teacher's window open")
        assert app.proc.returncode == 0
    finally:
        app.stop()


def test_a_machine_left_alone_saves_and_goes_back_to_the_start(display, tmp_path):
    kiosk_file(tmp_path, "idle-minutes = 10\n")
    # Ten minutes are four seconds here (a test-only variable).
    app = App(display, tmp_path, extra_env={"TEAMSKETCH_KIOSK_IDLE_SECONDS": "4"})
    try:
        shot, sheet = start_new_sketch(app, "Alleine")
        app.click(*centre(pen_button(shot, sheet, RED)))
        app.drag(curve(sheet))
        assert len(find_color(app.screenshot("kiosk-drawn"), RED, box=sheet, tol=30)) > 200
        wait_for(lambda: "kiosk: left alone, back to the start" in app.read_log(), seconds=20,
                 what="the machine noticing it was left alone")
        time.sleep(1.0)
        # The start screen, and the sketch is in Open with its red line.
        press_home_button(app, 3)
        ink = wait_for(lambda: find_color(app.screenshot("kiosk-open"), RED, tol=60, box=(0, 100, 1200, 800)),
                       what="the saved sketch's thumbnail in Open")
        assert bbox(ink)
    finally:
        app.stop()
