"""A pupil's script against the real school server: many connections each
uploading megabytes without a token. Each is refused before its body is
read, so the server's memory stays within a bound (HTTPLimits: bodies
above 64 KiB only for a push, and only with a valid token)."""
import socket
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer, call  # noqa: E402

# What 40 refused uploads of 7 MiB may add to the server's resident memory.
# Reading them would have added 280 MiB (the server grew by 160 MB with 20).
MEMORY_BOUND_MB = 40


def rss_mb(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def upload(port, path, answers):
    """A 7 MiB body with no token; the status line that came back, if any."""
    size = 7 << 20
    head = (f"POST {path} HTTP/1.1\r\nHost: school\r\nContent-Type: application/json\r\n"
            f"Content-Length: {size}\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.settimeout(20)
        try:
            s.sendall(head)
            chunk = b" " * 65536
            for _ in range(size // len(chunk)):
                s.sendall(chunk)
        except OSError:
            pass  # the server answered and closed before the body was through
        try:
            answers.append(s.recv(200).split(b"\r\n")[0])
        except OSError as error:
            answers.append(repr(error).encode())


def test_uploads_without_a_token_are_refused_before_they_are_read(tmp_path):
    server = SchoolServer(tmp_path).start()
    try:
        call(server.port, "GET", "/health")
        before = rss_mb(server.proc.pid)
        answers, peak = [], [before]
        threads = [threading.Thread(target=upload, args=(server.port, path, answers))
                   for path in ["/api/v1/sync/push", "/api/v1/sessions"] * 20]
        done = threading.Event()

        def watch():
            while not done.is_set():
                peak.append(rss_mb(server.proc.pid))
                time.sleep(0.05)
        watcher = threading.Thread(target=watch)
        watcher.start()
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        done.set()
        watcher.join()
        grew = max(peak) - before
        assert grew < MEMORY_BOUND_MB, f"the server grew by {grew:.0f} MB (from {before:.0f} MB)"
        statuses = sorted(set(answers))
        assert len(answers) == 40 and all(a.startswith(b"HTTP/1.1 401") or a.startswith(b"HTTP/1.1 413") for a in answers), statuses
        assert call(server.port, "GET", "/health")["status"] == "ok"
    finally:
        server.stop()
