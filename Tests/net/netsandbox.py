"""A private network for discovery tests: a network namespace whose only
interface is loopback (with the MULTICAST flag Avahi needs) and a private
/run, plus a system D-Bus and an avahi-daemon of our own in it. Nothing
touches the machine's real interfaces, bus, daemon or ports, so the tests
can run while another avahi-daemon or a real Teamsketch runs on the host."""
import os
import queue
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("TEAMSKETCH_BIN", ROOT / ".build" / "debug" / "TeamsketchDesktop"))
SERVER_BIN = Path(os.environ.get("TEAMSKETCH_SERVER_BIN", ROOT / ".build" / "debug" / "TeamsketchServer"))

DBUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""

# Loopback only, IPv4 only; nothing else on the machine is announced.
AVAHI_CONFIG = """[server]
host-name=teamsketch-test
domain-name=local
use-ipv4=yes
use-ipv6=no
allow-interfaces=lo
enable-dbus=yes
ratelimit-interval-usec=1000000
ratelimit-burst=1000
[wide-area]
enable-wide-area=no
[publish]
publish-addresses=yes
publish-hinfo=no
publish-workstation=no
publish-domain=no
publish-aaaa-on-ipv4=no
[reflector]
enable-reflector=no
"""


def namespaces_available():
    return subprocess.run(["unshare", "--net", "--mount", "true"], capture_output=True).returncode == 0


class Sandbox:
    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.bus_socket = tmp / "system_bus_socket"
        self.holder = None
        self.procs = []
        self.env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=f"unix:path={self.bus_socket}")
        self.env.pop("DBUS_SESSION_BUS_ADDRESS", None)

    # -- the namespace ---------------------------------------------------

    def start(self):
        # The holder keeps the namespaces alive; everything else joins them
        # with nsenter. A private /run gives avahi-daemon its own pid file.
        self.holder = subprocess.Popen(
            ["unshare", "--net", "--mount", "sh", "-c",
             "ip link set lo up && ip link set lo multicast on && "
             "mount -t tmpfs tmpfs /run && mkdir -p /run/avahi-daemon /run/dbus && "
             "echo ready && exec sleep 100000"],
            stdout=subprocess.PIPE, text=True)
        if self.holder.stdout.readline().strip() != "ready":
            raise RuntimeError("could not set up the network namespace")
        return self

    def stop(self):
        for p in reversed(self.procs):
            stop_process(p)
        stop_process(self.holder)

    def command(self, args):
        return ["nsenter", f"--target={self.holder.pid}", "--net", "--mount", "--"] + list(args)

    def popen(self, args, **kw):
        p = subprocess.Popen(self.command(args), env=self.env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, **kw)
        self.procs.append(p)
        return Lines(p)

    def run(self, args, timeout=30):
        return subprocess.run(self.command(args), env=self.env, capture_output=True, text=True, timeout=timeout)

    def add_multicast_route(self):
        """Without any route, sending to 224.0.0.0/4 fails (ENETUNREACH). The
        source must be given: loopback's address is host-scoped, so the kernel
        would otherwise send from 0.0.0.0."""
        self.run(["ip", "route", "add", "224.0.0.0/4", "dev", "lo", "src", "127.0.0.1"]).check_returncode()

    # -- the daemons -------------------------------------------------------

    def start_bus(self):
        config = self.tmp / "dbus.conf"
        config.write_text(DBUS_CONFIG.format(socket=self.bus_socket))
        self.bus_daemon = self.popen(["dbus-daemon", f"--config-file={config}", "--nofork", "--nopidfile"])
        wait_until(self.bus_socket.exists, 10, "the test's D-Bus did not start")

    def start_avahi(self):
        config = self.tmp / "avahi-daemon.conf"
        config.write_text(AVAHI_CONFIG)
        self.avahi_daemon = self.popen(["avahi-daemon", "--no-drop-root", "--no-chroot", "--no-rlimits",
                                 "--no-proc-title", "-f", str(config)])
        self.avahi_daemon.wait_for(r"Server startup complete", 20)

    def app(self, *args):
        return self.popen([str(BIN), *args])

    def server(self, *args):
        return self.popen([str(SERVER_BIN), *args])

    def browse(self, service_type="_teamsketch._tcp"):
        """Resolved services of a type (default: sessions) as dicts, via avahi-browse."""
        out = self.run(["avahi-browse", "-rtp", service_type]).stdout
        services = []
        for line in out.splitlines():
            f = line.split(";")
            if f[0] != "=" or len(f) < 10:
                continue
            txt = dict(kv.split("=", 1) for kv in re.findall(r'"([^"]*)"', f[9]) if "=" in kv)
            services.append({"name": decode_avahi_name(f[3]), "address": f[7], "port": int(f[8]), "txt": txt})
        return services

    def names(self, service_type="_teamsketch._tcp"):
        """Names of the services of a type Avahi lists, not resolved: a service
        being withdrawn can keep a resolver (and avahi-browse -r) waiting."""
        out = self.run(["avahi-browse", "-tp", service_type]).stdout
        return [decode_avahi_name(f[3]) for f in (line.split(";") for line in out.splitlines())
                if f[0] == "+" and len(f) >= 6]


class Lines:
    """A process's output read line by line in the background, so a test can
    wait for a line without blocking on the pipe."""

    def __init__(self, proc):
        self.proc = proc
        self.pid = proc.pid
        self.lines = []
        self.queue = queue.Queue()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        for line in self.proc.stdout:
            self.queue.put(line.rstrip("\n"))
        self.queue.put(None)

    def _next(self, timeout):
        """Reads one line into `lines`: "line", "timeout" or "eof"."""
        try:
            line = self.queue.get(timeout=timeout)
        except queue.Empty:
            return "timeout"
        if line is None:
            self.queue.put(None)
            return "eof"
        self.lines.append(line)
        return "line"

    def mark(self):
        """A position for `wait_for(..., since=)`: what was printed so far."""
        while self._next(0) == "line":
            pass
        return len(self.lines)

    def wait_for(self, pattern, timeout, since=0):
        """The first line from `since` on (already read or new) matching
        `pattern`; the timeout only stops a hang."""
        rx = re.compile(pattern)
        deadline = time.time() + timeout
        checked = since
        while True:
            for line in self.lines[checked:]:
                if m := rx.search(line):
                    return m
            checked = len(self.lines)
            remaining = deadline - time.time()
            if remaining <= 0 or self._next(min(remaining, 0.2)) == "eof":
                raise AssertionError(f"no line matching {pattern!r} in:\n" + "\n".join(self.lines))

    def finish(self, timeout=30):
        """Waits for the process to exit; returns all its output."""
        self.proc.wait(timeout=timeout)
        while self._next(5) == "line":
            pass
        return "\n".join(self.lines)

    def terminate(self):
        stop_process(self)


def stop_process(p):
    proc = p.proc if isinstance(p, Lines) else p
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def wait_until(condition, timeout, message):
    """`message` says what was awaited; a wait that runs out says how long."""
    deadline = time.time() + timeout
    while not condition():
        if time.time() > deadline:
            raise AssertionError(f"{message} (gave up after {timeout} s)")
        time.sleep(0.05)


def decode_avahi_name(name):
    """avahi-browse -p escapes bytes as \\DDD (decimal)."""
    raw = re.sub(rb"\\(\d{3})", lambda m: bytes([int(m.group(1))]), name.encode())
    return raw.decode("utf-8", "replace")


def tools_missing():
    return [t for t in ("dbus-daemon", "avahi-daemon", "avahi-browse", "avahi-publish", "ip", "nsenter", "unshare")
            if shutil.which(t) is None]
