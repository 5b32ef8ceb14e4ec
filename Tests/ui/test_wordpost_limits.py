"""Buchstaben Post's limit on the LAN, as its UI shows it: a word list too big
to send over the LAN is refused before the lobby opens, with a message on the
host's screen; the lobby never opens and nobody waits for a game that cannot
come."""
import sqlite3
import subprocess
import time

import pytest

from harness import App, SUGGESTED_BLUE, blobs, press_home_button, wait_for


def _window(app, name, seconds=10):
    deadline = time.time() + seconds
    while time.time() < deadline:
        found = subprocess.run(["xdotool", "search", "--name", name], env=app.env,
                               capture_output=True, text=True).stdout.strip()
        if found:
            return found
        time.sleep(0.2)
    return ""


@pytest.mark.parametrize("language,title", [("en", "Too big to play together"),
                                             ("de", "Zu groß zum gemeinsamen Spielen")])
def test_a_word_list_too_big_to_send_is_refused_with_a_message(display, tmp_path, language, title):
    # Two letters, each under 150 accents: 2 characters (the CSV takes it),
    # but 600 bytes, more than a word may carry on the LAN.
    heavy = "a" + "\u0301" * 150 + "b" + "\u0300" * 150
    app = App(display, tmp_path, extra_env={"LANGUAGE": language})
    try:
        # The list as the teacher's window would have stored it, and the
        # only one offered: the built-in lists deleted before the first
        # start of the game (a deleted built-in list stays deleted).
        store = tmp_path / "teamsketch" / "teamsketch.sqlite"

        def stored():
            try:
                with sqlite3.connect(store) as db:
                    db.execute("INSERT INTO pool (id, name, language, builtIn, createdAt, modifiedAt, deletedAt) "
                               "VALUES ('builtin.de', 'Deutsch', 'de', 1, 1, 1, 1), "
                               "('builtin.en', 'English', 'en', 1, 1, 1, 1), "
                               "('0a6f3c1e-0000-4000-8000-00000000beef', 'Riesig', 'de', 0, 1, 1, NULL)")
                    db.executemany("INSERT INTO poolItem (poolId, position, word, hint, priority) VALUES (?, ?, ?, ?, ?)",
                                   [("0a6f3c1e-0000-4000-8000-00000000beef", i, w, h, 1) for i, (w, h) in
                                    enumerate([(heavy, "Ganz viele Striche"), ("Hund", "Er bellt."),
                                               ("Katze", "Sie miaut.")])])
                return True
            except sqlite3.OperationalError:
                return False                      # the app has not made its tables yet
        wait_for(stored, what="the word list stored")
        press_home_button(app, 4)                  # Buchstaben Post
        wait_for(lambda: "chosen=0a6f3c1e-0000-4000-8000-00000000beef" in app.read_log(), what="Riesig chosen")
        # "Play together" is the big button right of the blue Play.
        play = blobs(app.screenshot("limits-chosen"), SUGGESTED_BLUE, tol=25)
        assert play, "no Play button"
        px0, py0, px1, py1 = max(play, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
        app.click(px1 + 32 + (px1 - px0) // 2, (py0 + py1) // 2)
        assert _window(app, title), "no message that the list is too big"
        time.sleep(0.4)
        app.screenshot(f"limits-refused-{language}")
        app.key("Return")
        time.sleep(0.8)
        after = app.screenshot("limits-after")
        # Still on the start screen: the Play button where it was, no lobby.
        again = blobs(after, SUGGESTED_BLUE, tol=25)
        assert again and max(again, key=lambda b: (b[2] - b[0]) * (b[3] - b[1])) == (px0, py0, px1, py1), \
            "the start screen was left"
    finally:
        app.stop()
