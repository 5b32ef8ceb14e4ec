"""Opening a big sketch file never freezes the window: its progress shows,
and Stop goes back home at once without opening or storing anything."""
import subprocess
import time

from harness import App, BIN, TOOLS, SUGGESTED_BLUE, bbox, find_color, wait_for


def blue_box(shot):
    """The box of Adwaita's accent blue: a thin bar while a file is read, the
    big New sketch button on the home screen."""
    blue = find_color(shot, SUGGESTED_BLUE, tol=25)
    return bbox(blue) if blue else None


def on_home(shot):
    box = blue_box(shot)
    return box is not None and box[3] - box[1] > 80


def test_a_big_file_shows_progress_and_stop_goes_home(display, tmp_path):
    big = tmp_path / "big.teamsketch"
    # About 60 MB of JSON: seconds to read, under the 64 MB a sketch file may have.
    subprocess.run([str(TOOLS), "generate", "--strokes", "9000", "--points", "60", "--seed", "3", str(big)],
                   check=True, capture_output=True)
    app = App(display, tmp_path, extra_args=["--open-file", str(big)])
    try:
        shots = []

        def progress_shown():
            shots.append(app.screenshot("opening-progress"))
            box = blue_box(shots[-1])
            return box is not None and not on_home(shots[-1]) and box[2] - box[0] > 20

        wait_for(progress_shown, seconds=10, what="the progress page")
        shot = shots[-1]
        bar = blue_box(shot)
        assert bar and not on_home(shot), f"no progress bar while the big file is read: {bar}"
        x0, y0, x1, y1 = bar
        assert x1 - x0 > 20 and y1 - y0 < 40, f"the progress bar has not moved: {bar}"
        # The big Stop button sits under the bar, in the middle of the window.
        app.click(shot.width // 2, y1 + 110)
        # At once: within seconds, while the file is still being read (the read itself takes half a minute in a debug build).
        wait_for(lambda: on_home(app.screenshot("opening-stopped")), seconds=15, what="the home screen after Stop")
        # The read that was stopped must not open the sketch later.
        time.sleep(3)
        later = app.screenshot("opening-stopped-later")
        assert on_home(later), "the stopped file was opened after all"
    finally:
        app.stop()
