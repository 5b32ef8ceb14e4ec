"""Three network namespaces made for a test: the school server's and two
laptops', each laptop joined to the school's by a cable (veth) of its own.
The school's namespace does not forward, so a laptop reaches the server
and never the other laptop — Wi-Fi that keeps its clients apart."""
import json
import subprocess
import uuid

import pytest

from netsandbox import SERVER_BIN, Lines, stop_process

PORT = 8470


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


def start_server(network, tmp_path, port=PORT, teacher=True):
    """The school server in the school's namespace, on every address there;
    another process on the same database with `port` and `teacher=False`."""
    database = str(tmp_path / "server.sqlite")
    if teacher:
        subprocess.run([str(SERVER_BIN), "create-teacher", "Frau Berg", "--database", database],
                       input="richtig-geheim\n", text=True, check=True, capture_output=True)
    server = network.popen(network.school, [str(SERVER_BIN), "serve", "--host", "0.0.0.0", "--port", str(port),
                                            "--database", database, "--no-announce",
                                            "--relay-address", f"http://127.0.0.1:{port}"])
    if teacher:
        network.server = server
    for _ in range(200):
        if network.run(network.school, ["curl", "-sf", f"http://10.77.1.1:{port}/api/v1/health"]).returncode == 0:
            return server
        subprocess.run(["sleep", "0.1"])
    pytest.fail("the server did not start")


@pytest.fixture
def school(tmp_path):
    network = SchoolNetwork(tmp_path).start()
    try:
        start_server(network, tmp_path)
        yield network
    finally:
        network.stop()


def pupil_tokens(school, names, details=False):
    """A class 2b with these pupils, each signed in with their pictures:
    their tokens, or with `details` the whole answer (id, class, token)."""
    teacher = school.api("POST", "/sessions", body={"name": "Frau Berg", "password": "richtig-geheim"})["token"]
    klass = school.api("POST", "/classes", teacher, {"name": "2b"})["id"]
    tokens = {}
    for name in names:
        pupil = school.api("POST", f"/classes/{klass}/pupils", teacher, {"name": name})["id"]
        school.api("PUT", f"/pupils/{pupil}/picture-password", teacher, {"pictures": [1, 2, 3]})
        answer = school.api("POST", "/sign-in/pupil", body={"pupilId": pupil, "pictures": [1, 2, 3]})
        tokens[name] = dict(answer, classId=klass, id=pupil) if details else answer["token"]
    return tokens
