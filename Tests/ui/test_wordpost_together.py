"""Buchstaben Post over the LAN with two real apps: one opens a game, the
other joins by code; both see their own word and the teammate's train, and
a letter sent to the teammate's train leaves the sender's hand."""
import re
import time

from harness import (ACCEPT_GREEN, App, Display, EMPTY_SLOT, SUGGESTED_BLUE, TILE_YELLOW, bbox, blobs,
                     centre, find_color, press_home_button, mid, wait_for)


TRAIN_RED = (227, 33, 28)


def actions_button(app, steps):
    """A button in the start screen's row, counted from the blue Play button."""
    x0, y0, x1, y1 = bbox(find_color(app.screenshot(f"wp-start-{app.proc.pid}"), SUGGESTED_BLUE, tol=25))
    return x0 + (x1 - x0) / 2 + steps * ((x1 - x0) + 32), (y0 + y1) / 2


def test_two_apps_play_buchstaben_post(display, tmp_path):
    second = Display().start()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    env = {"TEAMSKETCH_SOUNDS": "0"}
    host = App(display, tmp_path / "a", extra_env=env)
    guest = None
    try:
        press_home_button(host, 4)                # Buchstaben Post
        host.click(*actions_button(host, 1))             # Play together
        code = wait_for(lambda: re.search(r"hosting: code=(\d{6})", host.read_log()), what="the join code")[1]

        guest = App(second, tmp_path / "b", extra_env=env)
        press_home_button(guest, 4)
        guest.click(*actions_button(guest, 2))           # Join
        time.sleep(0.5)
        guest.type(code)
        guest.key("Return")

        host.click(*centre(wait_for(lambda: find_color(host.screenshot("wp-lobby"), ACCEPT_GREEN, tol=30),
                                    what="the guest in the lobby")))
        time.sleep(0.5)
        guest.screenshot("wp-guest-waiting")           # the join screen's game words, for people to look at
        host.click(*centre(find_color(host.screenshot("wp-lobby-ready"), SUGGESTED_BLUE, tol=25)))

        def game_screen(app, name):
            shot = app.screenshot(name)
            tiles, trains = blobs(shot, TILE_YELLOW), blobs(shot, TRAIN_RED, tol=20)
            return (shot, tiles, trains) if tiles and trains and blobs(shot, EMPTY_SLOT) else None
        shot, tiles, trains = wait_for(lambda: game_screen(guest, "wp-guest-game"), what="the guest's game")
        wait_for(lambda: game_screen(host, "wp-host-game"), what="the host's game")

        # Send the first letter to the teammate's train: it leaves the hand.
        start, end = mid(tiles[0]), mid(max(trains, key=lambda b: (b[2] - b[0]) * (b[3] - b[1])))
        guest.drag([(start[0] + (end[0] - start[0]) * k / 12, start[1] + (end[1] - start[1]) * k / 12)
                    for k in range(13)])
        time.sleep(1.0)
        after = blobs(guest.screenshot("wp-guest-sent"), TILE_YELLOW)
        assert len(after) == len(tiles) - 1, "the sent letter is still in the sender's hand"
    finally:
        if guest:
            guest.stop()
        host.stop()
        second.stop()
