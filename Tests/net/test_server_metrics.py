"""The real TeamsketchServer's metrics page, as a school's IT reads it:
`--metrics-token-file` opens GET /metrics to that token's bearer (curl,
as Prometheus would), every family is there, and the figures move when a
device pushes. A token too short to be a secret stops the server at
start with a message."""
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SERVER, SchoolServer, call  # noqa: E402

FAMILIES = ["teamsketch_http_requests_total", "teamsketch_http_request_duration_seconds",
            "teamsketch_pushes_total", "teamsketch_pulls_total", "teamsketch_ops_stored_total",
            "teamsketch_ops_refused_total", "teamsketch_sign_in_failures_total", "teamsketch_relay_sessions",
            "teamsketch_relay_members", "teamsketch_render_drawing", "teamsketch_render_queue_length",
            "teamsketch_database_in_use"]


def curl(port, token=None):
    """(HTTP status, body) of GET /metrics."""
    command = ["curl", "-s", "-o", "-", "-w", "\n%{http_code}", f"http://127.0.0.1:{port}/metrics"]
    if token:
        command[1:1] = ["-H", f"Authorization: Bearer {token}"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=30, check=True).stdout
    body, _, status = out.rpartition("\n")
    return int(status), body


def samples(body):
    values = {}
    for line in body.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            values[name] = float(value)
    return values


def test_the_metrics_page_shows_every_family_and_moves_with_a_push(tmp_path):
    token_file = tmp_path / "metrics-token"
    token = uuid.uuid4().hex
    token_file.write_text(token + "\n")
    server = SchoolServer(tmp_path).start("--metrics-token-file", str(token_file))
    try:
        assert curl(server.port)[0] == 401
        teacher = server.sign_in()["token"]
        assert curl(server.port, teacher)[0] == 401, "a teacher's sign-in does not open it"
        status, before = curl(server.port, token)
        assert status == 200
        # A family is listed by its TYPE line once anything was recorded,
        # or from the start for what is read when the page is asked for.
        for family in ["teamsketch_relay_sessions", "teamsketch_database_in_use", "teamsketch_render_queue_length"]:
            assert re.search(rf"^# TYPE {family} gauge$", before, re.M), family

        now = int(time.time() * 1000)
        answer = call(server.port, "POST", "/sync/push", teacher, {"changes": [{
            "opId": str(uuid.uuid4()), "entity": "sketch", "entityId": str(uuid.uuid4()),
            "payload": '{"change": "delete", "at": %d}' % now, "createdAt": now}]})
        call(server.port, "GET", "/sync/changes?after=0", teacher)
        try:
            call(server.port, "POST", "/sessions", body={"name": server.teacher, "password": "falsch"})
        except OSError:
            pass
        status, after = curl(server.port, token)
        assert status == 200
        for family in FAMILIES:
            assert re.search(rf"^# TYPE {family} ", after, re.M), family
        b, a = samples(before), samples(after)
        assert a["teamsketch_pushes_total"] - b.get("teamsketch_pushes_total", 0) == 1
        stored = len(answer["accepted"])
        assert a.get("teamsketch_ops_stored_total", 0) - b.get("teamsketch_ops_stored_total", 0) == stored
        assert a.get("teamsketch_ops_refused_total", 0) - b.get("teamsketch_ops_refused_total", 0) == 1 - stored
        assert a["teamsketch_pulls_total"] - b.get("teamsketch_pulls_total", 0) == 1
        assert a['teamsketch_sign_in_failures_total{reason="wrong"}'] == 1
        push = 'teamsketch_http_requests_total{route="/api/v1/sync/push",method="POST",status="200"}'
        assert a[push] == 1
    finally:
        server.stop()


def test_a_token_too_short_stops_the_server_with_a_message(tmp_path):
    token_file = tmp_path / "metrics-token"
    token_file.write_text("geheim\n")
    SchoolServer(tmp_path)  # its database, with a teacher
    started = subprocess.run([str(SERVER), "serve", "--host", "127.0.0.1", "--port", "0", "--no-announce",
                              "--database", str(tmp_path / "server.sqlite"), "--metrics-token-file", str(token_file)],
                             capture_output=True, text=True, timeout=60)
    assert started.returncode != 0
    assert "at least 16 characters" in started.stderr
