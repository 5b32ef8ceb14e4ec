"""A window that stops answering for seconds says so in the app's log, so a
frozen screen (or a UI test's click that seems lost) can be told from a
click that went astray. The whole app is stopped for four seconds, as a
main loop stuck in a call would be."""
import os
import signal
import time

from harness import App, wait_for


def test_a_stopped_main_loop_is_named_in_the_log(display, tmp_path):
    app = App(display, tmp_path)
    try:
        assert "main loop" not in app.read_log()
        os.kill(app.proc.pid, signal.SIGSTOP)
        time.sleep(4)
        os.kill(app.proc.pid, signal.SIGCONT)
        line = wait_for(lambda: [l for l in app.read_log().splitlines() if l.startswith("main loop: was busy for ")],
                        what="the stall in the log")[0]
        assert 3.5 <= float(line.split()[-2]) < 30, line
    finally:
        app.stop()
