"""HTTP/1.0 clients (text browsers such as w3m and lynx) read an answer
until the server closes the connection: the school server must close it
after answering a 1.0 request that did not ask to keep it open, and keep
it open when it did (and for HTTP/1.1)."""
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SchoolServer  # noqa: E402


def exchange(port, request):
    """Sends the request; what came back, and whether the server closed."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.settimeout(3)
        s.sendall(request)
        data = b""
        try:
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    return data, True
                data += chunk
        except socket.timeout:
            return data, False


def test_an_http10_request_is_answered_and_the_connection_closed(tmp_path):
    server = SchoolServer(tmp_path).start()
    try:
        data, closed = exchange(server.port, b"GET /api/v1/health HTTP/1.0\r\nHost: x\r\n\r\n")
        assert data.startswith(b"HTTP/1.1 200") and b'"ok"' in data, data
        assert closed, "the server kept an HTTP/1.0 connection open: a 1.0 client waits for ever"
        data, closed = exchange(server.port, b"GET /gallery/signin HTTP/1.0\r\nHost: x\r\n\r\n")
        assert b"<!DOCTYPE html>" in data and closed
        data, closed = exchange(server.port,
                                b"GET /api/v1/health HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\n\r\n")
        assert data.startswith(b"HTTP/1.1 200") and not closed, "a 1.0 client that asked to keep it open"
        data, closed = exchange(server.port, b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert data.startswith(b"HTTP/1.1 200") and not closed
    finally:
        server.stop()
