"""Issue 8's UI check for Buchstaben Post: a word list too big to send over
the LAN is refused before the lobby opens, with a message on the host's
screen; the lobby never opens and nobody waits for a game that cannot come."""
import subprocess
import time

import pytest

from harness import App, SUGGESTED_BLUE, blobs, centre, find_color, home_button

CHOSEN = (0x2B, 0x2B, 0x6E)  # the chosen word list's toggle


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
    csv = tmp_path / "Riesig.csv"
    csv.write_text("word,hint,priority\n"
                   f"{heavy},Ganz viele Striche,1\n"
                   "Hund,Er bellt.,1\n"
                   "Katze,Sie miaut.,1\n", encoding="utf-8")
    app = App(display, tmp_path, extra_env={"LANGUAGE": language})
    try:
        app.click(*home_button(app, 4))                  # Buchstaben Post
        time.sleep(0.5)
        app.key("ctrl+i")                                # Import words (CSV)…
        time.sleep(1.5)
        app.key("ctrl+l")
        app.type(str(csv))
        app.key("Return")
        time.sleep(1.5)
        shot = app.screenshot("limits-imported")
        # Three lists in a row under the centred title (Deutsch, English, the
        # new one last), each as wide as the chosen one.
        chosen = blobs(shot, CHOSEN, tol=20)
        assert chosen, "no word list is chosen"
        x0, y0, x1, y1 = max(chosen, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
        heading = find_color(shot, CHOSEN, box=(0, y0 - 130, shot.size[0], y0 - 60), tol=20)
        assert heading, "no title"
        app.click(centre(heading)[0] + (x1 - x0) + 16, (y0 + y1) // 2)  # Riesig
        time.sleep(0.4)
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
