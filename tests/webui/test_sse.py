"""The live stream: SSE framing, first bytes at once, full snapshots with the version as id, heartbeats."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from webui_helpers import make_app, table_of

from scorer.cards import OctoCard
from scorer.events import TurnUp


def chunks(response: object) -> Iterator[str]:
    for chunk in response.response:  # type: ignore[attr-defined]
        yield chunk.decode() if isinstance(chunk, bytes) else chunk


def test_stream_headers_let_it_through_proxies_unbuffered(client: FlaskClient) -> None:
    response = client.get("/events", buffered=False)
    try:
        assert response.status_code == 200
        assert response.mimetype == "text/event-stream"
        assert response.headers["Cache-Control"] == "no-cache"
        assert response.headers["X-Accel-Buffering"] == "no"
    finally:
        response.close()


def test_first_message_is_the_snapshot_with_its_version_as_id(app: Flask, client: FlaskClient) -> None:
    response = client.get("/events", buffered=False)
    first = next(chunks(response))
    response.close()
    lines = first.split("\n")
    assert lines[0] == "retry: 2000"
    assert lines[1].startswith("id: ")
    assert lines[2].startswith("data: ")
    assert first.endswith("\n\n")
    snapshot = json.loads(lines[2].removeprefix("data: "))
    assert int(lines[1].removeprefix("id: ")) == snapshot["version"] == table_of(app).service.version
    assert snapshot == client.get("/api/state").get_json()


def test_a_change_sends_the_next_snapshot_with_a_higher_id(app: Flask, client: FlaskClient) -> None:
    service = table_of(app).service
    response = client.get("/events", buffered=False)
    stream = chunks(response)
    first = next(stream)
    first_id = int(first.split("\n")[1].removeprefix("id: "))
    timer = threading.Timer(0.05, lambda: service.apply(TurnUp(OctoCard.number(4))))
    timer.start()
    message = next(m for m in stream if m.startswith("id: "))
    timer.join()
    response.close()
    id_line, data_line, *_ = message.split("\n")
    assert int(id_line.removeprefix("id: ")) > first_id
    assert json.loads(data_line.removeprefix("data: "))["octoplus"]["running"] == 4


def test_an_idle_stream_sends_heartbeat_comments(client: FlaskClient) -> None:
    response = client.get("/events", buffered=False)  # the test app beats every 0.2 s
    stream = chunks(response)
    next(stream)
    assert next(stream) == ": heartbeat\n\n"
    response.close()


def test_streams_beyond_the_limit_get_503_and_closed_ones_free_their_slot(tmp_path: Path) -> None:
    app = make_app(tmp_path, max_streams=2)
    client = app.test_client()
    open_streams = [client.get("/events", buffered=False) for _ in range(2)]
    refused = client.get("/events")
    assert refused.status_code == 503
    assert "polls" in refused.get_json()["error"]
    open_streams[0].close()
    again = client.get("/events", buffered=False)
    assert again.status_code == 200
    again.close()
    open_streams[1].close()
    assert table_of(app).streams == 0
    table_of(app).service.store.close()
