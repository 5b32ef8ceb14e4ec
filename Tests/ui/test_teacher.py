"""The teacher's window as a teacher meets it on a machine without a school
server: the small teacher button, a PIN chosen on the number pad, the
classroom settings; and the pupils' screens obeying them, also on another
pupil's machine in a LAN session hosted here."""
import json
import time

from harness import (ACCEPT_GREEN, DARK_BLUE, SUGGESTED_BLUE, App, Display, blobs, centre, find_color, join_by_code,
                     open_lobby, pen_button, shown_sheet, small_buttons, stroke_thickness, wait_for)


def open_teacher_window(app, pin="2468"):
    """Teacher button → choose the PIN twice on a fresh machine."""
    teacher = small_buttons(app)[0]
    assert teacher[2] - teacher[0] >= 46 and teacher[3] - teacher[1] >= 46, f"target too small: {teacher}"
    app.click((teacher[0] + teacher[2]) / 2, (teacher[1] + teacher[3]) / 2)
    time.sleep(0.6)
    app.screenshot("teacher-choose-pin")
    for _ in range(2):
        app.type(pin)
        app.key("Return")
        time.sleep(0.4)
    return wait_for(lambda: switches(app.screenshot("teacher-settings")), what="the classroom settings")


def switches(shot):
    """The switches that are on, top to bottom (blue blobs in the right column)."""
    found = [b for b in blobs(shot, SUGGESTED_BLUE, tol=30) if 20 <= b[2] - b[0] <= 70 and b[0] > 600]
    return sorted(found, key=lambda b: b[1])


def dark_icons(img, box, tol=40, gap=10):
    """How many separate dark icons lie in `box`, counted as runs of columns."""
    fg = (0x2E, 0x34, 0x36)
    cols = [x for x in range(box[0], box[2])
            if any(all(abs(a - b) <= tol for a, b in zip(img.getpixel((x, y))[:3], fg)) for y in range(box[1], box[3], 2))]
    return sum(1 for i, x in enumerate(cols) if i == 0 or x - cols[i - 1] > gap)


def test_the_teacher_turns_the_eraser_off_and_a_guests_canvas_obeys(display, tmp_path):
    second = Display().start()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    host = App(display, tmp_path / "a")
    guest = None
    try:
        on = open_teacher_window(host)
        assert len(on) == 5, ("eraser, eraser for one's own lines only, undo, sounds and drawing with a finger "
                              f"are on by default: {on}")
        # Under the first switches, one quiet grey line says why.
        eraser, own_only, undo = on[0], on[1], on[2]
        shot = host.screenshot("teacher-settings-defaults")
        note = find_color(shot, (0x5E, 0x5C, 0x64), tol=20, box=(100, undo[3], 1100, undo[3] + 160))
        assert len(note) > 200, "no line under the switches says why they are as they are"
        host.click((own_only[0] + own_only[2]) / 2, (own_only[1] + own_only[3]) / 2)
        time.sleep(0.5)
        stored = json.loads((tmp_path / "a" / "config" / "teamsketch" / "classroom.json").read_text())
        assert stored["settings"]["eraserOwnStrokesOnly"] is False
        host.click((eraser[0] + eraser[2]) / 2, (eraser[1] + eraser[3]) / 2)
        time.sleep(0.5)
        after = switches(host.screenshot("teacher-eraser-off"))
        assert len(after) == 3 and after[0][1] > eraser[1] + 20, f"the eraser switch did not go off: {after}"
        stored = json.loads((tmp_path / "a" / "config" / "teamsketch" / "classroom.json").read_text())
        assert stored["settings"]["eraserAllowed"] is False
        assert "2468" not in json.dumps(stored), "the PIN is kept only as a hash"

        # Lock: the right-most dark icon in the header (the title is blue,
        # the tabs left of it).
        dark = find_color(host.screenshot("teacher-before-lock"), (0x2E, 0x34, 0x36), tol=8, box=(0, 20, 1200, 140))
        right = max(x for x, _ in dark)
        host.click(*centre([p for p in dark if p[0] > right - 60]))
        time.sleep(0.6)
        code = open_lobby(host, "Rules")

        guest = App(second, tmp_path / "b")
        join_by_code(guest, code)
        host.click(*centre(wait_for(lambda: find_color(host.screenshot("rules-asked"), ACCEPT_GREEN, tol=30),
                                    what="the guest in the host's lobby")))
        time.sleep(0.5)
        host.click(*centre(find_color(host.screenshot("rules-ready"), SUGGESTED_BLUE, tol=25)))
        shot, sheet = wait_for(lambda: shown_sheet(guest, "rules-guest-canvas"), what="the guest's canvas")
        host_shot, host_sheet = wait_for(lambda: shown_sheet(host, "rules-host-canvas"), what="the host's canvas")

        # The host draws a line; the guest tries to erase it with the E key
        # and a drag across: the line stays, and the drag draws instead.
        host.click(*centre(pen_button(host_shot, host_sheet, DARK_BLUE)))
        x0, y0, x1, y1 = host_sheet
        y = (y0 + y1) / 2
        host.drag([(x0 + 80 + i * 20, y) for i in range(int((x1 - x0 - 160) / 20))])
        gx0, gy0, gx1, gy1 = sheet
        gy = (gy0 + gy1) / 2
        mid = (gx0 + gx1) // 2
        wait_for(lambda: stroke_thickness(guest.screenshot("rules-guest-sees"), mid, int(gy) - 20, int(gy) + 20,
                                          DARK_BLUE) >= 1, what="the host's line on the guest's screen")
        guest.key("e")
        guest.drag([(mid, gy - 30 + i * 3) for i in range(21)])
        time.sleep(1.0)
        kept = guest.screenshot("rules-guest-tried-to-erase")
        assert stroke_thickness(kept, gx0 + 120, int(gy) - 20, int(gy) + 20, DARK_BLUE) >= 1, "the eraser worked"
        hkept = host.screenshot("rules-host-after")
        assert stroke_thickness(hkept, x0 + 120, int(y) - 20, int(y) + 20, DARK_BLUE) >= 1

        # And the guest's bar has no eraser button: right of the pens there
        # are dark icons for "broad" and "take back my last line" only (the
        # chosen "fine" is drawn light on dark).
        assert dark_icons(kept, (gx0 + 3 * (gx1 - gx0) // 4, gy1 + 6, kept.size[0] - 80, kept.size[1] - 24)) == 2
    finally:
        if guest:
            guest.stop()
        host.stop()
        second.stop()


def test_the_pins_please_wait_counts_down_and_ends(display, tmp_path):
    """After too many wrong PINs the screen says how long to wait, counts
    down, and then says the PIN may be typed again: it never goes on
    asking to wait after the wait is over."""
    import subprocess
    from harness import BIN
    env = {"XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([str(BIN), "set-teacher-pin"], input="1357\n", env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    setup = tmp_path / "config" / "teamsketch" / "classroom.json"
    stored = json.loads(setup.read_text())
    # Four wrong tries a moment ago: the gate is shut for 15 more seconds
    # (dates as Foundation writes them: seconds since 2001).
    stored["gate"] = {"wrongTries": 4, "lockedUntil": time.time() - 978307200 + 15}
    setup.write_text(json.dumps(stored))
    app = App(display, tmp_path)
    try:
        teacher = small_buttons(app)[0]
        app.click((teacher[0] + teacher[2]) / 2, (teacher[1] + teacher[3]) / 2)
        wait_for(lambda: "page: teacher-pin" in app.read_log().splitlines(), what="the PIN pad")
        time.sleep(0.5)
        app.type("1357")
        app.key("Return")
        wait_for(lambda: "teacher PIN: please wait" in app.read_log(), what="the wait said")
        wait_for(lambda: "teacher PIN: the wait is over" in app.read_log(), seconds=30, what="the wait's end said")
        app.screenshot("pin-wait-over")
        assert "page: teacher" not in app.read_log().splitlines(), "the window opened while the gate was shut"
    finally:
        app.stop()
