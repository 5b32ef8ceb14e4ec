"""Help for children who cannot read yet: the yellow "?" on the sketch, the
lobby and the join screens opens the screen's own buttons in pictures with
a few words; the speaker reads them aloud; OK closes it. The game's "How to
play" reads its captions aloud too."""
import time

from harness import (SUGGESTED_BLUE, App, biggest, blobs, blobs_in, mid, open_lobby, press_home_button, start_new_sketch,
                     wait_for)

HELP_YELLOW = (0xFF, 0xF3, 0xA8)   # a sticky note's pale yellow, far from the game's tiles
DARK = (0x2E, 0x34, 0x36)


def help_button(app, name, box):
    """The yellow "?" in `box`: a square of the help colour a finger can hit."""
    def found():
        squares = [b for b in blobs_in(app.screenshot(f"help-{name}"), HELP_YELLOW, box, tol=12, min_cells=20)
                   if 48 <= b[2] - b[0] <= 72 and 48 <= b[3] - b[1] <= 72]
        return biggest(squares)
    return wait_for(found, what=f"the yellow help button on the {name} screen")


def spoken(heard, before):
    """The WAV the speaker wrote since `before`, checked to hold speech."""
    new = sorted(set(heard.glob("said-*.wav")) - before)
    if not new:
        return None
    wav = new[-1].read_bytes()
    if len(wav) < 44 or wav[:4] != b"RIFF" or wav[8:12] != b"WAVE":
        return None
    samples = memoryview(wav[44:len(wav) - len(wav) % 2]).cast("h")
    return samples if len(samples) > 22050 * 0.5 and max(abs(v) for v in samples) > 1000 else None


def open_and_hear(app, heard, name, box):
    """Opens the help from the yellow button in `box`, has it read aloud
    with the speaker left of OK, and closes it with OK."""
    app.click(*mid(help_button(app, name, box)))
    wait_for(lambda: f"help: {name} " in app.read_log(), what=f"the {name} screen's help")
    shot = app.screenshot(f"help-{name}-open")
    ok = biggest([b for b in blobs(shot, SUGGESTED_BLUE, tol=20) if b[2] - b[0] >= 60 and b[3] - b[1] >= 36])
    assert ok, "no OK button in the help"
    # Pictures, one per step, in the window's left column.
    pictures = blobs_in(shot, DARK, (ok[0] - 500, ok[1] - 600, ok[0] - 250, ok[1] - 10), tol=40, min_cells=6)
    assert len(pictures) >= 3, f"the help shows {len(pictures)} pictures"
    speaker = max(blobs_in(shot, DARK, (ok[0] - 120, ok[1], ok[0] - 4, ok[3]), tol=40, min_cells=4),
                  key=lambda b: b[2], default=None)
    assert speaker, "no speaker beside OK"
    before = set(heard.glob("said-*.wav"))
    app.click(*mid(speaker))
    wait_for(lambda: spoken(heard, before), seconds=20, what=f"the {name} help read aloud", app=app)
    app.click(*mid(ok))
    wait_for(lambda: not [b for b in blobs(app.screenshot(f"help-{name}-closed"), SUGGESTED_BLUE, tol=20)
                          if abs(b[0] - ok[0]) < 8 and abs(b[1] - ok[1]) < 8],
             what=f"the {name} help closed")


def test_the_yellow_help_shows_pictures_and_reads_them_aloud(display, tmp_path):
    heard = tmp_path / "heard"
    heard.mkdir()
    app = App(display, tmp_path, extra_env={"TEAMSKETCH_SPEECH_DIR": str(heard)})
    try:
        # The sketch: the "?" in the top bar.
        start_new_sketch(app, "Haus")
        open_and_hear(app, heard, "sketch", (500, 20, 1200, 110))
        log = app.read_log()
        assert "help: sketch choosePen,chooseWidth,draw," in log, "the pens, widths and drawing come first"
        assert "clearForEveryone" not in log.split("help: sketch")[-1].splitlines()[0], "no clearing alone"
        app.click(45, 60)                                       # home
        wait_for(lambda: "page: home" in app.read_log().split("page: canvas")[-1].splitlines(), what="the start screen")

        # The lobby: beside Back, at the bottom.
        open_lobby(app, "Zoo")
        open_and_hear(app, heard, "lobby", (0, 450, 1200, 840))
    finally:
        app.stop()


def test_joining_has_its_help_too(display, tmp_path):
    heard = tmp_path / "heard"
    heard.mkdir()
    app = App(display, tmp_path, extra_env={"TEAMSKETCH_SPEECH_DIR": str(heard)})
    try:
        press_home_button(app, 2)                               # Join
        open_and_hear(app, heard, "join", (0, 450, 1200, 840))
        assert "help: join tapTheSign,typeTheCode,waitToBeLetIn" in app.read_log()
        time.sleep(0.2)
    finally:
        app.stop()


def test_the_games_how_to_play_reads_its_captions_aloud(display, tmp_path):
    heard = tmp_path / "heard"
    heard.mkdir()
    app = App(display, tmp_path, extra_env={"TEAMSKETCH_SPEECH_DIR": str(heard), "TEAMSKETCH_WORDPOST_SEED": "7"})
    try:
        press_home_button(app, 4)                               # Buchstaben Post
        play = wait_for(lambda: biggest(blobs(app.screenshot("help-game-start"), SUGGESTED_BLUE, tol=25)),
                        what="the Play button")
        app.click(*mid(play))                                   # alone
        app.click(*mid(help_button(app, "game", (0, 20, 1200, 110))))
        time.sleep(0.8)
        # The picture over the board, its speaker in the top right corner.
        speaker = wait_for(lambda: biggest(blobs_in(app.screenshot("help-game-open"), DARK, (1040, 110, 1200, 230),
                                                     tol=40, min_cells=4)), what="the speaker on the picture")
        before = set(heard.glob("said-*.wav"))
        app.click(*mid(speaker))
        wait_for(lambda: spoken(heard, before), seconds=20, what="the captions read aloud", app=app)
    finally:
        app.stop()
