"""Fixtures of the web page tests: an app on a temporary data folder and clients with and without the PIN."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webui_helpers import login, make_app, table_of


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    flask_app = make_app(tmp_path)
    yield flask_app
    table_of(flask_app).service.store.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def scorer_client(client: FlaskClient) -> FlaskClient:
    """A client that entered the table PIN."""
    return login(client)
