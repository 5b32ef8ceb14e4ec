"""A teacher makes a word list for Buchstaben Post in the teacher's window:
a bad row is named and keeps the list from being saved; fixed, it is saved,
a deal is tried, and the exported file holds the words."""
import time

from harness import (ACTIVE, SUGGESTED_BLUE, App, bbox, controls, edges, find_color, row_top, save_file,
                     small_buttons, wait_for)


def test_a_teacher_makes_a_word_list(display, tmp_path):
    app = App(display, tmp_path)
    try:
        teacher = small_buttons(app)[0]
        app.click((teacher[0] + teacher[2]) / 2, (teacher[1] + teacher[3]) / 2)
        time.sleep(0.6)
        for _ in range(2):                          # a new computer: the PIN chosen twice
            app.type("1357")
            app.key("Return")
            time.sleep(0.4)
        settings = bbox(wait_for(lambda: find_color(app.screenshot("pools-teacher"), ACTIVE, tol=10,
                                                    box=(500, 20, 1030, 130)), what="the teacher's window"))
        # The tabs right of the title: Sketches | Buchstaben Post | Classes | Settings.
        shot = app.screenshot("pools-tabs")
        tab_edges = edges(shot, 300, settings[0] + 3, settings[1], settings[3])
        app.click((tab_edges[1] + tab_edges[2]) / 2, (settings[1] + settings[3]) / 2)    # Buchstaben Post
        results = bbox(wait_for(lambda: find_color(app.screenshot("pools-results"), ACTIVE, tol=10,
                                                   box=(300, 130, 900, 230)), what="the results"))
        app.click(results[2] + 75, (results[1] + results[3]) / 2)                        # Word lists
        time.sleep(1.0)
        shot = app.screenshot("pools-lists")
        top = row_top(shot, results[3] + 12)
        lists = controls(shot, top, height=80)
        assert len(lists) >= 3, lists                  # Deutsch, English, New word list
        app.click((lists[-1][0] + lists[-1][1]) / 2, top + 40)
        time.sleep(0.8)

        # Name, then the first row's word, hint, priority by Tab (fields in
        # order after the six action buttons).
        shot = app.screenshot("pools-new")
        name_top = row_top(shot, top + 90)
        name = controls(shot, name_top, height=30)[-1]
        app.click((name[0] + name[1]) / 2, name_top + 16)
        app.key("ctrl+a")
        app.type("Tiere")
        for _ in range(7):
            app.key("Tab")
        app.type("Katze")
        app.key("Tab")
        app.type("die Katze miaut")                   # gives the word away
        app.key("Tab")
        app.type("3")
        time.sleep(0.5)
        save = bbox(find_color(app.screenshot("pools-bad-row"), SUGGESTED_BLUE, tol=20))
        app.click((save[0] + save[2]) / 2, (save[1] + save[3]) / 2)
        time.sleep(0.5)
        store = tmp_path / "teamsketch" / "teamsketch.sqlite"
        import sqlite3
        def names():
            with sqlite3.connect(store) as db:
                return [r[0] for r in db.execute("SELECT name FROM pool WHERE deletedAt IS NULL")]
        assert "Tiere" not in names(), "a list with a bad row was saved"

        # The hint fixed (from the name field, eight Tabs on): saved.
        app.click((name[0] + name[1]) / 2, name_top + 16)
        for _ in range(8):
            app.key("Tab")
        app.key("ctrl+a")
        app.type("miaut")
        app.click((save[0] + save[2]) / 2, (save[1] + save[3]) / 2)
        wait_for(lambda: "Tiere" in names(), what="the saved list")

        # Exported, the file holds the word as typed.
        shot = app.screenshot("pools-saved")
        actions_top = row_top(shot, save[1] - 4)
        # Right of the blue Save: import, export, delete, try.
        after = [c for c in controls(shot, actions_top, height=80) if c[0] > save[2]]
        assert len(after) == 4, after
        app.click((after[1][0] + after[1][1]) / 2, actions_top + 40)
        out = tmp_path / "tiere.csv"
        save_file(app, out)
        assert out.read_text(encoding="utf-8").replace("\r\n", "\n") == "word,hint,priority\nKatze,miaut,3\n"
    finally:
        app.stop()
