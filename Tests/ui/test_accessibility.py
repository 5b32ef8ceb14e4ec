"""The accessibility checks, as assistive technology and a child
without a mouse meet the app: the accessibility tree read over AT-SPI on
the test's own D-Bus session, and a round of Buchstaben Post played with
the keyboard alone."""
import os
import re
import subprocess
import time


import a11y
from harness import (DARK_BLUE, EMPTY_SLOT, SUGGESTED_BLUE, App, Display, blobs, find_color, largest_white_rect,
                     wait_for)


def tab_to(app, root, name, limit=30):
    """Tab until the control called `name` has the keyboard (as the
    accessibility tree reports it), the way a keyboard user moves."""
    for _ in range(limit):
        now = a11y.focused(root)
        if now is not None and now.name == name:
            return
        app.key("Tab")
        time.sleep(0.15)
    raise AssertionError(f"Tab never reached {name!r}")


def board_state(board):
    """The board's description: the word so far and the letters in hand."""
    m = re.match(r"Your word: (.*)\. Your letters: (.*)\.$", board.description or "")
    assert m, f"the board describes itself as {board.description!r}"
    return m.group(1).split(" "), [g for g in m.group(2).split(", ") if g]


def test_a_round_of_buchstaben_post_from_the_keyboard_alone(display, tmp_path, bus):
    heard = tmp_path / "heard"
    heard.mkdir()
    app = App(display, tmp_path, extra_env={**bus.app_env, "TEAMSKETCH_WORDPOST_SEED": "7",
                                            "TEAMSKETCH_SPEECH_DIR": str(heard)})
    try:
        root = a11y.root(app)
        tab_to(app, root, "Buchstaben Post")
        app.key("Return")
        time.sleep(0.8)
        tab_to(app, root, "Play alone")
        app.key("Return")
        time.sleep(1.2)

        board = a11y.find(root, "Letters and your word")
        focus = a11y.focused(root)
        assert focus is not None and focus.name == "Letters and your word", \
            "the board does not have the keyboard when the game starts"
        # The hint, read aloud in the word list's language (English here).
        a11y.find(root, "Read aloud").queryAction().doAction(0)
        wait_for(lambda: list(heard.glob("said-*.wav")), seconds=20, what="the hint read aloud")
        assert "read aloud: en" in app.read_log()
        words = 0
        for _ in range(2):
            word, hand = board_state(board)
            assert "_" in word, f"a new word has no empty slot: {word}"
            tries = 0
            while "_" in word:
                # The first empty slot gets each letter in hand in turn: a
                # wrong one goes back to the hand, a right one stays.
                before = word.count("_")
                for letter in dict.fromkeys(hand):
                    app.type(letter.lower())          # typing the letter lifts it over the first gap
                    if tries == 0:
                        lifted = app.screenshot("a11y-keyboard-lifted")
                        assert find_color(lifted, DARK_BLUE, tol=12), "no frame shows where the letter would go"
                    app.key("Return")                 # …and Enter puts it down there
                    time.sleep(0.7)
                    tries += 1
                    word, hand = board_state(board)
                    if word.count("_") < before:
                        break
                assert word.count("_") < before, f"no letter in {hand} fits the word {word}"
                assert tries < 40
            words += 1
            shot = app.screenshot(f"a11y-keyboard-word{words}")
            assert not blobs(shot, EMPTY_SLOT), "the finished word still shows an empty slot"
            # Alone, a round is one word: the game says that word is done,
            # not that every word is (which read as the game's end).
            said = [line for line in app.read_log().splitlines() if line.startswith("game says:")]
            assert said and said[-1] == "game says: ★ Super! The word is done! ★", said
            nxt = a11y.focused(root)
            assert nxt is not None and nxt.name == "Next word", \
                f"after the word the keyboard is on {a11y.describe(nxt) if nxt else 'nothing'}, not Next word"
            app.key("Return")
            time.sleep(1.2)
            focus = a11y.focused(root)
            assert focus is not None and focus.name == "Letters and your word", \
                "the next word's board does not get the keyboard back"
        assert words == 2
    finally:
        app.stop()


def test_every_control_on_the_main_screens_has_a_name(display, tmp_path, bus):
    app = App(display, tmp_path, extra_env=bus.app_env)
    try:
        root = a11y.root(app)
        unnamed, seen, small = {}, set(), {}

        def check(screen, pupils=True):
            time.sleep(0.8)
            if pupils:
                tiny = set(a11y.small_controls(root)) - seen
                seen.update(tiny)
                if tiny:
                    small[screen] = sorted(tiny)
            # Pages stay in the tree once built: each control is reported
            # on the screen where it first appears.
            found = set(a11y.unnamed_controls(root)) - seen
            seen.update(found)
            if found:
                unnamed[screen] = sorted(found)

        def visit(screen, opened_by, back):
            for name in opened_by:
                a11y.press(root, name)
            check(screen)
            for name in back:
                a11y.press(root, name)

        check("home")
        visit("my profile", ["Me: Pupil"], ["Back"])
        visit("new sketch", ["New sketch"], [])
        # Ten minutes with the big + (five a press): the sketch has a clock.
        a11y.press(root, "More minutes")
        a11y.press(root, "More minutes")
        a11y.press(root, "Start drawing")
        def clock():
            found = []
            for n in a11y.nodes(root):
                try:
                    if re.match(r"(10:00|9:[0-5]\d)$", n.name or ""):
                        found.append(n.name)
                except Exception:
                    pass                    # an accessible gone meanwhile
            return found
        wait_for(clock, seconds=5, what="a clock at ten minutes on the sketch")
        sheet = a11y.find(root, "Drawing sheet")
        assert sheet.getRoleName() == "image", "the sheet is not presented as a picture"
        assert sheet.description == "Nothing is drawn yet."
        x0, y0, x1, y1 = largest_white_rect(app.screenshot("a11y-sheet"))
        app.drag([(x0 + 100 + 10 * k, y0 + 100 + 5 * k) for k in range(20)])
        wait_for(lambda: sheet.description == "1 line by Pupil.", seconds=5,
                 what="the sheet's description to count the line")
        check("drawing")
        a11y.press(root, "Back to the start")
        for screen, opened_by, back in [
            ("draw together", ["Draw together"], []),
            ("lobby", ["Open the lobby"], ["Back"]),
            ("join", ["Join"], ["Back"]),
            ("open", ["Open"], ["Back"]),
            ("Buchstaben Post", ["Buchstaben Post"], []),
            ("Buchstaben Post game", ["Play alone"], ["End the game", "End"]),
            ("school server", ["School server"], ["Back"]),
        ]:
            visit(screen, opened_by, back)
        a11y.press(root, "Teacher")
        check("teacher PIN", pupils=False)
        for _ in range(2):                               # a new PIN, chosen and repeated
            app.type("1357")
            app.key("Return")
            time.sleep(0.5)
        # The tabs sit in the header beside Lock (the home screen has a
        # Buchstaben Post button too).
        header = a11y.find(root, "Lock").parent
        for section in ["Sketches", "Buchstaben Post", "Classes", "Grades", "Classroom settings"]:
            a11y.press(header, section)
            check(f"teacher: {section}", pupils=False)
        assert not unnamed, "controls without an accessible name:\n" + "\n".join(
            f"  {screen}: {c}" for screen, cs in unnamed.items() for c in cs)
        assert not small, "pupils' controls smaller than 48 × 48 px:\n" + "\n".join(
            f"  {screen}: {c}" for screen, cs in small.items() for c in cs)
    finally:
        app.stop()


def test_large_text_and_high_contrast_keep_every_start_button_on_screen(tmp_path, bus):
    """The desktop's text size at 200 % and GTK's high-contrast theme, set
    the way a desktop sets them (XSETTINGS, here from xsettingsd on a
    display of the test's own): the text grows, the start screen folds its
    buttons into two rows and every one stays on the screen."""
    screen = Display(size="1280x860").start()
    conf = tmp_path / "xsettings.conf"
    conf.write_text('Xft/DPI 196608\nNet/ThemeName "Default-hc"\n')
    xs = subprocess.Popen(["xsettingsd", "-c", str(conf)], env={**os.environ, **screen.env},
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    (tmp_path / "home").mkdir()
    try:
        time.sleep(0.5)
        app = App(screen, tmp_path / "home", extra_env=bus.app_env)
        try:
            root = a11y.root(app)
            title = a11y.find(root, "Teamsketch", role="label")
            height = title.queryComponent().getExtents(0).height
            # 34 px text is a title about 40 px high; twice the text, twice that.
            assert height >= 70, f"the title is {height} px high: the text did not grow"
            def on_screen(name):
                e = a11y.find(root, name).queryComponent().getExtents(0)
                assert e.x >= 0 and e.y >= 0 and e.x + e.width <= 1280 and e.y + e.height <= 860, \
                    f"{name} lies off the screen at {e.x},{e.y} {e.width}×{e.height}"
                return e

            for name in ["New sketch", "Draw together", "Join", "Open", "Buchstaben Post", "Teacher", "School server"]:
                e = on_screen(name)
                assert e.width >= 48 and e.height >= 48
            shot = app.screenshot("a11y-large-text-high-contrast")
            assert find_color(shot, SUGGESTED_BLUE, tol=40), "the blue New sketch button is not drawn"

            # The other screens a pupil meets: their last button still on screen.
            for opened_by, last, back in [("New sketch", "Start drawing", "Back"),
                                          ("Buchstaben Post", "Play together", "Back"),
                                          ("Draw together", "Open the lobby", "Back"),
                                          ("Me: Pupil", "Done", "Back"),
                                          ("School server", "Sign in", "Back")]:
                a11y.press(root, opened_by)
                on_screen(last)
                app.screenshot(f"a11y-large-text-{last.replace(' ', '-').lower()}")
                a11y.press(root, back)
        finally:
            app.stop()
    finally:
        xs.terminate()
        screen.stop()
