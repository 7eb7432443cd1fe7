"""Stopping the background server: a worker still busy when it stops must not fail later, nor
write into a descriptor the process has since reused."""

from __future__ import annotations

import http.client
import threading
import time
import urllib.request
from collections.abc import Iterator

import pytest
from flask import Flask

from webui.server import start_background


@pytest.fixture
def thread_errors() -> Iterator[list[BaseException]]:
    """Exceptions raised in any thread while the test runs."""
    errors: list[BaseException] = []
    previous = threading.excepthook
    threading.excepthook = lambda args: errors.append(args.exc_value or RuntimeError(str(args)))
    yield errors
    threading.excepthook = previous


def slow_app(entered: threading.Event, release: threading.Event) -> Flask:
    app = Flask(__name__)

    @app.get("/slow")
    def slow() -> str:
        entered.set()
        release.wait(10)
        return "done"

    @app.get("/quick")
    def quick() -> str:
        return "quick"

    return app


def test_a_stopped_server_with_no_busy_worker_ends_its_thread() -> None:
    server = start_background(slow_app(threading.Event(), threading.Event()), threads=2)
    with urllib.request.urlopen(server.url + "/quick", timeout=5) as answer:
        assert answer.read() == b"quick"
    server.stop(timeout=5)
    assert not server.thread.is_alive()


def test_a_server_whose_wake_up_pipe_cannot_be_written_still_closes_its_listener() -> None:
    server = start_background(slow_app(threading.Event(), threading.Event()), threads=2)
    trigger = server.server.trigger
    write_end = trigger.trigger
    trigger.trigger = 1_000_000  # no such descriptor: waking the loop fails with EBADF
    try:
        server.stop(timeout=5)  # no error: the sockets are closed from the calling thread
        with pytest.raises(OSError):
            urllib.request.urlopen(server.url + "/quick", timeout=2)
    finally:
        trigger.trigger = write_end
        trigger.pull_trigger(lambda: trigger.close())  # the loop closes the pipe and ends
    server.thread.join(5)
    assert not server.thread.is_alive()


def test_sockets_closed_from_outside_the_loop_leave_its_map_a_loop_timeout_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The loop thread may be in a select over the listener when stop() closes it from outside:
    # the listener leaves the loop's map first and is closed only after one loop timeout, so no
    # select of the loop meets a closed descriptor (EBADF).
    server = start_background(slow_app(threading.Event(), threading.Event()), threads=2)
    listener, trigger = server.server, server.server.trigger
    write_end, sock = trigger.trigger, listener.socket
    waits: list[tuple[float, bool, bool]] = []
    sleep = time.sleep

    def wait(seconds: float) -> None:
        waits.append((seconds, listener in listener._map.values(), sock.fileno() != -1))
        sleep(seconds)  # the wait itself too: the select under way must end before the close

    monkeypatch.setattr("webui.server.time.sleep", wait)
    trigger.trigger = 1_000_000  # no such descriptor: waking the loop fails with EBADF
    try:
        server.stop(timeout=5)
    finally:
        trigger.trigger = write_end
        trigger.pull_trigger(lambda: trigger.close())
    server.thread.join(5)
    assert waits == [(listener.adj.asyncore_loop_timeout, False, True)]  # out of the map, still open
    assert sock.fileno() == -1  # then closed


def test_a_worker_still_busy_when_the_server_stops_finishes_without_an_error(
    thread_errors: list[BaseException],
) -> None:
    entered, release = threading.Event(), threading.Event()
    server = start_background(slow_app(entered, release), threads=2)
    outcome: dict[str, object] = {}

    def ask() -> None:
        try:
            with urllib.request.urlopen(server.url + "/slow", timeout=10) as answer:
                outcome["body"] = answer.read()
        except (OSError, http.client.HTTPException) as error:  # closed under the answer
            outcome["error"] = error

    client = threading.Thread(target=ask)
    client.start()
    assert entered.wait(5)
    server.stop(timeout=0.2)  # the worker is still inside the request
    # Its trigger pipe stays open: a worker wakes the loop through it when its answer is done,
    # and a closed descriptor may be reused by the next file or socket the process opens.
    assert not server.server.trigger._closed
    release.set()
    client.join(10)
    dispatcher = server.server.task_dispatcher
    for _ in range(100):  # the worker leaves once its request is answered
        with dispatcher.lock:
            if not dispatcher.threads:
                break
        threading.Event().wait(0.05)
    with dispatcher.lock:
        assert not dispatcher.threads
    assert outcome  # the client got an answer or a closed connection, not a hang
    assert thread_errors == []
