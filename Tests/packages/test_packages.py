"""`make deb`'s packages on a clean Debian 12: debootstrap makes a minimal
bookworm root, `apt-get install ./teamsketch-*.deb` installs both with what
they depend on, the server runs as its systemd unit would run it (the
unit's own ExecStart, an unprivileged user of its own, the state folder
systemd makes for DynamicUser=, the credential, the notify socket), the
desktop opens from /usr/bin under Xvfb, and after `apt-get purge` and
`autoremove --purge` the root holds what it held before: nothing is left.

PID 1 here is not systemd, so the unit's sandbox itself is checked by
Tests/net/test_server_service.py (systemd-analyze); what this test adds is
that the installed files fit together. Needs root (chroot, mounts)."""
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import ROOT, call, free_port  # noqa: E402

DEBS = sorted((ROOT / ".build" / "deb").glob("teamsketch-*.deb"))
SHOTS = ROOT / "Tests" / "ui" / "out"
MIRROR = "http://deb.debian.org/debian"
SERVICE_UID = 61234  # as DynamicUser= picks one, from 61184–65519
PUPIL_UID = 61300
# What Debian's own packages leave after they are purged: systemd, which
# GTK's dependencies bring, made these (systemd-tmpfiles, machine-id,
# /etc/mtab) and its purge keeps them; adding its system users left the
# shadow files' backups. None is ours; anything else left fails the test.
DEPENDENCY_RESIDUE = {"etc/gshadow-", "etc/shadow-", "etc/machine-id", "etc/mtab", "root/.ssh",
                      "var/lib/systemd/coredump", "var/lib/systemd/pstore"}
# Paths apt, dpkg and the mounts change whatever is installed.
VOLATILE = ("proc", "dev", "sys", "tmp", "run", "var/cache", "var/lib/apt", "var/lib/dpkg", "var/log",
            "etc/ld.so.cache")


def run(*command, check=True, **kwargs):
    return subprocess.run(command, check=check, capture_output=True, text=True, **kwargs)


def in_root(root, *command, user=None, env=None, **kwargs):
    spec = [f"--userspec={user}:{user}"] if user else []
    environment = ["env", "-i", "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "DEBIAN_FRONTEND=noninteractive",
                   *[f"{k}={v}" for k, v in (env or {}).items()]]
    return ["chroot", *spec, str(root), *environment, *command]


def files(root):
    """Every path below root but the volatile ones, with what it is."""
    found = {}
    for folder, dirs, names in os.walk(root):
        relative = os.path.relpath(folder, root)
        dirs[:] = [d for d in dirs if not os.path.normpath(os.path.join(relative, d)).startswith(VOLATILE)]
        for name in dirs + names:
            path = os.path.normpath(os.path.join(relative, name))
            if not path.startswith(VOLATILE):
                found[path] = "l" if os.path.islink(os.path.join(folder, name)) else "d" if name in dirs else "f"
    return found


@pytest.fixture
def debian(tmp_path):
    assert len(DEBS) == 2, f"run scripts/deb.sh first: {DEBS}"
    root = tmp_path / "bookworm"
    made = run("debootstrap", "--variant=minbase", "bookworm", str(root), MIRROR, check=False)
    assert made.returncode == 0, made.stdout[-2000:] + made.stderr[-2000:]
    # As in any chroot: packages do not start services here.
    (root / "usr/sbin/policy-rc.d").write_text("#!/bin/sh\nexit 101\n")
    (root / "usr/sbin/policy-rc.d").chmod(0o755)
    mounts = []
    Path("/tmp/.X11-unix").mkdir(mode=0o1777, exist_ok=True)
    for source, target, options in [("proc", "proc", ["-t", "proc"]), ("/dev", "dev", ["--bind"]),
                                    ("/tmp/.X11-unix", "tmp/.X11-unix", ["--bind"])]:
        (root / target).mkdir(parents=True, exist_ok=True)
        run("mount", *options, source, str(root / target))
        mounts.append(root / target)
    try:
        yield root
    finally:
        for mount in reversed(mounts):
            subprocess.run(["umount", "-l", str(mount)])
        # Never into a mount that is still there: it is the host's /dev.
        if not any(os.path.ismount(mount) for mount in mounts):
            shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def display():
    Path("/tmp/.X11-unix").mkdir(mode=0o1777, exist_ok=True)
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            pass_fds=[write], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    assert number, "Xvfb did not start"
    yield f":{number}"
    xvfb.terminate()
    xvfb.wait(10)


def test_both_packages_install_run_and_purge_without_a_trace(debian, display, tmp_path):
    root = debian
    before = files(root)
    for deb in DEBS:
        shutil.copy(deb, root / "tmp")
    updated = subprocess.run(in_root(root, "apt-get", "update", "-q"), capture_output=True, text=True)
    assert updated.returncode == 0, updated.stdout + updated.stderr
    installed = subprocess.run(in_root(root, "apt-get", "install", "-y", "-q", "--no-install-recommends",
                                       *[f"/tmp/{deb.name}" for deb in DEBS]), capture_output=True, text=True)
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr
    assert (root / "usr/bin/TeamsketchServer").exists() and (root / "usr/bin/TeamsketchDesktop").exists()
    assert (root / "etc/teamsketch/pgpassword").stat().st_mode & 0o777 == 0o600
    # Neither program needs the Swift toolchain, which this root has not.
    for program in ("TeamsketchServer", "TeamsketchDesktop"):
        linked = subprocess.run(in_root(root, "ldd", f"/usr/bin/{program}"), capture_output=True, text=True)
        assert "not found" not in linked.stdout and "swift" not in linked.stdout, linked.stdout

    serve_as_the_unit_would(root, tmp_path)
    open_the_desktop(root, display, tmp_path)

    purged = subprocess.run(in_root(root, "apt-get", "purge", "-y", "-q", "teamsketch-desktop", "teamsketch-server"),
                            capture_output=True, text=True)
    assert purged.returncode == 0, purged.stdout[-3000:] + purged.stderr
    removed = subprocess.run(in_root(root, "apt-get", "autoremove", "--purge", "-y", "-q"), capture_output=True, text=True)
    assert removed.returncode == 0, removed.stdout[-3000:] + removed.stderr
    for deb in DEBS:
        (root / "tmp" / deb.name).unlink()
    after = files(root)
    left = sorted(set(after) - set(before) - DEPENDENCY_RESIDUE)
    assert not left, "left: " + " ".join(left)
    traces = [path for path in files(root) if "teamsketch" in path.lower()]
    dpkg = [p.name for p in (root / "var/lib/dpkg/info").glob("teamsketch*")]
    assert not traces and not dpkg, traces + dpkg


class Service:
    """The server as its unit starts it: the unit's own ExecStart, the
    user DynamicUser= would pick, WorkingDirectory= and UMask=, the
    credential and the notify socket."""

    def __init__(self, root, exec_start, tmp_path):
        self.root, self.exec_start, self.tmp_path = root, exec_start, tmp_path
        self.port = free_port()

    def __enter__(self):
        self.notify_path = self.root / "run/notify"
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(str(self.notify_path))
        os.chmod(self.notify_path, 0o777)
        self.notify.settimeout(60)
        environment = {"NOTIFY_SOCKET": "/run/notify",
                       "CREDENTIALS_DIRECTORY": "/run/credentials/teamsketch-server.service"}
        command = "cd /var/lib/teamsketch-server && umask 077 && exec " + " ".join(self.exec_start) \
            + f" --port {self.port} --no-announce"
        self.log = open(self.tmp_path / "server.log", "a")
        self.proc = subprocess.Popen(in_root(self.root, "sh", "-c", command, user=SERVICE_UID, env=environment),
                                     stdout=self.log, stderr=self.log)
        assert "READY=1" in self.notify.recv(4096).decode().splitlines()
        return self

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        assert self.notify.recv(4096).decode() == "STOPPING=1"
        assert self.proc.wait(30) == 0, (self.tmp_path / "server.log").read_text()

    def __exit__(self, *failure):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.notify.close()
        self.notify_path.unlink()
        self.log.close()


def as_root(root, *arguments, **kwargs):
    """A command as the administrator types it, with the unit's configuration."""
    return subprocess.run(in_root(root, "/usr/bin/TeamsketchServer", *arguments, "--config", "/etc/teamsketch/server.conf"),
                          capture_output=True, text=True, **kwargs)


def serve_as_the_unit_would(root, tmp_path):
    """Start, make a teacher and sign in, stop; then back up, restore and
    start again, every command as root, as docs/OPERATIONS.md says."""
    unit = (root / "lib/systemd/system/teamsketch-server.service").read_text()
    exec_start = re.search(r"^ExecStart=(.+)$", unit, re.M).group(1).split()
    assert re.search(r"^StateDirectory=teamsketch-server$", unit, re.M)
    assert re.search(r"^LoadCredential=pgpassword:/etc/teamsketch/pgpassword$", unit, re.M)
    # What systemd makes for DynamicUser= and StateDirectory= (the private
    # folder, 0700 outside, is open inside the service's namespace), and
    # the credential it copies.
    state = root / "var/lib/private/teamsketch-server"
    state.mkdir(parents=True)
    os.chmod(root / "var/lib/private", 0o755)
    os.chown(state, SERVICE_UID, SERVICE_UID)
    state.chmod(0o700)
    (root / "var/lib/teamsketch-server").symlink_to("private/teamsketch-server")
    credentials = root / "run/credentials/teamsketch-server.service"
    credentials.mkdir(parents=True)
    shutil.copy(root / "etc/teamsketch/pgpassword", credentials / "pgpassword")
    os.chown(credentials / "pgpassword", SERVICE_UID, SERVICE_UID)
    database = state / "teamsketch.sqlite"

    with Service(root, exec_start, tmp_path) as service:
        # The server made its database, private to it.
        assert database.stat().st_uid == SERVICE_UID and database.stat().st_mode & 0o077 == 0
        made = as_root(root, "create-teacher", "Frau Berg", input="richtig-geheim\n")
        assert made.returncode == 0, made.stderr
        signed = call(service.port, "POST", "/sessions", body={"name": "Frau Berg", "password": "richtig-geheim"})
        assert signed["account"]["name"] == "Frau Berg"
        # root's command left nothing the server could not write.
        assert all(path.stat().st_uid == SERVICE_UID for path in state.iterdir()), list(state.iterdir())
        backup = as_root(root, "backup", "/root/nightly.sqlite")
        assert backup.returncode == 0, backup.stderr
        service.stop()

    database.rename(state / "teamsketch.sqlite.old")
    restored = as_root(root, "restore", "/root/nightly.sqlite")
    assert restored.returncode == 0, restored.stderr
    (root / "root/nightly.sqlite").unlink()
    with Service(root, exec_start, tmp_path) as service:
        # Signing in writes (a token): the restored file is the server's.
        signed = call(service.port, "POST", "/sessions", body={"name": "Frau Berg", "password": "richtig-geheim"})
        assert signed["account"]["name"] == "Frau Berg"
        service.stop()
    # Left as systemd would leave them after the stop: the purge must
    # take the school's data with it.
    shutil.rmtree(root / "run/credentials")


def open_the_desktop(root, display, tmp_path):
    home = root / "tmp/pupil"
    home.mkdir()
    os.chown(home, PUPIL_UID, PUPIL_UID)
    log = tmp_path / "app.log"
    env = {"DISPLAY": display, "HOME": "/tmp/pupil", "XDG_RUNTIME_DIR": "/tmp/pupil", "LANG": "C.UTF-8"}
    with open(log, "w") as output:
        app = subprocess.Popen(in_root(root, "/usr/bin/TeamsketchDesktop", user=PUPIL_UID, env=env),
                               stdout=output, stderr=output)
        try:
            deadline = time.time() + 60
            found = ""
            while time.time() < deadline and not found:
                found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "Teamsketch"],
                                       capture_output=True, text=True, env=dict(os.environ, DISPLAY=display)).stdout
                assert app.poll() is None, log.read_text()
                time.sleep(0.5)
            assert found, "no Teamsketch window: " + log.read_text()
            time.sleep(2)  # the first frame painted
            SHOTS.mkdir(parents=True, exist_ok=True)
            shot = SHOTS / "installed-desktop.png"
            run("import", "-display", display, "-window", "root", str(shot))
            picture = Image.open(shot).convert("RGB")
            # The first-run screen as the app's style sheet paints it (found
            # in /usr/share/teamsketch): the warm paper background and the
            # big blue "belongs to a class" button, not GTK's bare defaults.
            paper = sum(1 for p in picture.getdata() if p == (251, 248, 242))
            blue = sum(1 for p in picture.getdata() if all(abs(a - b) < 24 for a, b in zip(p, (52, 131, 228))))
            assert paper > 400_000 and blue > 40_000, f"paper {paper}, blue {blue} in {shot}"
        finally:
            app.terminate()
            try:
                app.wait(10)
            except subprocess.TimeoutExpired:
                app.kill()
                app.wait()
    shutil.rmtree(home)
