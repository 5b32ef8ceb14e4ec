"""Backing up and restoring the real TeamsketchServer's SQLite database as
docs/OPERATIONS.md says: `backup FILE` while the server runs and a teacher
keeps pushing, then the server stopped, `restore FILE` into a new place
and a server started on it, which signs the teacher in and has the
pupils of the moment of the backup. A restore never overwrites."""
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import SERVER, SchoolServer, call  # noqa: E402


def enrol(port, token, klass, stop, added):
    """Adds pupils to the class one after the other, as a teacher typing
    in a class list would, until `stop` is set (at most the class's 100)."""
    while not stop.is_set() and len(added) < 90:
        name = f"Kind {len(added) + 1}"
        call(port, "POST", f"/classes/{klass}/pupils", token, {"name": name})
        added.append(name)


def tool(*args):
    return subprocess.run([str(SERVER), *args], capture_output=True, text=True, timeout=120)


def test_a_backup_made_while_the_server_works_restores_into_a_new_server(tmp_path):
    server = SchoolServer(tmp_path).start()
    backup = tmp_path / "nightly.sqlite"
    try:
        teacher = server.sign_in()["token"]
        klass = call(server.port, "POST", "/classes", teacher, {"name": "2b"})["id"]
        stop, added = threading.Event(), []
        pusher = threading.Thread(target=enrol, args=(server.port, teacher, klass, stop, added))
        pusher.start()
        try:
            while len(added) < 10:
                time.sleep(0.05)
            made = tool("backup", str(backup), "--database", server.database)
            assert made.returncode == 0, made.stderr
            assert "Backed up" in made.stdout
        finally:
            stop.set()
            pusher.join(30)
        # Nothing is overwritten: not the backup, not a database.
        again = tool("backup", str(backup), "--database", server.database)
        assert again.returncode != 0 and "already exists" in again.stderr
        refused = tool("restore", str(backup), "--database", server.database)
        assert refused.returncode != 0 and "already exists" in refused.stderr
    finally:
        server.stop()

    moved = tmp_path / "restored" / "teamsketch.sqlite"
    restored = tool("restore", str(backup), "--database", str(moved))
    assert restored.returncode == 0, restored.stderr
    server.database = str(moved)
    server.log = open(tmp_path / "restored.log", "a")
    server.start()
    try:
        teacher = server.sign_in()["token"]
        classes = call(server.port, "GET", "/classes", teacher)
        assert [c["name"] for c in classes] == ["2b"]
        pupils = [p["name"] for p in call(server.port, "GET", f"/classes/{klass}/pupils", teacher)]
        # The class as it was at one moment: the first pupils, none missing.
        assert 10 <= len(pupils) <= len(added)
        assert sorted(pupils) == sorted(added[:len(pupils)])
    finally:
        server.stop()
