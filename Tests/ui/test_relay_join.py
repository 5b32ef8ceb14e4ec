"""The school server's relay as two pupils meet it on Wi-Fi that keeps laptops
apart: Mia's and Ole's laptops are on networks of their own and reach only the
school server. Both are signed in (their class's sign-in, as the picture
password leaves it). Mia opens a lobby: it says her class can also join
through the school server. Ole's join screen shows her session's card — her
sign, "School server" — with no code typed; he taps it, Mia accepts him as on
the room's network, starts, and a line Ole draws appears on Mia's screen."""
import json
import os
import re
import shutil
import sys
import time
from pathlib import Path

import pytest

from harness import ACCEPT_GREEN, App, Display, RED, SUGGESTED_BLUE, blobs, centre, find_color, press_home_button, \
    open_lobby, pen_button, shown_sheet, wait_for, curve

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))
from schoolnet import PORT, SchoolNetwork, pupil_tokens, start_server  # noqa: E402

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("ip") is None or shutil.which("curl") is None,
                                reason="needs root, iproute2 and curl")

# SessionSign.Colour.rgba (LearnModel), by the word the host's log gives.
SIGN_COLOURS = {
    "red": (0xD7, 0x26, 0x3D), "orange": (0xF0, 0x8A, 0x24), "yellow": (0xF2, 0xC8, 0x11),
    "green": (0x43, 0xA8, 0x3A), "blue": (0x1F, 0x4F, 0xB4), "purple": (0x8A, 0x3F, 0xC1),
    "pink": (0xF0, 0x6E, 0xAA), "brown": (0x8B, 0x5A, 0x2B),
}


def signed_in(home, server, token, name):
    """The sign-in a pupil's picture password leaves on the laptop (the
    sign-in screen itself is tested in test_pupil_sign_in.py)."""
    folder = home / "config" / "teamsketch"
    folder.mkdir(parents=True)
    # Swift's JSONEncoder writes dates as seconds since 2001-01-01.
    expires = time.time() - 978307200 + 8 * 3600
    (folder / "school.json").write_text(json.dumps({
        "server": server, "accountID": token["id"], "name": name, "isTeacher": False,
        "token": token["token"], "expiresAt": expires, "classID": token["classId"]}))
    (folder / "school.json").chmod(0o600)


def test_a_pupil_joins_through_the_school_server_when_laptops_cannot_reach_each_other(display, tmp_path):
    school = SchoolNetwork(tmp_path).start()
    second = Display().start()
    mia = ole = None
    try:
        start_server(school, tmp_path)
        tokens = pupil_tokens(school, ["Mia", "Ole"], details=True)
        for name, net in (("Mia", 1), ("Ole", 2)):
            (tmp_path / name).mkdir()
            signed_in(tmp_path / name, f"http://10.77.{net}.1:{PORT}", tokens[name], name)

        mia = App(display, tmp_path / "Mia", prefix=["ip", "netns", "exec", school.mia])
        open_lobby(mia, "Zoo")
        wait_for(lambda: "relay offer: listed" in mia.read_log(), seconds=30, what="the session offered at the server")
        hosting = re.search(r"hosting: .*address=([0-9.]+):(\d+) sign=(\w+) ", mia.read_log())
        sign = hosting[3]
        mia.screenshot("relay-lobby")
        # Ole's laptop cannot reach Mia's: whatever joins goes through the server.
        direct = school.run(school.ole, ["curl", "-s", "--max-time", "3", f"http://{hosting[1]}:{hosting[2]}/"])
        assert direct.returncode in (7, 28), f"Ole's laptop reached Mia's directly: {direct.returncode}"

        ole = App(second, tmp_path / "Ole", prefix=["ip", "netns", "exec", school.ole])
        press_home_button(ole, 2)                  # Join
        colour = SIGN_COLOURS[sign]

        def card():
            found = [b for b in blobs(ole.screenshot("relay-join"), colour, tol=10, step=3, min_cells=20)
                     if b[3] - b[1] >= 40]
            return found[0] if found else None
        band = wait_for(card, seconds=30, what="Mia's card on Ole's join screen")
        ole.click(*centre([(band[0], band[1]), (band[2], band[3])]))

        accept = wait_for(lambda: find_color(mia.screenshot("relay-asked"), ACCEPT_GREEN, tol=30),
                          what="Ole asking in Mia's lobby")
        mia.click(*centre(accept))
        time.sleep(0.5)
        start = wait_for(lambda: find_color(mia.screenshot("relay-ready"), SUGGESTED_BLUE, tol=25), what="Start")
        mia.click(*centre(start))

        shot, sheet = wait_for(lambda: shown_sheet(ole, "relay-ole-canvas"), what="Ole's canvas")
        _, mia_sheet = wait_for(lambda: shown_sheet(mia, "relay-mia-canvas"), what="Mia's canvas")
        ole.click(*centre(pen_button(shot, sheet, RED)))
        ole.drag(curve(sheet))

        def red_on_mia():
            red = find_color(mia.screenshot("relay-mia-sees-ole"), RED, box=mia_sheet, tol=30)
            return red if len(red) > 200 else None
        wait_for(red_on_mia, what="Ole's line on Mia's screen")
    finally:
        for app in (ole, mia):
            if app:
                app.stop()
        second.stop()
        school.stop()
