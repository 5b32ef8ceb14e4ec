"""Issue 4's UI check: under Xvfb, drag a right letter into its slot (it
snaps in) and a wrong one (it springs back), judged by screenshots."""
import time

from harness import (App, EMPTY_SLOT, SUGGESTED_BLUE, TILE_YELLOW, blobs, centre, find_color,
                     home_button, mid, wait_for)


def test_right_letter_snaps_in_wrong_letter_springs_back(display, tmp_path):
    app = App(display, tmp_path, extra_env={"TEAMSKETCH_WORDPOST_SEED": "7"})
    try:
        app.click(*home_button(app, 4))                  # Buchstaben Post
        time.sleep(0.5)
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


def test_csv_with_bad_rows_imports_the_rest_after_asking(display, tmp_path):
    import sqlite3
    import subprocess
    csv = tmp_path / "Tiere.csv"
    csv.write_text('word,hint,priority\n'
                   'Bär,"Er ist groß, braun und mag Honig.",3\n'
                   ',Ohne Wort,1\n'
                   'Fuß,Damit gehst du.,x\n'
                   'Straße,Hier fahren Autos.,2\n', encoding="utf-8")
    app = App(display, tmp_path)
    try:
        app.click(*home_button(app, 4))                  # Buchstaben Post
        time.sleep(0.5)
        app.key("ctrl+i")                                # Import words (CSV)…
        time.sleep(1.5)
        app.screenshot("csv-chooser")
        app.key("ctrl+l")
        app.type(str(csv))
        app.key("Return")
        deadline = time.time() + 10
        found = ""
        while time.time() < deadline and not found:
            found = subprocess.run(["xdotool", "search", "--name", "Some rows could not be read"], env=app.env,
                                   capture_output=True, text=True).stdout.strip()
            time.sleep(0.2)
        assert found, "the bad rows were not reported"
        app.screenshot("csv-errors")
        app.key("Return")                                # "Import the 2 good words" is the default
        time.sleep(1.0)
        app.screenshot("csv-imported")
    finally:
        app.stop()
    db = sqlite3.connect(tmp_path / "teamsketch" / "teamsketch.sqlite")
    pools = db.execute("SELECT id FROM pool WHERE name = 'Tiere'").fetchall()
    assert len(pools) == 1, "the pool was not stored"
    words = sorted(w for (w,) in db.execute("SELECT word FROM poolItem WHERE poolId = ?", pools[0]))
    assert words == ["Bär", "Straße"]


def test_a_host_nobody_joined_plays_alone_without_a_question(display, tmp_path):
    """An empty lobby's blue button is "Play alone" (one child's picture):
    pressed, the game starts at once; no dialog to read."""
    app = App(display, tmp_path, extra_env={"TEAMSKETCH_WORDPOST_SEED": "7"})
    try:
        app.click(*home_button(app, 4))                  # Buchstaben Post
        time.sleep(0.5)
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
