"""A session through the school server's relay between two laptops that
cannot reach each other: three network namespaces made for the test, the
school server in one, each laptop in its own, joined to the school's by a
cable (veth) of its own. The school's namespace does not forward, so a
laptop reaches the server and never the other laptop. Mia's laptop hosts
and draws; on Ole's laptop one watcher joins at once and another late,
and Ole's cable is pulled for longer than a connection stays silent in
the middle. Everybody ends with all of Mia's strokes."""
import json
import os
import shutil
import subprocess
import uuid

import pytest

from netsandbox import BIN, SERVER_BIN, Lines, stop_process

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("ip") is None or shutil.which("curl") is None,
                                reason="needs root, iproute2 and curl")

PORT = 8470
STROKES = 80


def sh(*args):
    subprocess.run(args, check=True, capture_output=True, text=True, timeout=30)


class SchoolNetwork:
    def __init__(self, tmp):
        tag = uuid.uuid4().hex[:6]
        self.tmp = tmp
        self.school, self.mia, self.ole = f"tss{tag}", f"tsa{tag}", f"tsb{tag}"
        self.cables = {self.mia: (f"vsa{tag}", f"vla{tag}", 1), self.ole: (f"vsb{tag}", f"vlb{tag}", 2)}
        self.procs = []

    def start(self):
        for ns in (self.school, self.mia, self.ole):
            sh("ip", "netns", "add", ns)
            sh("ip", "-n", ns, "link", "set", "lo", "up")
        sh("ip", "netns", "exec", self.school, "sysctl", "-qw", "net.ipv4.ip_forward=0")
        for laptop, (outside, inside, net) in self.cables.items():
            sh("ip", "link", "add", outside, "netns", self.school, "type", "veth", "peer", "name", inside, "netns", laptop)
            sh("ip", "-n", self.school, "addr", "add", f"10.77.{net}.1/24", "dev", outside)
            sh("ip", "-n", laptop, "addr", "add", f"10.77.{net}.2/24", "dev", inside)
            sh("ip", "-n", self.school, "link", "set", outside, "up")
            sh("ip", "-n", laptop, "link", "set", inside, "up")
            sh("ip", "-n", laptop, "route", "add", "default", "via", f"10.77.{net}.1")
        return self

    def stop(self):
        for p in reversed(self.procs):
            stop_process(p)
        for ns in (self.school, self.mia, self.ole):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)

    def run(self, ns, args, **kw):
        return subprocess.run(["ip", "netns", "exec", ns, *args], capture_output=True, text=True, timeout=60, **kw)

    def popen(self, ns, args, env=None):
        p = subprocess.Popen(["ip", "netns", "exec", ns, *args], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        self.procs.append(p)
        return Lines(p)

    def api(self, method, path, token=None, body=None):
        args = ["curl", "-sS", "--max-time", "20", "-X", method, f"http://10.77.1.1:{PORT}/api/v1{path}",
                "-H", "content-type: application/json"]
        if token:
            args += ["-H", f"authorization: Bearer {token}"]
        if body is not None:
            args += ["--data", json.dumps(body)]
        answer = self.run(self.school, args)
        assert answer.returncode == 0, answer.stderr
        return json.loads(answer.stdout or "null")

    def cable(self, laptop, up):
        _, inside, net = self.cables[laptop]
        sh("ip", "-n", laptop, "link", "set", inside, "up" if up else "down")
        if up:
            subprocess.run(["ip", "-n", laptop, "route", "replace", "default", "via", f"10.77.{net}.1"],
                           capture_output=True)


@pytest.fixture
def school(tmp_path):
    network = SchoolNetwork(tmp_path).start()
    try:
        database = str(tmp_path / "server.sqlite")
        subprocess.run([str(SERVER_BIN), "create-teacher", "Frau Berg", "--database", database],
                       input="richtig-geheim\n", text=True, check=True, capture_output=True)
        server = network.popen(network.school, [str(SERVER_BIN), "serve", "--host", "0.0.0.0", "--port", str(PORT),
                                                "--database", database, "--no-announce"])
        for _ in range(200):
            if network.run(network.school, ["curl", "-sf", f"http://10.77.1.1:{PORT}/api/v1/health"]).returncode == 0:
                break
            subprocess.run(["sleep", "0.1"])
        else:
            pytest.fail("the server did not start")
        network.server = server
        yield network
    finally:
        network.stop()


def pupil_tokens(school, names):
    teacher = school.api("POST", "/sessions", body={"name": "Frau Berg", "password": "richtig-geheim"})["token"]
    klass = school.api("POST", "/classes", teacher, {"name": "2b"})["id"]
    tokens = {}
    for name in names:
        pupil = school.api("POST", f"/classes/{klass}/pupils", teacher, {"name": name})["id"]
        school.api("PUT", f"/pupils/{pupil}/picture-password", teacher, {"pictures": [1, 2, 3]})
        tokens[name] = school.api("POST", "/sign-in/pupil", body={"pupilId": pupil, "pictures": [1, 2, 3]})["token"]
    return tokens


def test_two_laptops_that_cannot_reach_each_other_draw_through_the_relay(school, tmp_path):
    tokens = pupil_tokens(school, ["Mia", "Ole"])
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"))
    host = school.popen(school.mia, [str(BIN), "host", "--name", "Mia", "--title", "Zoo", "--accept-all",
                                     "--start-with", "2", "--draw", str(STROKES), "--relay", f"http://10.77.1.1:{PORT}"],
                        env=dict(env, TEAMSKETCH_TOKEN=tokens["Mia"]))
    session = host.wait_for(r"session: ([0-9a-f-]{36})", 30).group(1)
    address = host.wait_for(r"address: ([0-9.]+):(\d+)", 30)
    host.wait_for(r"relayed: ", 30)

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
