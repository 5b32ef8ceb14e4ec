"""Where the app finds its resources (word pools, sounds, style sheet):
from an XDG data directory when the build tree's copy is pointed away, and
what a person sees when they are missing or damaged — a message, not a
crash. Judged by screenshots and the app's stderr. The installed app's
resources: test_install.py."""
import shutil
import subprocess
import time

from harness import (App, ROOT, SUGGESTED_BLUE, TILE_YELLOW, blobs, centre, find_color, press_home_button,
                     wait_for)

TITLE_BLUE = (0x2B, 0x2B, 0x6E)  # .home-title in resources/style/teamsketch.css


def xdg_env(tmp_path, data_dirs):
    """Resources only from `data_dirs`: the build tree's copy is pointed at
    a directory that does not exist. /usr/share stays last, as on a real
    desktop, for GTK's own icons; it holds no Teamsketch resources here."""
    return {"TEAMSKETCH_RESOURCES": str(tmp_path / "no-build-tree"),
            "XDG_DATA_DIRS": ":".join(str(d) for d in [*data_dirs, "/usr/share"]),
            "TEAMSKETCH_SOUNDS": "1"}


def copy_resources(dest):
    shutil.copytree(ROOT / "resources", dest / "teamsketch")
    return dest


def home(tmp_path):
    d = tmp_path / "home"
    d.mkdir(exist_ok=True)
    return d


def has_styled_title(shot):
    return len(find_color(shot, TITLE_BLUE, box=(0, 0, 1200, 400), tol=20)) > 200


def window_named(app, title):
    # --all: xdotool otherwise matches any window of the pid, whatever its name.
    r = subprocess.run(["xdotool", "search", "--all", "--onlyvisible", "--pid", str(app.proc.pid), "--name", title],
                       env=app.env, capture_output=True, text=True)
    return r.stdout.split()


def play_alone(app, name):
    press_home_button(app, 4)                  # Buchstaben Post
    play = find_color(app.screenshot(f"{name}-start"), SUGGESTED_BLUE, tol=25)
    assert play, "no Play button: no word list was offered"
    app.click(*centre(play))                         # "Play alone"
    time.sleep(1.6)
    return app.screenshot(f"{name}-game")


def test_resources_are_found_in_an_xdg_data_dir(display, tmp_path):
    shared = copy_resources(tmp_path / "share")
    app = App(display, home(tmp_path), extra_env=xdg_env(tmp_path, [tmp_path / "elsewhere", shared]))
    try:
        assert has_styled_title(app.screenshot("resources-xdg-home")), "the style sheet was not applied"
        assert blobs(play_alone(app, "resources-xdg"), TILE_YELLOW), "no letter tiles: the game did not start"
        assert app.proc.poll() is None
        assert "teamsketch: resource" not in app.read_log()
    finally:
        app.stop()


def test_missing_resources_give_a_message_not_a_crash(display, tmp_path):
    app = App(display, home(tmp_path), extra_env=xdg_env(tmp_path, [tmp_path / "empty"]))
    try:
        wait_for(lambda: window_named(app, "looks plainer"), what="the message about the missing style sheet")
        shot = app.screenshot("resources-missing")
        assert not has_styled_title(shot), "a style sheet was applied although none exists"
        log = app.read_log()
        assert "resource style/teamsketch.css not found" in log
        assert str(tmp_path / "empty" / "teamsketch") in log, "stderr should say where it looked"
        # The message is modal on top of the main window; make sure it has the
        # keyboard (activating may report an error when it already has).
        subprocess.run(["xdotool", "windowactivate", "--sync", window_named(app, "looks plainer")[0]],
                       env=app.env, capture_output=True, timeout=10)
        time.sleep(0.3)
        app.key("Return")                            # OK
        wait_for(lambda: not window_named(app, "looks plainer"), seconds=5, what="the message to close")
        assert app.proc.poll() is None
    finally:
        app.stop()


def test_damaged_pool_and_missing_sounds_leave_the_rest_playable(display, tmp_path):
    shared = copy_resources(tmp_path / "share")
    (shared / "teamsketch" / "pools" / "en.json").write_text('{"id": "builtin.en", "items": [', encoding="utf-8")
    shutil.rmtree(shared / "teamsketch" / "sounds")
    app = App(display, home(tmp_path), extra_env=xdg_env(tmp_path, [shared]))
    try:
        shot = play_alone(app, "resources-damaged")
        # The German list is still offered and playable; the game is quiet
        # and says so.
        assert blobs(shot, TILE_YELLOW), "no letter tiles: the remaining word list did not start a game"
        wait_for(lambda: window_named(app, "The game is quiet"), what="the message about the missing sounds")
        log = app.read_log()
        assert "resource pools/en.json at" in log and "is damaged" in log
        assert "resource sounds/snap.wav not found" in log
        assert app.proc.poll() is None
    finally:
        app.stop()


def test_committed_sounds_are_what_the_generator_makes(tmp_path):
    """The WAV files and scripts/make-sounds.py must not drift apart: a sound
    changed in one place only would be lost the next time someone runs it."""
    subprocess.run(["/usr/bin/python3", str(ROOT / "scripts" / "make-sounds.py"), str(tmp_path)], check=True,
                   capture_output=True)
    made = sorted(p.name for p in tmp_path.glob("*.wav"))
    committed = sorted(p.name for p in (ROOT / "resources" / "sounds").glob("*.wav"))
    assert made == committed and len(made) == 6
    for name in made:
        assert (tmp_path / name).read_bytes() == (ROOT / "resources" / "sounds" / name).read_bytes(), name
