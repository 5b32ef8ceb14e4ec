"""Buchstaben Post's UI check: under Xvfb, drag a right letter into its slot (it
snaps in) and a wrong one (it springs back), judged by screenshots."""
import re
import subprocess
import time

from harness import (App, EMPTY_SLOT, SUGGESTED_BLUE, TILE_YELLOW, bbox, blobs, centre, find_color,
                     press_home_button, mid, wait_for)

CHOSEN_LIST = (0x2B, 0x2B, 0x6E)  # the chosen word list's toggle


def test_right_letter_snaps_in_wrong_letter_springs_back(display, tmp_path):
    app = App(display, tmp_path, extra_env={"TEAMSKETCH_WORDPOST_SEED": "7"})
    try:
        press_home_button(app, 4)                  # Buchstaben Post
        play = find_color(app.screenshot("wordpost-start"), SUGGESTED_BLUE, tol=25)
        assert play, "no Play button"
        app.click(*centre(play))                         # "Play alone": one child's picture, no question
        time.sleep(1.2)

        saw_right = saw_wrong = False
        for attempt in range(12):
            shot = app.screenshot(f"wordpost-{attempt}")
            tiles = blobs(shot, TILE_YELLOW)
            slots = blobs(shot, EMPTY_SLOT)
            assert tiles and slots, "no letter tiles or empty slots on the game screen"
            tile, slot = tiles[0], slots[attempt % len(slots)]
            start, end = mid(tile), mid(slot)
            app.drag([(start[0] + (end[0] - start[0]) * k / 12, start[1] + (end[1] - start[1]) * k / 12)
                      for k in range(13)])
            time.sleep(0.9)                              # let the snap or spring-back animation finish
            after = app.screenshot(f"wordpost-{attempt}-after")
            tiles_after = blobs(after, TILE_YELLOW)
            slots_after = blobs(after, EMPTY_SLOT)
            if len(tiles_after) == len(tiles) - 1:
                # Snapped in: the slot is no longer empty and the tile left the hand.
                assert len(slots_after) == len(slots) - 1
                assert all(abs(mid(s)[0] - end[0]) > 5 or abs(mid(s)[1] - end[1]) > 5 for s in slots_after)
                saw_right = True
            else:
                # Sprang back: same tiles, the dragged one back where it was.
                assert len(tiles_after) == len(tiles) and len(slots_after) == len(slots)
                assert any(abs(mid(t)[0] - start[0]) < 8 and abs(mid(t)[1] - start[1]) < 8 for t in tiles_after), \
                    "the wrong letter did not spring back to the hand"
                saw_wrong = True
            if saw_right and saw_wrong:
                break
            if not blobs(after, EMPTY_SLOT):
                # Word done: on to the next one.
                nxt = find_color(after, SUGGESTED_BLUE, tol=25)
                if nxt:
                    app.click(*centre(nxt))
                    time.sleep(0.8)
        assert saw_right, "no letter ever snapped into a slot"
        assert saw_wrong, "no wrong letter ever sprang back"
    finally:
        app.stop()


def test_the_pupils_screen_shows_lists_by_picture_and_no_csv(display, tmp_path):
    """Word lists are the teacher's business: the pupils' Buchstaben Post
    screen has no CSV import or export (neither buttons nor Ctrl+I), and
    each list shows a picture, so a child finds it without reading."""
    app = App(display, tmp_path)
    try:
        press_home_button(app, 4)                  # Buchstaben Post
        offered = wait_for(lambda: re.search(r"word lists: (\S+) chosen=(\S+) fromTeacher=(\w+)", app.read_log()),
                           what="the lists offered")
        assert offered[1] == "builtin.de,builtin.en" and offered[2] == "builtin.en" and offered[3] == "false"
        shot = app.screenshot("wordpost-lists")
        chosen = max(blobs(shot, CHOSEN_LIST, tol=20), key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
        colourful = [p for p in find_color(shot, (128, 128, 128), tol=255, box=chosen)
                     if max(shot.getpixel(p)[:3]) - min(shot.getpixel(p)[:3]) > 80]
        assert len(colourful) > 150, "the chosen list shows no picture"
        app.key("ctrl+i")
        app.key("ctrl+e")
        time.sleep(1.5)
        for title in ("Import words", "Export words", "Save the word list"):
            assert not subprocess.run(["xdotool", "search", "--name", title], env=app.env,
                                      capture_output=True, text=True).stdout.strip(), f"{title!r} opened"
        # Only lists and play buttons: the row under the lists is the big
        # buttons' (Back, Play alone, Play together, Join).
        play = find_color(shot, SUGGESTED_BLUE, tol=25)
        assert play and bbox(play)[1] - chosen[3] < 120, "something sits between the lists and the play buttons"
    finally:
        app.stop()


def test_a_host_nobody_joined_plays_alone_without_a_question(display, tmp_path):
    """An empty lobby's blue button is "Play alone" (one child's picture):
    pressed, the game starts at once; no dialog to read."""
    app = App(display, tmp_path, extra_env={"TEAMSKETCH_WORDPOST_SEED": "7"})
    try:
        press_home_button(app, 4)                  # Buchstaben Post
        play = blobs(app.screenshot("alone-start"), SUGGESTED_BLUE, tol=25)
        px0, py0, px1, py1 = max(play, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
        app.click(px1 + 32 + (px1 - px0) // 2, (py0 + py1) // 2)   # Play together, right of Play alone
        alone = wait_for(lambda: find_color(app.screenshot("alone-lobby"), SUGGESTED_BLUE, tol=25,
                                            box=(0, 400, 1200, 820)), what="the lobby's Play alone")
        app.click(*centre(alone))
        wait_for(lambda: blobs(app.screenshot("alone-game"), TILE_YELLOW) and
                 blobs(app.screenshot("alone-game"), EMPTY_SLOT), what="the game's letters and slots")
    finally:
        app.stop()
