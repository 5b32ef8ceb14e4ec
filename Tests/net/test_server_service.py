"""The school server as systemd runs it (resources/server/): the unit passes
`systemd-analyze verify` and scores below 3 in `systemd-analyze security`
(PID 1 here is not systemd, so both run offline); the server started the
way the unit starts it, with /etc/teamsketch/server.conf's shipped
defaults, tells the service manager it is ready and stopping over
NOTIFY_SOCKET, writes the journal's priorities when its standard error is
the journal, and stops cleanly on SIGTERM."""
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import ROOT, SERVER, call, free_port  # noqa: E402

UNIT = ROOT / "resources" / "server" / "teamsketch-server.service"
CONF = ROOT / "resources" / "server" / "server.conf"
# The exposure OPERATIONS.md shows; the unit may only get safer.
MAX_EXPOSURE = 3.0


def unit_for(tmp_path):
    """The unit with ExecStart on the built server (verify checks it exists)."""
    text = UNIT.read_text().replace("/usr/bin/TeamsketchServer", str(SERVER))
    unit = tmp_path / "teamsketch-server.service"
    unit.write_text(text)
    return unit


def test_the_unit_verifies_and_is_hardened(tmp_path):
    unit = unit_for(tmp_path)
    verified = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    # Only this unit's own lines count: the host's other units are not ours.
    own = [line for line in verified.stderr.splitlines() if "teamsketch-server.service" in line]
    assert verified.returncode == 0 and not own, verified.stderr
    security = subprocess.run(["systemd-analyze", "security", "--offline=true", str(unit)],
                              capture_output=True, text=True)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", security.stdout + security.stderr)
    assert found, security.stdout + security.stderr
    assert float(found.group(1)) < MAX_EXPOSURE, security.stdout


def test_the_shipped_configuration_is_the_servers_and_names_every_option():
    """Each option of `serve --help` is in server.conf, as a setting or a
    commented example, so an administrator finds them all in one place."""
    helped = subprocess.run([str(SERVER), "serve", "--help"], capture_output=True, text=True, check=True).stdout
    options = set(re.findall(r"--([a-z][a-z0-9-]*)", helped)) - {"help", "config", "database-password-file"}
    shipped = set(re.findall(r"^#? ?([a-z][a-z0-9-]*) =", CONF.read_text(), re.M))
    assert options <= shipped, options - shipped


def test_the_server_tells_systemd_and_stops_cleanly_on_sigterm(tmp_path):
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(tmp_path / "notify"))
    notify.settimeout(60)
    port = free_port()
    conf = tmp_path / "server.conf"
    conf.write_text(CONF.read_text().replace("/var/lib/teamsketch-server", str(tmp_path / "state"))
                    + f"host = 127.0.0.1\nport = {port}\nno-announce = true\n")
    log = tmp_path / "journal.log"
    with open(log, "wb") as stderr:
        status = os.fstat(stderr.fileno())
        env = dict(os.environ, NOTIFY_SOCKET=str(tmp_path / "notify"),
                   JOURNAL_STREAM=f"{status.st_dev}:{status.st_ino}")
        server = subprocess.Popen([str(SERVER), "serve", "--config", str(conf)],
                                  stdout=subprocess.DEVNULL, stderr=stderr, env=env)
        try:
            ready = notify.recv(4096).decode()
            assert "READY=1" in ready.splitlines(), ready
            assert f"STATUS=listening on http://127.0.0.1:{port}/api/v1 (sqlite)" in ready, ready
            # Ready means ready: the first request after it is answered.
            assert call(port, "GET", "/health") is not None
            assert (tmp_path / "state" / "teamsketch.sqlite").exists()
            server.send_signal(signal.SIGTERM)
            assert notify.recv(4096).decode() == "STOPPING=1"
            assert server.wait(30) == 0
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()
    lines = log.read_text().splitlines()
    # No timestamps (the journal keeps its own), every line its priority.
    assert lines and all(re.match(r"<[0-7]>", line) for line in lines), lines
    assert "<6>stopping on SIGTERM" in lines, lines
    assert lines[-1] == "<6>stopped", lines


def test_a_wrong_line_in_the_configuration_stops_the_start_with_its_number(tmp_path):
    conf = tmp_path / "server.conf"
    conf.write_text("port = 8470\nprot = 8471\n")
    started = subprocess.run([str(SERVER), "--config", str(conf)], capture_output=True, text=True, timeout=60)
    assert started.returncode != 0
    assert f"{conf}, line 2: the server has no option \"prot\"" in started.stderr, started.stderr
