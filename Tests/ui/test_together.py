"""Drawing together over the LAN as two pupils use it: one hosts, the other
joins by the code the host's screen shows; a stroke drawn on one machine
appears on the other."""
import re
import time

from harness import (ACCEPT_GREEN, App, Display, RED, SUGGESTED_BLUE, centre, curve, find_color,
                     press_home_button, join_by_code, near, pen_button, shown_sheet, wait_for)


def test_two_apps_draw_together_over_loopback(display, tmp_path):
    second = Display().start()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    host = App(display, tmp_path / "a")
    guest = None
    try:
        press_home_button(host, 1)          # Draw together
        host.key("ctrl+a")
        host.type("Together")
        host.key("Return")                          # opens the lobby
        code = wait_for(lambda: re.search(r"hosting: code=(\d{6})", host.read_log()), what="the join code")[1]
        host.screenshot("lobby-open")

        guest = App(second, tmp_path / "b")
        join_by_code(guest, code)

        def accept_button():
            shot = host.screenshot("lobby-asked")
            return find_color(shot, ACCEPT_GREEN, tol=30)
        host.click(*centre(wait_for(accept_button, what="the guest in the host's lobby")))
        time.sleep(0.5)
        start = find_color(host.screenshot("lobby-ready"), SUGGESTED_BLUE, tol=25)
        assert start, "no Start button"
        host.click(*centre(start))

        shot, sheet = wait_for(lambda: shown_sheet(guest, "guest-canvas"), what="the guest's canvas")
        host_shot, host_sheet = wait_for(lambda: shown_sheet(host, "host-canvas"), what="the host's canvas")

        guest.click(*centre(pen_button(shot, sheet, RED)))
        path = curve(sheet)
        guest.drag(path)

        def red_on_host():
            red = find_color(host.screenshot("host-sees-guest"), RED, box=host_sheet, tol=30)
            return red if len(red) > 200 else None
        red = wait_for(red_on_host, what="the guest's stroke on the host's screen")
        # The same canvas point may sit elsewhere on the host's screen (window
        # placement): map the guest's path onto the host's sheet.
        k = (host_sheet[2] - host_sheet[0]) / (sheet[2] - sheet[0])
        for p in path[::5] + [path[-1]]:
            q = (host_sheet[0] + (p[0] - sheet[0]) * k, host_sheet[1] + (p[1] - sheet[1]) * k)
            assert near(red, q, 8), f"no red ink near {q} on the host's screen"
        assert len(find_color(guest.screenshot("guest-drew"), RED, box=sheet, tol=30)) > 200
    finally:
        if guest:
            guest.stop()
        host.stop()
        second.stop()
