"""The real TeamsketchServer for the UI and network tests: one SQLite file,
a free loopback port, started, killed and started again at will, and its
JSON API called the way any client calls it."""
import json
import signal
import socket
import subprocess
import time
import uuid
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / ".build" / "debug" / "TeamsketchServer"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(port, method, path, token=None, body=None, device=None):
    """`device`: the mark a computer sends (Teamsketch-Device)."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    if device:
        request.add_header("teamsketch-device", device)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read() or b"null")


class SchoolServer:
    """TeamsketchServer on `work`/server.sqlite with one teacher."""

    def __init__(self, work, teacher="Frau Berg", password="richtig-geheim"):
        self.database = str(Path(work) / "server.sqlite")
        self.teacher, self.password = teacher, password
        self.port = free_port()
        self.log = open(Path(work) / "server.log", "a")
        self.proc = None
        subprocess.run([str(SERVER), "create-teacher", teacher, "--database", self.database],
                       input=password + "\n", text=True, check=True, capture_output=True)

    def start(self, *options):
        """`options`: more of `serve`'s command line."""
        self.proc = subprocess.Popen([str(SERVER), "serve", "--host", "127.0.0.1", "--port", str(self.port),
                                      "--database", self.database, "--no-announce", *options],
                                     stdout=self.log, stderr=self.log)
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                call(self.port, "GET", "/health")
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def sign_in(self):
        return call(self.port, "POST", "/sessions", body={"name": self.teacher, "password": self.password})

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.log.close()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"


def keep_teacher_sign_in(home, server, signed):
    """The sign-in a teacher's laptop keeps after signing in to `server`
    (the server screen's test covers signing in itself): `signed` is the
    answer of POST /sessions. Good for an hour."""
    folder = Path(home) / "config" / "teamsketch"
    folder.mkdir(parents=True, exist_ok=True)
    # Swift's JSONEncoder writes dates as seconds since 2001-01-01.
    (folder / "school.json").write_text(json.dumps({
        "server": server.url, "accountID": signed["account"]["id"], "name": signed["account"]["name"],
        "isTeacher": True, "token": signed["token"], "expiresAt": time.time() - 978307200 + 3600}))


def delete_sketch(port, token, sketch):
    """Deletes a sketch on the server as another laptop of the account
    would: a pushed `delete` change. Asserts the server took it."""
    now = int(time.time() * 1000)
    answer = call(port, "POST", "/sync/push", token, {"changes": [{
        "opId": str(uuid.uuid4()), "entity": "sketch", "entityId": sketch,
        "payload": json.dumps({"change": "delete", "at": now}), "createdAt": now}]})
    assert not answer.get("rejected"), answer
