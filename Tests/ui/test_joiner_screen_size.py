"""A pupil who joins a session on a classroom laptop's screen (1366 × 768,
and a projector's 1280 × 720) keeps the whole pen bar: the joiner's window
fits the screen when maximised, and the pens, undo and eraser are inside
it. Before, the joiner's sketch screen asked for 806–862 px of height and
the pens were below the screen; the join screen's Back button was cut."""
import signal
import time

import pytest

from harness import (HOME_BACKGROUND, App, RED, Display, centre, curve, find_color, headless_host, pen_button,
                     press_home_button, shown_sheet,
                     wait_for)
from test_screen_sizes import geometry, maximise, wait_for_window_manager


def settled(app):
    """The window's geometry once two readings 0.3 s apart agree (a page
    just shown may still be taking its size)."""
    def same():
        first = geometry(app, app.window)
        time.sleep(0.3)
        return first if geometry(app, app.window) == first else None
    return wait_for(same, what="the window's size to settle")


def fits(app, width, height, what):
    _, _, w, h = settled(app)
    assert w <= width and h <= height, f"{what} makes the window {w}x{h}, larger than the screen allows " \
                                       f"({width}x{height})"


def bottom_is_clear(app, shot):
    """The window's last rows are the page's plain colour: nothing (a
    button, a pen) is cut off at its bottom edge."""
    x, y, w, h = geometry(app, app.window)
    rows = [shot.getpixel((c, r))[:3] for r in range(y + h - 6, y + h) for c in range(x + 4, x + w - 4, 3)]
    return all(sum(abs(a - b) for a, b in zip(p, HOME_BACKGROUND)) <= 30 for p in rows)


@pytest.mark.parametrize("size", ["1366x768", "1280x720"])
def test_a_joiner_keeps_the_pen_bar_on_a_small_screen(tmp_path, size):
    screen_w, screen_h = map(int, size.split("x"))
    display = Display(size).start()
    host = app = waiting_host = None
    try:
        wait_for_window_manager(display)
        waiting_host, waiting_code = headless_host(tmp_path / "cli3", "Small screen", start_with=3)
        host, code = headless_host(tmp_path / "cli2", "Small screen")
        (tmp_path / "app").mkdir()
        app = App(display, tmp_path / "app")
        width, height = maximise(app, app.window, screen_w, screen_h)

        # The join screen: everything down to its Back button is inside
        # the window.
        press_home_button(app, 2)
        fits(app, width, height, "the join screen")
        join = app.screenshot(f"joiner-join-{size}")
        assert bottom_is_clear(app, join), "the join screen runs off the window's bottom (its Back button is cut)"

        # Let in by a host that waits for a third drawer: the screen says
        # whose session it is and waits, still inside the window.
        app.type(waiting_code)
        app.key("Return")
        wait_for(lambda: "join: let in, waiting" in app.read_log(), what="the joiner let in, waiting")
        fits(app, width, height, "the join screen waiting for the host")
        waiting = app.screenshot(f"joiner-waiting-{size}")
        assert bottom_is_clear(app, waiting), "the waiting join screen runs off the window's bottom"
        # The host ends its session: the joiner may choose another.
        waiting_host.send_signal(signal.SIGINT)
        waiting_host.wait(20)
        wait_for(lambda: "join: choosing" in app.read_log().split("join: let in, waiting")[-1].splitlines(),
                 what="the code field back after the host ended")

        app.key("ctrl+a")
        app.type(code)
        app.key("Return")
        shot, sheet = wait_for(lambda: shown_sheet(app, f"joiner-sheet-{size}"), what="the session to start")
        fits(app, width, height, "the joiner's sketch screen")
        shot = app.screenshot(f"joiner-sheet-{size}")
        _, y, _, h = geometry(app, app.window)
        assert sheet[3] < y + h - 60, f"no room under the sheet for the pen bar ({sheet}, the window's bottom at " \
                                      f"{y + h})"
        pen = pen_button(shot, sheet, RED)
        assert max(p[1] for p in pen) < y + h - 2, "the red pen runs off the window's bottom"
        app.click(*centre(pen))
        app.drag(curve(sheet))
        wait_for(lambda: len(find_color(app.screenshot(f"joiner-drawn-{size}"), RED, tol=30, box=sheet)) > 200,
                 what="the joiner's red line on the sheet")
    finally:
        for h in (host, waiting_host):
            if h and h.poll() is None:
                h.kill()
        if app:
            app.stop()
        display.stop()
