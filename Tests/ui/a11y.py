"""The app as assistive technology sees it: a private D-Bus session bus
(the accessibility bus is started on it by D-Bus activation, as on a
desktop), the app started with GTK's AT-SPI backend on, and the tree read
with pyatspi, as Orca reads it."""
import os
import re
import subprocess
import time

# Roles a person operates; a control of one of these without a name is
# read out as just "button" or "text".
CONTROL_ROLES = {
    "push button", "toggle button", "check box", "radio button", "text", "entry", "password text",
    "spin button", "slider", "combo box", "menu item", "link", "switch", "image", "list item",
}
# GTK 4.8 falls back to the widget's type name for an unnamed widget.
DEFAULT_NAME = re.compile(r"^Gtk[A-Z]\w*$")


class A11yBus:
    """One session bus for a whole pytest process (the `bus` fixture of
    conftest.py): pyatspi binds to the first bus it meets and keeps it, so
    a second module with a bus of its own found no app on it (two modules
    of one CI shard). The process's DBUS_SESSION_BUS_ADDRESS names it only
    while a module that reads the tree runs (`use`, `unuse`)."""

    def __init__(self):
        self.proc = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.address = self.proc.stdout.readline().strip()
        if not self.address:
            raise RuntimeError("dbus-daemon printed no address")
        self.before = None

    def use(self):
        self.before = os.environ.get("DBUS_SESSION_BUS_ADDRESS")
        os.environ["DBUS_SESSION_BUS_ADDRESS"] = self.address

    def unuse(self):
        # Apps of later tests must not be pointed at this bus.
        if self.before is None:
            os.environ.pop("DBUS_SESSION_BUS_ADDRESS", None)
        else:
            os.environ["DBUS_SESSION_BUS_ADDRESS"] = self.before

    @property
    def app_env(self):
        """What the app needs to show its tree on this bus (the harness
        turns accessibility off for every other test)."""
        return {"GTK_A11Y": "atspi", "NO_AT_BRIDGE": "0", "DBUS_SESSION_BUS_ADDRESS": self.address}

    def stop(self):
        # The accessibility bus and registry were started by this bus; they
        # end with it.
        self.proc.terminate()
        self.proc.wait(5)


def root(app, seconds=20):
    """The app's accessible, found by its process id."""
    import pyatspi
    deadline = time.time() + seconds
    while time.time() < deadline:
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            a = desktop.getChildAtIndex(i)
            try:
                if a is not None and a.get_process_id() == app.proc.pid:
                    return a
            except Exception:
                pass
        time.sleep(0.3)
    raise AssertionError("the app never appeared on the accessibility bus")


def nodes(node):
    """Every accessible under `node`, depth first (hidden pages included:
    a page a child never saw still has to be readable when it is shown)."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        out.append(n)
        try:
            stack.extend(n.getChildAtIndex(i) for i in reversed(range(n.childCount)))
        except Exception:
            pass
    return out


def describe(n):
    try:
        return f"{n.getRoleName()} {n.name!r}"
    except Exception:
        return "?"


def path(n):
    """Names of the ancestors that have one: where an unnamed control sits."""
    parts = []
    p = n.parent
    while p is not None and len(parts) < 8:
        try:
            if p.name and not DEFAULT_NAME.match(p.name):
                parts.append(p.name)
            p = p.parent
        except Exception:
            break
    return " < ".join(parts)


def unnamed_controls(node):
    bad = []
    for n in nodes(node):
        try:
            role, name = n.getRoleName(), n.name
        except Exception:
            continue
        if role not in CONTROL_ROLES:
            continue
        if role == "image" and not focusable(n) and inside_named_control(n):
            continue
        if not name or DEFAULT_NAME.match(name):
            bad.append(f"{role} showing {inner_text(n)!r} in [{path(n)}]")
    return bad


def inner_text(n):
    """Text of the labels inside a control: what a sighted child reads on
    it, to tell which control lacks a name."""
    texts = []
    for c in nodes(n)[1:]:
        try:
            if c.getRoleName() == "label" and c.name and not DEFAULT_NAME.match(c.name):
                texts.append(c.name)
        except Exception:
            pass
    return " ".join(texts)


def focusable(n):
    import pyatspi
    return pyatspi.STATE_FOCUSABLE in n.getState().getStates()


def inside_named_control(n):
    """A picture inside a named button is part of that button."""
    p = n.parent
    for _ in range(4):
        if p is None:
            return False
        try:
            if p.getRoleName() in CONTROL_ROLES - {"image"} and p.name and not DEFAULT_NAME.match(p.name):
                return True
            p = p.parent
        except Exception:
            return False
    return False


def find(node, name, role=None, seconds=10):
    """The first accessible with this name (and role): waits for it."""
    deadline = time.time() + seconds
    while True:
        for n in nodes(node):
            try:
                if n.name == name and (role is None or n.getRoleName() == role):
                    return n
            except Exception:
                pass
        if time.time() > deadline:
            raise AssertionError(f"nothing named {name!r} on the accessibility bus")
        time.sleep(0.3)


def press(node, name, role="push button"):
    """A button pressed the way a screen reader presses it (`role` None:
    any control of that name, e.g. a toggle button)."""
    find(node, name, role).queryAction().doAction(0)
    time.sleep(1.2)


def focused(node):
    """The accessible that has the keyboard, if any."""
    import pyatspi
    for n in nodes(node):
        try:
            if pyatspi.STATE_FOCUSED in n.getState().getStates():
                return n
        except Exception:
            pass
    return None


def small_controls(node, least=48):
    """Controls on screen smaller than a child's fingertip allows: pupils'
    screens want at least 48 × 48 px. Controls of pages not shown have no
    place on the screen and are left out."""
    small = []
    for n in nodes(node):
        try:
            role = n.getRoleName()
            if role not in CONTROL_ROLES or role == "image" or not focusable(n):
                continue
            # What a finger must hit in these is a part AT-SPI does not
            # show: a spin button's −/+ (35 px wide in Adwaita), a check
            # box's box (30 px). Pupils' screens use big buttons instead.
            if role in ("spin button", "check box") and n.queryComponent().getExtents(0).width > 0:
                small.append(f"{describe(n)}: its {'arrows are' if role == 'spin button' else 'box is'} "
                             f"smaller than a fingertip")
                continue
            e = n.queryComponent().getExtents(0)
        except Exception:
            continue
        if e.width <= 0 or e.height <= 0 or e.x < 0 or e.y < 0:
            continue
        if e.width < least or e.height < least:
            small.append(f"{describe(n)} is {e.width}×{e.height}")
    return small
