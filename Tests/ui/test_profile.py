"""A pupil says who they are: "Me" on the start screen, a name and a
picture drawn with the felt pens. The picture stays after a restart and
is what the host of a LAN session sees next to the pupil's name."""
import time

from harness import (ACCEPT_GREEN, App, Display, SUGGESTED_BLUE, centre, find_color, join_by_code, largest_white_rect,
                     open_lobby, wait_for)

# Not in the letter badges' palette, so only a drawn picture has it.
LIGHT_GREEN = (0x7E, 0xD3, 0x21)


def me_button(app):
    """The pupil's picture and name, above the title."""
    return (600, 235)


def draw_picture(app, name):
    app.click(*me_button(app))
    time.sleep(0.8)
    shot = app.screenshot("me-screen")
    x0, y0, x1, y1 = largest_white_rect(shot)
    assert 250 <= x1 - x0 <= 400, f"no square sheet: {(x0, y0, x1, y1)}"
    app.key("ctrl+a")
    app.type(name)
    pen = find_color(shot, LIGHT_GREEN, tol=12, box=(0, y1, 1200, 820))
    assert pen, "no light green felt pen"
    app.click(*centre(pen))
    app.drag([(x0 + 30 + i * 10, y0 + 40 + (i % 6) * 40) for i in range(24)])
    app.click(*centre(find_color(app.screenshot("me-drawn"), SUGGESTED_BLUE, tol=20)))   # Done
    time.sleep(0.8)


def test_a_drawn_picture_is_kept_and_shown_in_the_hosts_lobby(display, tmp_path):
    second = Display().start()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    host = App(display, tmp_path / "a")
    guest = App(second, tmp_path / "b")
    try:
        draw_picture(guest, "Lina")
        home = guest.screenshot("me-home")
        assert find_color(home, LIGHT_GREEN, tol=30, box=(500, 190, 700, 280)), "the start screen shows no picture"
        guest.stop()
        guest = App(second, tmp_path / "b")
        assert find_color(guest.screenshot("me-restarted"), LIGHT_GREEN, tol=30, box=(500, 190, 700, 280)), \
            "the picture was not kept"

        code = open_lobby(host, "Pictures")
        join_by_code(guest, code)
        wait_for(lambda: find_color(host.screenshot("me-lobby"), ACCEPT_GREEN, tol=30), what="the guest in the lobby")
        lobby = wait_for(lambda: find_color(host.screenshot("me-lobby-picture"), LIGHT_GREEN, tol=30),
                         what="the guest's picture in the host's lobby")
        assert len(lobby) > 20
    finally:
        guest.stop()
        host.stop()
        second.stop()
