"""`make install` and `make uninstall` as a person installing the app would
run them: everything lands where the desktop and the app look, the desktop
entry and the metainfo pass their validators, the installed app started
from an unrelated directory with no TEAMSKETCH_* variables finds its style
sheet and its German catalogue, the installed school server serves its web
pages, and uninstalling leaves nothing behind.

The install goes to PREFIX=<tmp>/usr with DESTDIR empty — a real install at
an unusual prefix, not a staging tree: the app must find its files from
where it is, as it would under /usr/local. `make install` builds with the
same BUILD_FLAGS as the `make test` that runs us (make passes them down in
MAKEFLAGS), so it finds the build done and only installs; run alone, it
installs the debug build the UI tests use."""
import os
import shutil
import subprocess
import urllib.request
from pathlib import Path

import pytest
from PIL import ImageChops

from harness import App, ROOT
from test_resources import has_styled_title

APP_ID = "org.teamsketch.Desktop"
INSTALLED = [
    "bin/TeamsketchDesktop",
    "bin/TeamsketchServer",
    f"share/applications/{APP_ID}.desktop",
    f"share/metainfo/{APP_ID}.metainfo.xml",
    f"share/icons/hicolor/scalable/apps/{APP_ID}.svg",
    f"share/icons/hicolor/symbolic/apps/{APP_ID}-symbolic.svg",
    "share/locale/de/LC_MESSAGES/teamsketch.mo",
    "share/teamsketch/pools/de.json",
    "share/teamsketch/pools/en.json",
    *(f"share/teamsketch/sounds/{p.name}" for p in (ROOT / "resources" / "sounds").glob("*.wav")),
    "share/teamsketch/style/teamsketch.css",
    "share/teamsketch/installed-files",
]


def make(target, prefix, destdir="", *options):
    r = subprocess.run(["make", "--no-print-directory", *options, target, f"PREFIX={prefix}", f"DESTDIR={destdir}"],
                       cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, f"make {target} failed:\n{r.stdout}{r.stderr}"
    return r.stdout + r.stderr


def tree(root):
    return sorted(str(p.relative_to(root)) for p in Path(root).rglob("*"))


def clean_environ(monkeypatch):
    """The environment of a person's session: nothing pointing into the
    repository (App adds DISPLAY, LANG and a fresh XDG_DATA_HOME)."""
    for name in list(os.environ):
        if name.startswith("TEAMSKETCH_") or name in ("XDG_DATA_DIRS", "LOCPATH", "LANGUAGE"):
            monkeypatch.delenv(name)


@pytest.fixture(scope="module")
def locales(tmp_path_factory):
    """German needs its glibc locale, or gettext stays in C: compiled into a
    private directory (LOCPATH) — this machine has only C."""
    path = tmp_path_factory.mktemp("locales")
    subprocess.run(["localedef", "-i", "de_DE", "-f", "UTF-8", str(path / "de_DE.UTF-8")], check=True,
                   capture_output=True)
    return path


def differing_pixels(a, b, box=(0, 0, 1200, 820)):
    diff = ImageChops.difference(a.crop(box), b.crop(box)).convert("L").point(lambda v: 255 if v > 40 else 0)
    return diff.histogram()[255]


def test_installed_app_runs_from_anywhere_and_uninstall_leaves_nothing(display, tmp_path, monkeypatch, locales):
    root = tmp_path / "root"
    root.mkdir()
    prefix = root / "usr"
    share = prefix / "share"
    make("install", prefix)

    for path in INSTALLED:
        assert (prefix / path).is_file(), f"make install did not install {path}"
    for exe in ("TeamsketchDesktop", "TeamsketchServer"):
        assert os.access(prefix / "bin" / exe, os.X_OK), f"{exe} is not executable"
    # What a menu and a software centre read is valid as installed, and the
    # menu starts the installed binary (its prefix need not be on PATH).
    desktop = share / "applications" / f"{APP_ID}.desktop"
    subprocess.run(["desktop-file-validate", str(desktop)], check=True)
    subprocess.run(["appstreamcli", "validate", "--no-net", str(share / "metainfo" / f"{APP_ID}.metainfo.xml")],
                   check=True, capture_output=True)
    assert f"Exec={prefix}/bin/TeamsketchDesktop" in desktop.read_text().splitlines()
    # Nothing at run time from the build tree: no library path into it.
    dynamic = subprocess.run(["readelf", "-d", str(prefix / "bin" / "TeamsketchDesktop")],
                             capture_output=True, text=True, check=True).stdout
    assert ".build" not in dynamic and str(ROOT) not in dynamic, dynamic
    manifest = (share / "teamsketch" / "installed-files").read_text().splitlines()
    assert {f"f {prefix}/{p}" for p in INSTALLED} <= set(manifest)

    # The installed app, started from elsewhere in a clean session. A session
    # lists a prefix's share/ in XDG_DATA_DIRS (as /etc/profile.d does for
    # /usr/local or a Flatpak), so the menu shows the entry and GTK finds
    # the icon; the app itself looks beside its bin/ first (the last run).
    clean_environ(monkeypatch)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    binary = prefix / "bin" / "TeamsketchDesktop"
    session = {"XDG_DATA_DIRS": f"{share}:/usr/local/share:/usr/share"}
    german = {"LOCPATH": str(locales)}
    # No catalogue other than the installed one could make it German.
    for other in ("/usr/share/locale", "/usr/local/share/locale"):
        assert not Path(other, "de/LC_MESSAGES/teamsketch.mo").exists()

    shots = {}
    for name, lang, env in [("C", "C.UTF-8", session),
                            ("de", "de_DE.UTF-8", {**session, **german}),
                            ("de-default-dirs", "de_DE.UTF-8", german)]:
        home = tmp_path / f"home-{name}"
        home.mkdir()
        app = App(display, home, lang=lang, extra_env=env, binary=binary, cwd=elsewhere)
        try:
            assert not any(k.startswith("TEAMSKETCH_") for k in app.env)
            shots[name] = app.screenshot(f"install-home-{name}")
            assert app.proc.poll() is None, app.read_log()
            log = app.read_log()
            assert "teamsketch: resource" not in log, log
        finally:
            app.stop()
        assert has_styled_title(shots[name]), f"the installed style sheet was not applied ({name}): {log}"
    # German labels differ from English ones; both German runs agree.
    assert differing_pixels(shots["C"], shots["de"]) > 1500, "LANG=de looks like LANG=C: no German catalogue"
    assert differing_pixels(shots["de"], shots["de-default-dirs"]) < 200

    # The installed school server: its web pages are built in, its data where
    # it is told.
    server = subprocess.Popen([str(prefix / "bin" / "TeamsketchServer"), "serve", "--host", "127.0.0.1", "--port", "0",
                               "--no-announce", "--data-dir", str(tmp_path / "server-data")],
                              cwd=elsewhere, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()
        assert "listening on http://" in line, line
        port = line.split("http://127.0.0.1:")[1].split("/")[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/gallery", timeout=10) as page:
            assert page.status == 200 and "<html" in page.read().decode().lower()
    finally:
        server.terminate()
        server.wait(10)

    out = make("uninstall", prefix)
    assert tree(root) == [], f"make uninstall left {tree(root)}\n{out}"


def test_a_staged_install_is_relocated_and_uninstalls_cleanly(tmp_path):
    """Packaging: DESTDIR=<stage> PREFIX=/usr puts the files below the stage
    but names /usr in them, leaves the system's icon cache alone, and
    uninstall with the same variables empties the stage again."""
    stage = tmp_path / "stage"
    stage.mkdir()
    # A directory shared with other packages, with someone else's icon.
    other = stage / "usr/share/icons/hicolor/scalable/apps/other.svg"
    other.parent.mkdir(parents=True)
    other.write_text("<svg/>")
    # `-o build`: the build is done (the test above ran the whole target,
    # build included; a no-op `swift build` still costs 20 s).
    make("install", "/usr", stage, "-o", "build")
    for path in INSTALLED:
        assert (stage / "usr" / path).is_file(), f"make install did not install {path}"
    assert "Exec=/usr/bin/TeamsketchDesktop" in (stage / f"usr/share/applications/{APP_ID}.desktop").read_text()
    assert not (stage / "usr/share/icons/hicolor/icon-theme.cache").exists(), "the icon cache is the system's job"
    manifest = (stage / "usr/share/teamsketch/installed-files").read_text()
    assert str(stage) not in manifest and "f /usr/bin/TeamsketchDesktop" in manifest
    make("uninstall", "/usr", stage)
    assert tree(stage) == ["usr", "usr/share", "usr/share/icons", "usr/share/icons/hicolor",
                           "usr/share/icons/hicolor/scalable", "usr/share/icons/hicolor/scalable/apps",
                           "usr/share/icons/hicolor/scalable/apps/other.svg"]
    shutil.rmtree(stage)
