import pytest

import a11y
from harness import Display


@pytest.fixture
def display():
    """A display of the test's own (Xvfb and openbox, about a second):
    nothing one test leaves on an X server (a button or key held, a grab,
    a window manager's state) reaches the next. Shared by a shard's tests,
    the first test of test_session_sign three times in CI found its click
    on Draw together opening nothing, the app idle and the button drawn
    pressed; never when run on its own."""
    d = Display().start()
    yield d
    d.stop()


@pytest.fixture(scope="session")
def a11y_bus():
    """The process's one accessibility bus (`a11y.A11yBus`), made when a
    module first needs it."""
    b = a11y.A11yBus()
    yield b
    b.stop()


@pytest.fixture(scope="module")
def bus(a11y_bus):
    """The accessibility bus, named in the environment for this module."""
    a11y_bus.use()
    yield a11y_bus
    a11y_bus.unuse()
