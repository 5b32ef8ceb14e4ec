"""A session through the school server's relay between two laptops that
cannot reach each other: three network namespaces made for the test, the
school server in one, each laptop in its own, joined to the school's by a
cable (veth) of its own. The school's namespace does not forward, so a
laptop reaches the server and never the other laptop. Mia's laptop hosts
and draws; on Ole's laptop one watcher joins at once and another late,
and Ole's cable is pulled for longer than a connection stays silent in
the middle. Everybody ends with all of Mia's strokes."""
import os
import shutil
import subprocess

import pytest

import schoolnet
from netsandbox import BIN
from schoolnet import PORT, pupil_tokens

school = schoolnet.school   # the fixture

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("ip") is None or shutil.which("curl") is None,
                                reason="needs root, iproute2 and curl")

STROKES = 80


def test_two_laptops_that_cannot_reach_each_other_draw_through_the_relay(school, tmp_path):
    tokens = pupil_tokens(school, ["Mia", "Ole"])
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"))
    host = school.popen(school.mia, [str(BIN), "host", "--name", "Mia", "--title", "Zoo", "--accept-all",
                                     "--start-with", "2", "--draw", str(STROKES), "--relay", f"http://10.77.1.1:{PORT}"],
                        env=dict(env, TEAMSKETCH_TOKEN=tokens["Mia"]))
    lan = host.wait_for(r"session: ([0-9a-f-]{36})", 30).group(1)
    address = host.wait_for(r"address: ([0-9.]+):(\d+)", 30)
    # Relayed under an id of its own: the LAN id is in every beacon.
    session = host.wait_for(r"relayed: \S+ as ([0-9a-f-]{36})", 30).group(1)
    assert session != lan

    # Ole's laptop cannot reach Mia's: no route through the school.
    direct = school.run(school.ole, ["curl", "-s", "--max-time", "3", f"http://10.77.1.2:{address.group(2)}/"])
    assert direct.returncode in (7, 28), f"Ole's laptop reached Mia's directly: {direct.returncode}"

    def watcher(name, *extra):
        out = tmp_path / f"{name}.teamsketch"
        lines = school.popen(school.ole, [str(BIN), "observe", "--name", name, "--relay", f"http://10.77.2.1:{PORT}",
                                          "--session", session, "--out", str(out), "--rejoin-seconds", "30", *extra],
                             env=dict(env, TEAMSKETCH_TOKEN=tokens["Ole"]))
        return lines, out

    # Ole joins as a drawer: with him the host has two and starts.
    early, early_file = watcher("Ole", "--as-drawer")
    early.wait_for(r"started", 30)
    # The cable comes out while Mia draws, long enough for both ends to
    # give the connection up (10 s of silence); back in, Ole's laptop
    # rejoins through the relay and catches up.
    school.cable(school.ole, up=False)
    subprocess.run(["sleep", "12"])
    school.cable(school.ole, up=True)
    early.wait_for(r"connection lost", 10)
    late, late_file = watcher("Ole-late")
    late.wait_for(r"started", 30)
    host.wait_for(r"drew: ", 60)
    subprocess.run(["sleep", "2"])
    host.proc.send_signal(2)
    for lines in (early, late):
        lines.wait_for(r"ended: the host ended the session", 30)
        wrote = lines.wait_for(r"wrote: .* \((\d+) strokes\)", 30)
        assert int(wrote.group(1)) == STROKES, lines.mark()
    assert early_file.exists() and late_file.exists()
    host.wait_for(r"ended: ", 30)


@pytest.mark.skipif(shutil.which("iptables") is None, reason="needs iptables")
def test_two_server_processes_behind_one_address_carry_a_session_between_them(school, tmp_path):
    """The school runs two server processes on one database behind one
    address: the school's router sends Mia's laptop to the first and Ole's
    to the second (as a load balancer may), though both laptops use the
    same server address. The session lives in the process Mia's host
    reached; Ole's joins arrive at the other, which passes them on."""
    from schoolnet import start_server
    second = start_server(school, tmp_path, port=PORT + 1, teacher=False)
    outside, _, _ = school.cables[school.ole]
    school.run(school.school, ["iptables", "-t", "nat", "-A", "PREROUTING", "-i", outside, "-p", "tcp",
                               "--dport", str(PORT), "-j", "REDIRECT", "--to-ports", str(PORT + 1)])
    tokens = pupil_tokens(school, ["Mia", "Ole"])
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"))
    host = school.popen(school.mia, [str(BIN), "host", "--name", "Mia", "--title", "Zoo", "--accept-all",
                                     "--start-with", "2", "--draw", str(STROKES), "--relay", f"http://10.77.1.1:{PORT}"],
                        env=dict(env, TEAMSKETCH_TOKEN=tokens["Mia"]))
    session = host.wait_for(r"relayed: \S+ as ([0-9a-f-]{36})", 30).group(1)

    # The second process lists the session it does not hold (its host is
    # connected to the first), as Ole's laptop sees it at the one address.
    listed = school.run(school.ole, ["curl", "-sf", "--max-time", "10", "-H", f"authorization: Bearer {tokens['Ole']}",
                                     f"http://10.77.2.1:{PORT}/relay/v1/sessions"])
    assert listed.returncode == 0 and session in listed.stdout, listed

    out = tmp_path / "ole.teamsketch"
    ole = school.popen(school.ole, [str(BIN), "observe", "--name", "Ole", "--relay", f"http://10.77.2.1:{PORT}",
                                    "--session", session, "--out", str(out), "--as-drawer"],
                       env=dict(env, TEAMSKETCH_TOKEN=tokens["Ole"]))
    ole.wait_for(r"started", 30)
    host.wait_for(r"drew: ", 60)
    subprocess.run(["sleep", "2"])
    host.proc.send_signal(2)
    ole.wait_for(r"ended: the host ended the session", 30)
    wrote = ole.wait_for(r"wrote: .* \((\d+) strokes\)", 30)
    assert int(wrote.group(1)) == STROKES, ole.mark()
    # Ole's laptop really met the second process: the router's rule counted
    # its connections there.
    rules = school.run(school.school, ["iptables", "-t", "nat", "-L", "PREROUTING", "-v", "-n", "-x"])
    packets = [int(line.split()[0]) for line in rules.stdout.splitlines() if "redir ports" in line]
    assert packets and packets[0] > 0, rules.stdout
    assert second.proc.poll() is None, "the second process stopped"
