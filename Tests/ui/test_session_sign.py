"""A pupil tells the real session from others by looking: the host's lobby
shows the host's avatar and the session's sign (two pictures on a band of
one colour), and the join card on another pupil's screen shows the same
sign, and so does the join screen once joined. A copy of the session id
announced from another computer is marked; the real card is not. Judged by
pixels: the band's colour, then each picture tile."""
import re
import subprocess

import pytest
from PIL import Image, ImageChops, ImageStat

import harness
from harness import App, BIN, Display, bbox, blobs, find_color, press_home_button, wait_for

# SessionSign.Colour.rgba (LearnModel).
SIGN_COLOURS = {
    "red": (0xD7, 0x26, 0x3D), "orange": (0xF0, 0x8A, 0x24), "yellow": (0xF2, 0xC8, 0x11),
    "green": (0x43, 0xA8, 0x3A), "blue": (0x1F, 0x4F, 0xB4), "purple": (0x8A, 0x3F, 0xC1),
    "pink": (0xF0, 0x6E, 0xAA), "brown": (0x8B, 0x5A, 0x2B),
}
ASPECT = (2 + 3 * 0.125) / (1 + 2 * 0.125)  # SessionSignRenderer.aspect


def signs(shot, rgb, min_height):
    """Boxes of sign bands of colour `rgb`: blobs of that colour shaped like
    a sign, their edges found to the pixel."""
    found = []
    for b in blobs(shot, rgb, tol=10, step=3, min_cells=20):
        w, h = b[2] - b[0], b[3] - b[1]
        if h < min_height or abs(w / h - ASPECT) > 0.15:
            continue
        exact = find_color(shot, rgb, box=(b[0] - 4, b[1] - 4, b[2] + 5, b[3] + 5), tol=10)
        xs = [p[0] for p in exact]
        ys = [p[1] for p in exact]
        found.append((min(xs), min(ys), max(xs) + 1, max(ys) + 1))
    return found


def tiles(shot, box, size=48):
    """The sign's two picture tiles, cut out and scaled to one size."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    tile = h / 1.25
    gap = tile * 0.125
    out = []
    for i in range(2):
        tx = x0 + gap + i * (tile + gap)
        crop = shot.crop((round(tx), round(y0 + gap), round(tx + tile), round(y0 + gap + tile)))
        out.append(crop.resize((size, size), Image.LANCZOS))
    return out


def diff(a, b):
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def test_the_join_card_shows_the_same_sign_as_the_hosts_lobby(display, tmp_path):
    second = Display().start()
    (tmp_path / "host").mkdir()
    (tmp_path / "guest").mkdir()
    host = App(display, tmp_path / "host")
    guest = None
    try:
        press_home_button(host, 1)          # Draw together
        host.key("ctrl+a")
        host.type("Signed")
        host.key("Return")                          # opens the lobby
        m = wait_for(lambda: re.search(r"hosting: code=\d{6} .* sign=(\w+) (\w+) (\w+)", host.read_log()),
                     what="the lobby's sign in the log", app=host)
        colour = SIGN_COLOURS[m[1]]
        lobby = host.screenshot("sign-lobby")
        in_lobby = signs(lobby, colour, min_height=100)
        assert len(in_lobby) == 1, f"the lobby shows no big {m[1]} sign: {in_lobby}"
        lobby_tiles = tiles(lobby, in_lobby[0])
        # The two pictures differ: otherwise matching them below proves little.
        assert diff(*lobby_tiles) > 20

        guest = App(second, tmp_path / "guest")
        press_home_button(guest, 2)         # Join: nearby sessions as cards

        def card_sign():
            shot = guest.screenshot("sign-join-card")
            # Other sessions on this machine may show cards too: pick the
            # one whose pictures match best.
            found = [(sum(diff(a, b) for a, b in zip(lobby_tiles, tiles(shot, box))), box)
                     for box in signs(shot, colour, min_height=60)]
            return min(found) if found else None
        score, box = wait_for(card_sign, seconds=20, what=f"a join card with the {m[1]} sign")
        card_tiles = tiles(guest.screenshot("sign-join-card"), box)
        # Each picture matches its counterpart (drawn at another size, so
        # not to the pixel) far better than it matches the other picture.
        for i in range(2):
            same = diff(lobby_tiles[i], card_tiles[i])
            other = diff(lobby_tiles[i], card_tiles[1 - i])
            assert same < 12, f"picture {i + 1} on the card is not the lobby's ({same:.1f})"
            assert same * 2 < other, f"picture {i + 1}: {same:.1f} vs the other picture {other:.1f}"
        # The real session is not marked as a copy: no warning stripes on its sign.
        x0, y0, x1, y1 = box
        assert len(find_color(guest.screenshot("sign-join-card"), (0xC0, 0x26, 0x1C), box=(x0 - 60, y0 - 20, x1 + 20, y1 + 80), tol=12)) < 20

        # Joined (as by a typed code): while waiting, the join screen shows
        # the sign the host sent, so the pupil can check the pictures again.
        guest.click((x0 + x1) / 2, (y0 + y1) / 2)
        def waiting_sign():
            shot = guest.screenshot("sign-joined")
            below = [b for b in signs(shot, colour, min_height=60) if b[1] > y1 + 40 or b[0] > x1 + 40 or b[2] < x0 - 40]
            return (shot, below[0]) if below else None
        shot, joined = wait_for(waiting_sign, seconds=20, what="the sign while waiting for the host")
        for a, b in zip(lobby_tiles, tiles(shot, joined)):
            assert diff(a, b) < 12
    finally:
        if guest:
            guest.stop()
        host.stop()
        second.stop()


WARNING_YELLOW = (0xFF, 0xD6, 0x00)  # SessionSignRenderer.drawCopyWarning's triangle
COPY_RED = (0xC0, 0x26, 0x1C)        # .session-copy's dashed frame and words


class TwoNetworks:
    """Two network namespaces joined by a cable (a veth pair): the classroom
    (10.77.0.1, where the apps run) and another computer (10.77.0.2). Only
    from there does an announcement come from an address that is not this
    device's, as a copy on a real classroom network would."""

    def __init__(self, tmp):
        self.holders = []
        self.tmp = tmp

    def _holder(self):
        p = subprocess.Popen(["unshare", "--net", "sh", "-c", "ip link set lo up && echo ready && exec sleep 100000"],
                             stdout=subprocess.PIPE, text=True)
        assert p.stdout.readline().strip() == "ready"
        self.holders.append(p)
        return p.pid

    def start(self):
        self.room, self.other = self._holder(), self._holder()
        self.run(self.room, "ip", "link", "add", "va", "type", "veth", "peer", "name", "vb")
        self.run(self.room, "ip", "link", "set", "vb", "netns", str(self.other))
        for pid, dev, ip in ((self.room, "va", "10.77.0.1/24"), (self.other, "vb", "10.77.0.2/24")):
            self.run(pid, "ip", "addr", "add", ip, "brd", "+", "dev", dev)
            self.run(pid, "ip", "link", "set", dev, "up")
        # The apps run in the classroom: a wrapper keeps the app's pid
        # (nsenter execs it), so the harness finds its window as usual.
        wrapper = self.tmp / "in-classroom"
        wrapper.write_text(f"#!/bin/sh\nexec nsenter --net=/proc/{self.room}/ns/net {BIN} \"$@\"\n")
        wrapper.chmod(0o755)
        return wrapper

    def run(self, pid, *cmd):
        subprocess.run(["nsenter", f"--net=/proc/{pid}/ns/net", *cmd], check=True)

    def popen_elsewhere(self, *args):
        return subprocess.Popen(["nsenter", f"--net=/proc/{self.other}/ns/net", str(BIN), *args],
                                env={"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(self.tmp / "other")},
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop(self):
        for p in self.holders:
            p.kill()
            p.wait()


def test_a_copy_of_the_session_from_another_computer_is_marked_and_the_real_card_is_not(display, tmp_path, monkeypatch):
    if subprocess.run(["unshare", "--net", "true"], capture_output=True).returncode != 0:
        pytest.skip("network namespaces are not available here")
    nets = TwoNetworks(tmp_path)
    monkeypatch.setattr(harness, "BIN", nets.start())
    second = Display().start()
    (tmp_path / "host").mkdir()
    (tmp_path / "guest").mkdir()
    host = guest = fake = None
    try:
        host = App(display, tmp_path / "host")
        press_home_button(host, 1)          # Draw together
        host.key("ctrl+a")
        host.type("Real")
        host.key("Return")
        m = wait_for(lambda: re.search(r"hosting: code=\d{6} .* sign=(\w+) \w+ \w+ id=(\S+)", host.read_log()),
                     what="the lobby's sign and id in the log")
        colour, session_id = SIGN_COLOURS[m[1]], m[2]
        lobby = host.screenshot("copy-lobby")
        lobby_tiles = tiles(lobby, signs(lobby, colour, min_height=100)[0])

        guest = App(second, tmp_path / "guest")
        press_home_button(guest, 2)         # Join
        real = wait_for(lambda: signs(guest.screenshot("copy-before"), colour, min_height=60),
                        seconds=20, what="the real session's card")[0]

        # Another computer announces the same session id, the same host
        # name, the same port: everything a copy can imitate.
        fake = nets.popen_elsewhere("announce", "--name", "Pupil", "--port", "47851", "--id", session_id,
                                    "--no-dnssd")

        def warned():
            shot = guest.screenshot("copy-card")
            red = find_color(shot, COPY_RED, tol=12)
            return (shot, bbox(red)) if len(red) > 200 else None
        shot, copy_box = wait_for(warned, seconds=20, what="the copy's card in its dashed red frame")
        # The copy's sign is struck through under a warning triangle...
        assert len(find_color(shot, WARNING_YELLOW, box=copy_box, tol=20)) > 150, "no warning triangle on the copy"
        # ...while the real card (the first heard) keeps its clean sign with
        # the lobby's pictures and no red near it.
        clean = signs(shot, colour, min_height=60)
        assert len(clean) == 1, f"only the real card's sign is clean: {clean}"
        real = clean[0]
        x0, y0, x1, y1 = real
        assert x1 < copy_box[0], "the real card is the first one, left of the copy"
        assert len(find_color(shot, COPY_RED, box=(x0 - 80, y0 - 20, x1 + 10, y1 + 90), tol=12)) < 20
        for a, b in zip(lobby_tiles, tiles(shot, real)):
            assert diff(a, b) < 12
    finally:
        if fake:
            fake.kill()
            fake.wait()
        for app in (guest, host):
            if app:
                app.stop()
        second.stop()
        nets.stop()
