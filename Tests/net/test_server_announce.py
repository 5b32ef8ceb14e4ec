"""The school server's DNS-SD announcement (`_teamsketch-server._tcp`)
against a real avahi-daemon in a private network namespace (netsandbox.py):
the real TeamsketchServer announces itself, avahi-browse and the desktop's
`find-servers` find it, `--no-announce` hides it, and without Avahi the
server warns once and serves anyway, announcing as soon as the daemon is
there.

Waits have generous limits that only stop a hang; nothing is judged by time."""
import os
import subprocess
import time

import pytest

from netsandbox import BIN, SERVER_BIN, Sandbox, namespaces_available, tools_missing, wait_until

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="needs root for namespaces, D-Bus and avahi-daemon"),
    pytest.mark.skipif(bool(tools_missing()), reason=f"missing: {' '.join(tools_missing())} (scripts/deps.sh test)"),
    pytest.mark.skipif(not BIN.exists(), reason=f"{BIN} not built"),
    pytest.mark.skipif(not SERVER_BIN.exists(), reason=f"{SERVER_BIN} not built"),
    pytest.mark.skipif(os.geteuid() == 0 and not namespaces_available(),
                       reason="cannot create network namespaces (container without CAP_SYS_ADMIN?)"),
]

LIMIT = 30  # seconds; only against hangs
SERVICE = "_teamsketch-server._tcp"
# The sandbox's avahi-daemon calls its host "teamsketch-test".
NAME = "Teamsketch server on teamsketch-test"


@pytest.fixture
def net(tmp_path):
    sandbox = Sandbox(tmp_path).start()
    yield sandbox
    sandbox.stop()


@pytest.fixture
def avahi(net):
    net.start_bus()
    net.start_avahi()
    return net


def serve(net, data, *extra):
    """Starts the real server on a free port (0: the kernel picks one, so the
    announcement must carry the port actually bound); returns it and the port."""
    server = net.server("serve", "--port", "0", "--data-dir", str(data), *extra)
    m = server.wait_for(r"listening on https?://[^ ]*:(\d+)/api/v1", LIMIT)
    return server, int(m.group(1))


def health(net, port, scheme="http"):
    r = net.run(["curl", "-sS", "-k", "-o", "/dev/null", "-w", "%{http_code}",
                 f"{scheme}://127.0.0.1:{port}/api/v1/health"])
    return r.stdout.strip()


def servers_seen(net):
    return [s for s in net.browse(SERVICE)]


def find_servers(net, seconds=5):
    return net.app("find-servers", "--seconds", str(seconds)).finish(timeout=LIMIT + seconds)


def warnings(server):
    server.mark()
    return [line for line in server.lines if " warning " in line]


def test_the_server_is_announced_and_found_by_the_desktop(avahi, tmp_path):
    server, port = serve(avahi, tmp_path / "data")
    line = server.wait_for(r"Announced on the LAN as \"" + NAME + r"\".*", LIMIT).group(0)
    assert "only" not in line  # listening everywhere, announced everywhere

    seen = servers_seen(avahi)
    assert len(seen) == 1, seen
    s = seen[0]
    assert s["name"] == NAME
    assert (s["address"], s["port"]) == ("127.0.0.1", port)
    assert s["txt"] == {"path": "/api/v1", "tls": "0", "v": "1"}

    out = find_servers(avahi)
    assert f"http://127.0.0.1:{port}/api/v1 {NAME}" in out.splitlines(), out

    # Stopping withdraws it: mDNS goodbye (records kept one more second, as
    # RFC 6762 says), so nobody waits for the 75-minute TTL.
    server.terminate()
    assert "Withdrew the server's announcement" in server.finish()
    wait_until(lambda: avahi.names(SERVICE) == [], LIMIT, "the server is still announced after it stopped")


def test_a_server_bound_to_loopback_is_announced_on_loopback(avahi, tmp_path):
    # Bound to one address, the server is announced only on that address's
    # interface; here that is lo, the only one the sandbox has.
    server, port = serve(avahi, tmp_path / "data", "--host", "127.0.0.1")
    server.wait_for(r"Announced on the LAN as .*, on lo only\)", LIMIT)
    assert [(s["address"], s["port"]) for s in servers_seen(avahi)] == [("127.0.0.1", port)]


def test_no_announce_keeps_the_server_off_the_lan(avahi, tmp_path):
    server, port = serve(avahi, tmp_path / "data", "--no-announce")
    assert health(avahi, port) == "200"
    out = find_servers(avahi, seconds=3)
    assert "/api/v1" not in out, out
    assert servers_seen(avahi) == []
    assert warnings(server) == []


def test_two_servers_get_two_names_and_tls_is_announced(avahi, tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost", "-days", "1"],
                   check=True, capture_output=True)
    first, plain_port = serve(avahi, tmp_path / "one")
    first.wait_for(r"Announced on the LAN", LIMIT)
    second, tls_port = serve(avahi, tmp_path / "two", "--tls-certificate", str(cert), "--tls-key", str(key))
    # Same host, same name: Avahi's alternative name.
    second.wait_for(r"Announced on the LAN as \"" + NAME + r" #2\"", LIMIT)

    by_port = {s["port"]: s for s in servers_seen(avahi)}
    assert by_port[plain_port]["name"] == NAME and by_port[plain_port]["txt"]["tls"] == "0"
    assert by_port[tls_port]["name"] == NAME + " #2" and by_port[tls_port]["txt"]["tls"] == "1"
    assert health(avahi, tls_port, "https") == "200"

    lines = find_servers(avahi).splitlines()
    assert f"http://127.0.0.1:{plain_port}/api/v1 {NAME}" in lines, lines
    assert f"https://127.0.0.1:{tls_port}/api/v1 {NAME} #2" in lines, lines


def test_hostile_records_of_the_server_type_are_not_listed(avahi, tmp_path):
    for name, port, txt in [("Bad path", "8001", ["path=//evil.example/x", "tls=0", "v=1"]),
                            ("Bad tls", "8002", ["path=/api/v1", "tls=maybe", "v=1"]),
                            ("Future", "8003", ["path=/api/v1", "tls=0", "v=9"]),
                            ("No records", "8004", [])]:
        avahi.popen(["avahi-publish", "-s", name, SERVICE, port, *txt]).wait_for(r"Established under name", LIMIT)
    avahi.popen(["avahi-publish", "-s", "Good", SERVICE, "8005", "path=/api/v1", "tls=1", "v=1"]) \
        .wait_for(r"Established under name", LIMIT)
    lines = [line for line in find_servers(avahi).splitlines() if "/api" in line or "://" in line]
    assert lines == ["https://127.0.0.1:8005/api/v1 Good"], lines


@pytest.mark.parametrize("bus", [False, True], ids=["no-bus", "bus-without-avahi"])
def test_without_avahi_the_server_warns_once_and_serves(net, tmp_path, bus):
    if bus:
        net.start_bus()
    server, port = serve(net, tmp_path / "data")
    server.wait_for(r" warning .*Not announcing the server on the LAN", LIMIT)
    assert health(net, port) == "200"
    # Long enough for a few retries (every 2 s without a bus); they stay quiet.
    time.sleep(5)
    assert len(warnings(server)) == 1, server.lines
    assert health(net, port) == "200"


def test_the_server_announces_when_the_daemon_comes_back(net, tmp_path):
    net.start_bus()
    server, port = serve(net, tmp_path / "data")
    server.wait_for(r" warning .*avahi-daemon is not running", LIMIT)

    net.start_avahi()
    server.wait_for(r"Announced on the LAN as", LIMIT)
    assert [s["port"] for s in servers_seen(net)] == [port]

    # And again after the daemon restarts under it.
    said = server.mark()
    net.avahi_daemon.terminate()
    server.wait_for(r" warning .*avahi-daemon is not running", LIMIT, since=said)
    net.start_avahi()
    server.wait_for(r"Announced on the LAN as", LIMIT, since=said)
    assert f"http://127.0.0.1:{port}/api/v1 {NAME}" in find_servers(net).splitlines()
    assert health(net, port) == "200"
