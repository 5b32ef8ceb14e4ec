"""Sync survives processes dying half-way, tested with the real programs:
the school server killed during a push loses and doubles nothing, and a
device killed during a pull resumes from its cursor."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from school_server import ROOT, SchoolServer, call  # noqa: E402

DESKTOP = ROOT / ".build" / "debug" / "TeamsketchDesktop"
# The developers' tools beside it: `generate` writes the test sketches.
TOOLS = ROOT / ".build" / "debug" / "TeamsketchTools"
OPS = 12000


@pytest.fixture
def world(tmp_path):
    # tmp_path, kept by pytest, so a failure leaves the server's log.
    work = tmp_path
    server = SchoolServer(work).start()
    signed_in = server.sign_in()
    env = dict(os.environ, TEAMSKETCH_TOKEN=signed_in["token"], XDG_DATA_HOME=str(work / "data"),
               XDG_CONFIG_HOME=str(work / "config"))
    try:
        yield work, server, env, signed_in
    finally:
        server.stop()


def sync(store, server, env, account):
    return subprocess.Popen([str(DESKTOP), "sync", "--store", str(store), "--server", server.url,
                             "--account", account], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def finished(proc):
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


def server_op_count(server, token):
    sketches = call(server.port, "GET", "/sketches", token=token)
    assert len(sketches) == 1
    return sketches[0]["opCount"]


def seed_store(work, env):
    store = work / "a.sqlite"
    subprocess.run([str(TOOLS), "generate", "--strokes", str(OPS), "--points", "12", "--seed", "7",
                    "--store", str(store), str(work / "seed.teamsketch")], env=env, check=True)
    return store


def test_a_server_killed_during_a_push_loses_and_doubles_nothing(world):
    work, server, env, signed_in = world
    store = seed_store(work, env)
    account = signed_in["account"]["id"]
    pushing = sync(store, server, env, account)
    # Kill the server once some batches are in, before all of them are.
    deadline = time.time() + 60
    while time.time() < deadline:
        sketches = call(server.port, "GET", "/sketches", token=signed_in["token"])
        if sketches and sketches[0]["opCount"] > 0:
            break
        time.sleep(0.01)
    server.kill()
    _, err = pushing.communicate(timeout=120)
    assert pushing.returncode != 0, "the push should have failed with the server gone"
    server.start()
    partial = server_op_count(server, signed_in["token"])
    assert 0 < partial < OPS, f"the kill came too late or too early: {partial} of {OPS}"
    # The device tries again: everything arrives once.
    report = finished(sync(store, server, env, account))
    assert report["waiting"] == 0
    assert report["refused"] == 0
    assert server_op_count(server, signed_in["token"]) == OPS
    # Another device of the account pulls exactly the sketch's ops.
    other = finished(sync(work / "b.sqlite", server, env, account))
    assert other["pulled"] == OPS + 1  # the sketch's creation and its ops


def test_a_device_killed_during_a_pull_resumes_from_its_cursor(world):
    work, server, env, signed_in = world
    store = seed_store(work, env)
    account = signed_in["account"]["id"]
    assert finished(sync(store, server, env, account))["waiting"] == 0
    pulling_store = work / "b.sqlite"
    pulling = sync(pulling_store, server, env, account)
    # Kill the device once some pages are stored.
    deadline = time.time() + 60
    while time.time() < deadline and pulling.poll() is None:
        if stored_ops(pulling_store) > 0:
            break
        time.sleep(0.01)
    pulling.send_signal(signal.SIGKILL)
    pulling.wait(10)
    before = stored_ops(pulling_store)
    assert 0 < before < OPS, f"the kill came too late or too early: {before} of {OPS}"
    report = finished(sync(pulling_store, server, env, account))
    # It pulled only what it did not have, and now has everything once.
    assert report["pulled"] <= OPS + 1 - before
    assert stored_ops(pulling_store) == OPS


def stored_ops(path):
    import sqlite3
    if not Path(path).exists():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM sketchOp").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
