"""A pupil says who they are: "Me" on the start screen, a name and a
picture drawn with the felt pens. The picture stays after a restart and
is what others see wherever the pupil appears: the host's lobby, a nearby
session's card, Buchstaben Post's trains, the sketch cards."""
import re
import time

from harness import (ACCEPT_GREEN, App, Display, SUGGESTED_BLUE, TILE_YELLOW, bbox, blobs, centre, find_color,
                     press_home_button, largest_white_rect, open_lobby, wait_for)

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

        # The host draws one too: the nearby sketch's card shows it before
        # the guest joins.
        draw_picture(host, "Timo")
        wait_for(lambda: find_color(host.screenshot("me-host-home"), LIGHT_GREEN, tol=30, box=(500, 190, 700, 280)),
                 what="the host's picture on its start screen")
        code = open_lobby(host, "Pictures")
        press_home_button(guest, 2)              # Join
        wait_for(lambda: len(find_color(guest.screenshot("me-join-card"), LIGHT_GREEN, tol=30,
                                        box=(0, 150, 1200, 400))) > 20,
                 what="the host's picture on the nearby sketch's card")
        guest.type(code)
        guest.key("Return")
        accept = wait_for(lambda: find_color(host.screenshot("me-lobby"), ACCEPT_GREEN, tol=30),
                          what="the guest in the lobby")
        _, ay0, _, ay1 = bbox(accept)
        # In the guest's row, not the host's own picture at the top.
        lobby = wait_for(lambda: find_color(host.screenshot("me-lobby-picture"), LIGHT_GREEN, tol=30,
                                            box=(0, ay0 - 20, 1200, ay1 + 20)),
                         what="the guest's picture in the host's lobby")
        assert len(lobby) > 20
    finally:
        guest.stop()
        host.stop()
        second.stop()


def test_drawn_pictures_show_in_buchstaben_post_lobby_waiting_card_and_trains(display, tmp_path):
    """Both pupils draw their picture; the guest sees the host's on the
    nearby game's card before joining; the host sees the guest's beside its
    name in the game's lobby and in the guest's train, and the guest sees
    the host's (passed on by the host) on its waiting card and in the
    host's train. Neither device shows its own picture in the game, so
    light green there is the other pupil's."""
    from test_wordpost_together import TRAIN_RED, actions_button

    second = Display().start()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    env = {"TEAMSKETCH_SOUNDS": "0"}
    host = App(display, tmp_path / "a", extra_env=env)
    guest = App(second, tmp_path / "b", extra_env=env)
    try:
        draw_picture(host, "Timo")
        draw_picture(guest, "Lina")
        press_home_button(host, 4)                # Buchstaben Post
        host.click(*actions_button(host, 1))             # Play together
        code = wait_for(lambda: re.search(r"hosting: code=(\d{6})", host.read_log()), what="the join code")[1]
        press_home_button(guest, 4)
        guest.click(*actions_button(guest, 2))           # Join
        # The nearby game's card shows the host's picture before joining.
        wait_for(lambda: len(find_color(guest.screenshot("wpme-guest-card"), LIGHT_GREEN, tol=30,
                                        box=(0, 150, 1200, 400))) > 20,
                 what="the host's picture on the nearby game's card")
        time.sleep(0.5)
        guest.type(code)
        guest.key("Return")

        accept = wait_for(lambda: find_color(host.screenshot("wpme-lobby"), ACCEPT_GREEN, tol=30),
                          what="the guest in the lobby")
        _, ay0, _, ay1 = bbox(accept)
        # The guest's row (where its accept button is), not the host's own
        # picture at the top.
        wait_for(lambda: len(find_color(host.screenshot("wpme-lobby-picture"), LIGHT_GREEN, tol=30,
                                        box=(0, ay0 - 20, 1200, ay1 + 20))) > 20,
                 what="the guest's picture in its lobby row")
        host.click(*centre(accept))
        wait_for(lambda: len(find_color(guest.screenshot("wpme-guest-waiting"), LIGHT_GREEN, tol=30)) > 20,
                 what="the host's picture on the guest's waiting card")
        host.click(*centre(find_color(host.screenshot("wpme-lobby-ready"), SUGGESTED_BLUE, tol=25)))

        def picture_in_train(app, name):
            shot = app.screenshot(name)
            trains = blobs(shot, TRAIN_RED, tol=20)
            if not trains or not blobs(shot, TILE_YELLOW):
                return None
            x0, y0, x1, y1 = bbox([p for b in trains for p in ((b[0], b[1]), (b[2], b[3]))])
            green = find_color(shot, LIGHT_GREEN, tol=30, box=(x0 - 20, y0 - 40, x1 + 20, y1 + 20))
            return green if len(green) > 20 else None
        wait_for(lambda: picture_in_train(host, "wpme-host-game"), what="the guest's picture in its train")
        wait_for(lambda: picture_in_train(guest, "wpme-guest-game"), what="the host's picture in its train")
    finally:
        guest.stop()
        host.stop()
        second.stop()


def test_the_teachers_sketch_card_shows_the_authors_picture(display, tmp_path):
    """A pupil draws their picture, then a sketch in red; in "Open" and in
    the teacher's window the sketch's card shows the pupil's picture (this
    device's own profile, matched by the name on the strokes) under the red
    thumbnail."""
    from harness import RED, choose_teacher_pin, curve, open_teacher_section, pen_button, start_new_sketch

    app = App(display, tmp_path)
    try:
        draw_picture(app, "Lina")
        shot, sheet = start_new_sketch(app, "Haus")
        app.click(*centre(pen_button(shot, sheet, RED)))
        app.drag(curve(sheet))
        app.click(45, 60)                                # home
        time.sleep(0.8)
        press_home_button(app, 3)                  # Open: the pupil's own sketches
        ink = bbox(wait_for(lambda: find_color(app.screenshot("me-open"), RED, tol=60, box=(0, 100, 1200, 800)),
                            what="the sketch's thumbnail in Open"))
        wait_for(lambda: len(find_color(app.screenshot("me-open-card"), LIGHT_GREEN, tol=30,
                                        box=(0, ink[3], 1200, ink[3] + 140))) > 20,
                 what="the author's picture on the card in Open")
        app.click(45, 60)                                # home
        time.sleep(0.8)
        choose_teacher_pin(app)                       # a new computer: the PIN chosen twice
        # The section with the red thumbnail is "Sketches" (which tab the
        # window opens on is not this test's business).
        ink = bbox(open_teacher_section(
            app, "me", lambda shot: find_color(shot, RED, tol=60, box=(0, 200, 1200, 800))))
        face = wait_for(lambda: find_color(app.screenshot("me-teacher-card"), LIGHT_GREEN, tol=30,
                                           box=(0, ink[3], 1200, ink[3] + 140)), what="the author's picture on the card")
        assert len(face) > 20
    finally:
        app.stop()
