"""A pupil tells the real session from others by looking: the host's lobby
shows the host's avatar and the session's sign (two pictures on a band of
one colour), and the join card on another pupil's screen shows the same
sign. Judged by pixels: the band's colour, then each picture tile."""
import re
import time

from PIL import Image, ImageChops, ImageStat

from harness import App, Display, blobs, find_color, home_button, wait_for

# SessionSign.Colour.rgba (LearnModel).
SIGN_COLOURS = {
    "red": (0xD7, 0x26, 0x3D), "orange": (0xF0, 0x8A, 0x24), "yellow": (0xF2, 0xC8, 0x11),
    "green": (0x2E, 0x9E, 0x4A), "blue": (0x2F, 0x6F, 0xD6), "purple": (0x8A, 0x3F, 0xC1),
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
        host.click(*home_button(host, 1))          # Draw together
        time.sleep(0.4)
        host.key("ctrl+a")
        host.type("Signed")
        host.key("Return")                          # opens the lobby
        m = wait_for(lambda: re.search(r"hosting: code=\d{6} .* sign=(\w+) (\w+) (\w+)", host.read_log()),
                     what="the lobby's sign in the log")
        colour = SIGN_COLOURS[m[1]]
        lobby = host.screenshot("sign-lobby")
        in_lobby = signs(lobby, colour, min_height=100)
        assert len(in_lobby) == 1, f"the lobby shows no big {m[1]} sign: {in_lobby}"
        lobby_tiles = tiles(lobby, in_lobby[0])
        # The two pictures differ: otherwise matching them below proves little.
        assert diff(*lobby_tiles) > 20

        guest = App(second, tmp_path / "guest")
        guest.click(*home_button(guest, 2))         # Join: nearby sessions as cards

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
    finally:
        if guest:
            guest.stop()
        host.stop()
        second.stop()
