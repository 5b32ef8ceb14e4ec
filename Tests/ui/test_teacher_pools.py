"""A teacher makes a word list for Buchstaben Post in the teacher's window:
a bad row is named and keeps the list from being saved; fixed, it is saved,
a deal is tried, and the exported file holds the words. Deleted, it can be
taken back with the toast's Undo; left alone, it is deleted."""
import sqlite3
import subprocess
import time

from harness import (ACTIVE, DESTRUCTIVE_RED, SUGGESTED_BLUE, App, bbox, blobs, chosen_tab, controls, find_color,
                     choose_teacher_pin, open_teacher_section, row_items, row_top, save_file, wait_for)


ICON_GREY = (0x2E, 0x34, 0x36)


def toast(app, name):
    """The Undo toast: the dark strip at the bottom of the window, or None."""
    found = find_color(app.screenshot(name), ACTIVE, tol=10, box=(0, 640, 1200, 815))
    return bbox(found) if found and len(found) > 500 else None


def delete(app, actions, actions_top):
    """Presses "Delete the word list…" (third right of Save) and confirms."""
    app.click((actions[2][0] + actions[2][1]) / 2, actions_top + 40)
    # The question opens centred on the window, where its Delete may lie
    # under the pointer and be drawn in the darker red of a hovered button:
    # the pointer goes to the window's title, where nothing reacts to it.
    app.xdo("mousemove", "--sync", 100, 75)
    def red_button():
        found = blobs(app.screenshot("pools-sure"), DESTRUCTIVE_RED, tol=30)
        return max(found, key=lambda b: (b[2] - b[0]) * (b[3] - b[1])) if found else None
    sure = wait_for(red_button, what="the question", app=app)
    app.click((sure[0] + sure[2]) / 2, (sure[1] + sure[3]) / 2)


def open_new_word_list(app, prefix):
    """A new computer's teacher: the PIN chosen, Buchstaben Post's word
    lists (the section showing Results | Word lists, the chosen one dark),
    New word list. The lists' row, its top, the name field, its top and
    the screenshot of the new list."""
    choose_teacher_pin(app)
    results = bbox(open_teacher_section(
        app, prefix, lambda shot: find_color(shot, ACTIVE, tol=10, box=(300, 130, 900, 230))))
    app.click(results[2] + 75, (results[1] + results[3]) / 2)                        # Word lists
    time.sleep(1.0)
    shot = app.screenshot(f"{prefix}-lists")
    top = row_top(shot, results[3] + 12)
    lists = controls(shot, top, height=80)
    assert len(lists) >= 3, lists                  # Deutsch, English, New word list
    app.click((lists[-1][0] + lists[-1][1]) / 2, top + 40)
    time.sleep(0.8)
    shot = app.screenshot(f"{prefix}-new")
    name_top = row_top(shot, top + 90)
    name = controls(shot, name_top, height=30)[-1]
    return lists, top, name, name_top, shot


def import_into_new_list(app, prefix, list_name, csv):
    """A new word list named `list_name` with `csv` imported into it (not
    saved yet): Save's box, the actions' row top, and the actions left and
    right of Save (Add | Save (blue) | Import | Export | Delete | Try)."""
    _, top, name, name_top, shot = open_new_word_list(app, prefix)
    app.click((name[0] + name[1]) / 2, name_top + 16)
    app.key("ctrl+a")
    app.type(list_name)
    save = bbox(find_color(shot, SUGGESTED_BLUE, tol=20))
    actions_top = row_top(shot, save[1] - 4)
    actions = controls(shot, actions_top, height=80)
    before = [c for c in actions if c[1] < save[0]]
    after = [c for c in actions if c[0] > save[2]]
    app.click((after[0][0] + after[0][1]) / 2, actions_top + 40)                        # Import
    save_file(app, csv)                                                                  # (types the path)
    return save, actions_top, before, after


def test_a_teacher_makes_a_word_list(display, tmp_path):
    app = App(display, tmp_path)
    try:
        lists, top, name, name_top, shot = open_new_word_list(app, "pools")
        # Name, then the first row's word, hint, priority by Tab (fields in
        # order after the six action buttons).
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
        wait_for(lambda: "word lists: ✓ “Tiere” is saved." in app.read_log(), what="the teacher told it is saved")

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
        wait_for(lambda: "word lists: ✓ Exported as tiere.csv." in app.read_log(), what="the teacher told where it went")

        # A row removed (no question: the list changes only with Save) comes
        # back with Undo.
        def remove_key(name):
            return find_color(app.screenshot(name), ICON_GREY, tol=12, box=(800, actions_top + 100, 1000, 730))
        key = bbox(remove_key("pools-row"))
        app.click((key[0] + key[2]) / 2, (key[1] + key[3]) / 2)
        strip = wait_for(lambda: toast(app, "pools-row-toast"), what="the toast")
        assert not remove_key("pools-row-removed"), "the row is still there"
        app.click(strip[2] - 18 - 80, (strip[1] + strip[3]) / 2)                       # Undo
        wait_for(lambda: toast(app, "pools-row-undone") is None, what="the toast gone")
        assert remove_key("pools-row-back"), "the row did not come back"

        # Deleted after asking: gone from the lists at once, but kept until
        # the toast's Undo is gone; Undo brings it back.
        lists_before = len(controls(app.screenshot("pools-before-delete"), top, height=80))
        delete(app, after, actions_top)
        strip = wait_for(lambda: toast(app, "pools-toast"), what="the toast")
        assert len(controls(app.screenshot("pools-deleted"), top, height=80)) == lists_before - 1
        assert "Tiere" in names(), "deleted while Undo is offered"
        app.click(strip[2] - 18 - 80, (strip[1] + strip[3]) / 2)                       # Undo
        wait_for(lambda: toast(app, "pools-undone") is None, what="the toast gone")
        time.sleep(7)                                                                  # longer than the toast
        assert "Tiere" in names(), "deleted after Undo"
        assert len(controls(app.screenshot("pools-back"), top, height=80)) == lists_before

        # Deleted again and left alone: deleted once the toast is gone.
        delete(app, after, actions_top)
        wait_for(lambda: toast(app, "pools-toast-again"), what="the toast")
        wait_for(lambda: toast(app, "pools-expiring") is None, seconds=12, what="the toast going by itself")
        wait_for(lambda: "Tiere" not in names(), what="the list deleted")

        # Another list, deleted, and the window locked at once: deleted then,
        # not lost and not left waiting.
        app.click((lists[-1][0] + lists[-1][1]) / 2, top + 40)                         # New word list
        time.sleep(0.8)
        app.click((name[0] + name[1]) / 2, name_top + 16)
        app.key("ctrl+a")
        app.type("Farben")
        for _ in range(7):
            app.key("Tab")
        app.type("Rot")
        app.key("Tab")
        app.type("wie eine Tomate")
        app.key("Tab")
        app.type("1")
        time.sleep(0.5)
        app.click((save[0] + save[2]) / 2, (save[1] + save[3]) / 2)
        wait_for(lambda: "Farben" in names(), what="the second list saved")
        time.sleep(0.5)
        tab = chosen_tab(app, "pools-locking")
        lock = row_items(app.screenshot("pools-lock"), (tab[1] + tab[3]) // 2)[-1]    # the header's last button
        delete(app, after, actions_top)
        offered = time.time()                          # the toast comes after this: its time runs out after offered + 6
        wait_for(lambda: toast(app, "pools-toast-lock"), what="the toast")
        assert "Farben" in names()
        app.click((lock[0] + lock[1]) / 2, (tab[1] + tab[3]) / 2)                      # Lock
        wait_for(lambda: "Farben" not in names(), seconds=4, what="the list deleted on Lock")
        assert time.time() < offered + 5.5, "deleted only when the toast ran out, not on Lock"
    finally:
        app.stop()


def test_a_long_word_list_is_edited_in_place(display, tmp_path):
    """A class's list of 2,000 words, imported, is edited where it stands:
    Add a word takes the teacher to a new last row with the cursor in it,
    and what is typed there is saved with the rest."""
    words = tmp_path / "lang.csv"
    letters = "abcdefghijklmnopqrstuvwxyz"
    rows = [f"W{letters[i // 676]}{letters[i // 26 % 26]}{letters[i % 26]},Nummer {i + 1},1" for i in range(2000)]
    words.write_text("word,hint,priority\n" + "\n".join(rows) + "\n", encoding="utf-8")
    app = App(display, tmp_path)
    try:
        save, actions_top, before, _ = import_into_new_list(app, "long", "Lang", words)
        time.sleep(1.5)
        app.click((save[0] + save[2]) / 2, (save[1] + save[3]) / 2)
        store = tmp_path / "teamsketch" / "teamsketch.sqlite"

        def items():
            with sqlite3.connect(store) as db:
                return [r[0] for r in db.execute(
                    "SELECT word FROM poolItem JOIN pool ON pool.id = poolItem.poolId "
                    "WHERE pool.name = 'Lang' AND pool.deletedAt IS NULL ORDER BY position")]
        wait_for(lambda: len(items()) == 2000, what="the 2,000 words saved")
        time.sleep(1.5)                                 # the saved list's editor is built anew

        # A word added at the end of the long list: the cursor is already in it.
        app.click((before[-1][0] + before[-1][1]) / 2, actions_top + 40)                # Add a word
        time.sleep(1.0)
        app.type("Zebra")
        app.key("Tab")
        app.type("gestreift")
        app.key("Tab")
        app.type("2")
        time.sleep(0.6)
        app.screenshot("long-added")
        app.click((save[0] + save[2]) / 2, (save[1] + save[3]) / 2)
        wait_for(lambda: len(items()) == 2001, seconds=45, what="the added word saved")
        saved = items()
        assert saved[-1] == "Zebra" and saved[0] == "Waaa" and saved[1999] == rows[1999].split(",")[0], saved[-3:]
    finally:
        app.stop()


def test_a_word_list_with_bad_rows_keeps_the_good_ones(display, tmp_path):
    """A teacher imports a CSV with bad rows into a new list: the bad rows
    are named in a message, and the good words are what is saved."""
    csv = tmp_path / "Tiere.csv"
    csv.write_text('word,hint,priority\n'
                   'Bär,"Er ist groß, braun und mag Honig.",3\n'
                   ',Ohne Wort,1\n'
                   'Fuß,Damit gehst du.,x\n'
                   'Straße,Hier fahren Autos.,2\n', encoding="utf-8")
    app = App(display, tmp_path)
    try:
        save, _, _, _ = import_into_new_list(app, "badrows", "Tiere", csv)
        wait_for(lambda: subprocess.run(["xdotool", "search", "--name", "Some rows could not be read"], env=app.env,
                                        capture_output=True, text=True).stdout.strip(),
                 what="the bad rows named")
        app.screenshot("badrows-said")
        app.key("Return")
        time.sleep(0.8)
        app.click((save[0] + save[2]) / 2, (save[1] + save[3]) / 2)
        store = tmp_path / "teamsketch" / "teamsketch.sqlite"

        def words():
            with sqlite3.connect(store) as db:
                return sorted(r[0] for r in db.execute(
                    "SELECT word FROM poolItem JOIN pool ON pool.id = poolItem.poolId "
                    "WHERE pool.name = 'Tiere' AND pool.deletedAt IS NULL"))
        wait_for(lambda: words() == ["Bär", "Straße"], what=lambda: f"the two good words saved (saw {words()})")
    finally:
        app.stop()
