"""Helpers of the web page tests: an app on a temporary data folder, CSRF-aware posts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from webui.app import create_app
from webui.config import ServeConfig
from webui.context import EXTENSION, Table

PIN = "4321"


def make_app(data_dir: Path, **overrides: Any) -> Flask:
    settings: dict[str, Any] = {
        "data_dir": data_dir,
        "pin": PIN,
        "camera": False,
        "players": 2,
        "heartbeat": 0.2,
    }
    settings.update(overrides)
    app = create_app(ServeConfig(**settings))
    app.testing = True
    return app


def table_of(app: Flask) -> Table:
    found: Table = app.extensions[EXTENSION]
    return found


def csrf_of(client: FlaskClient) -> str:
    token = client.get("/api/session").get_json()["csrf"]
    assert isinstance(token, str) and token
    return token


def post(client: FlaskClient, url: str, body: object = None, *, csrf: bool = True) -> Any:
    headers = {"X-CSRF-Token": csrf_of(client)} if csrf else {}
    return client.post(url, json=body if body is not None else {}, headers=headers)


def login(client: FlaskClient) -> FlaskClient:
    response = post(client, "/api/login", {"pin": PIN})
    assert response.status_code == 200, response.get_json()
    return client


def new_game(
    client: FlaskClient, game: str, players: list[str], options: dict[str, str] | None = None
) -> Any:
    response = post(client, "/api/new-game", {"game": game, "players": players, "options": options or {}})
    assert response.status_code == 200, response.get_json()
    return response.get_json()
