"""Every route of the app: open to watch, PIN and CSRF to change, 4xx JSON for bad requests."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webui_helpers import PIN, csrf_of, new_game, post, table_of

LAN = {"REMOTE_ADDR": "192.168.1.50"}


# --- watching -------------------------------------------------------------------


def test_table_page_carries_the_snapshot_and_the_join_qr_code(client: FlaskClient) -> None:
    response = client.get("/")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert 'id="initial" type="application/json"' in html
    assert '"game":' in html or '"game": ' in html
    assert "<svg" in html and "Join the table" in html
    assert "http://" in html  # the LAN address to type


def test_pages_reference_only_assets_served_by_the_app(client: FlaskClient) -> None:
    for path in ("/", "/setup", "/camera"):
        html = client.get(path).get_data(as_text=True)
        assert "https://" not in html and "//cdn" not in html
    assert client.get("/static/app.css").status_code == 200
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/icon.svg").status_code == 200


def test_state_is_json_for_anyone(client: FlaskClient) -> None:
    response = client.get("/api/state", environ_base=LAN)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    data = response.get_json()
    assert data["game"] == "octoplus" and len(data["players"]) == 2 and "version" in data


def test_setup_shows_the_pin_to_the_pi_itself_only(client: FlaskClient) -> None:
    shown = f'id="shown-pin">{PIN}<'
    assert shown in client.get("/setup").get_data(as_text=True)
    lan = client.get("/setup", environ_base=LAN).get_data(as_text=True)
    assert 'id="shown-pin"' not in lan and "shown on this device only" not in lan
    proxied = client.get("/setup", headers={"X-Forwarded-For": "192.168.1.50"})
    assert 'id="shown-pin"' not in proxied.get_data(as_text=True)


def test_camera_page_and_status_say_offline_without_a_camera(client: FlaskClient) -> None:
    assert client.get("/camera").status_code == 200
    status = client.get("/api/camera").get_json()
    assert status["live"] is False and status["message"] == "camera offline"
    stream = client.get("/camera/stream.mjpg")
    assert stream.status_code == 503


def test_qr_and_chart_are_svg(client: FlaskClient) -> None:
    qr = client.get("/qr.svg")
    chart = client.get("/chart.svg")
    assert qr.mimetype == chart.mimetype == "image/svg+xml"
    assert qr.get_data(as_text=True).startswith("<svg")
    assert 'class="chart"' in chart.get_data(as_text=True)


def test_games_rules_and_session_describe_the_table(client: FlaskClient) -> None:
    games = client.get("/api/games").get_json()["games"]
    assert len(games) == 1 and games[0]["current"] is True
    rules = client.get("/api/rules/oktris").get_json()
    assert rules["options"]["colour_rule"] == "all_same"
    assert client.get("/api/rules/poker").status_code == 404
    session = client.get("/api/session").get_json()
    assert session["authorized"] is False and session["csrf"]


def test_unknown_api_paths_and_flagged_images_are_json_404(client: FlaskClient) -> None:
    response = client.get("/api/nothing")
    assert response.status_code == 404 and "error" in response.get_json()
    assert client.get("/flagged/3.jpg").status_code == 404


def test_wrong_method_on_the_api_is_a_json_405(client: FlaskClient) -> None:
    response = client.get("/api/undo")
    assert response.status_code == 405 and "error" in response.get_json()


# --- the PIN and CSRF ---------------------------------------------------------------

CHANGES = [
    ("/api/event", {"type": "turnup", "card": "5"}),
    ("/api/undo", {}),
    ("/api/edit-round", {"round": 1, "points": [0, 0]}),
    ("/api/new-game", {"game": "oktris", "players": ["A", "B"]}),
    ("/api/rematch", {}),
    ("/api/flagged/1", {"choice": None}),
    ("/api/turn-done", {}),
]


@pytest.mark.parametrize(("url", "body"), CHANGES)
def test_changes_need_the_pin(client: FlaskClient, url: str, body: dict[str, object]) -> None:
    version = client.get("/api/state").get_json()["version"]
    response = post(client, url, body)
    assert response.status_code == 401
    assert "PIN" in response.get_json()["error"]
    assert client.get("/api/state").get_json()["version"] == version


@pytest.mark.parametrize(("url", "body"), [*CHANGES, ("/api/login", {"pin": PIN}), ("/api/logout", {})])
def test_every_post_needs_the_csrf_token(
    scorer_client: FlaskClient, url: str, body: dict[str, object]
) -> None:
    response = post(scorer_client, url, body, csrf=False)
    assert response.status_code == 403
    assert "CSRF" in response.get_json()["error"]
    wrong = scorer_client.post(url, json=body, headers={"X-CSRF-Token": "forged"})
    assert wrong.status_code == 403


def test_login_form_needs_the_csrf_field(client: FlaskClient) -> None:
    assert client.post("/login", data={"pin": PIN}).status_code == 403
    ok = client.post("/login", data={"pin": PIN, "csrf_token": csrf_of(client), "next": "/"})
    assert ok.status_code == 303 and ok.headers["Location"] == "/"
    assert client.get("/api/session").get_json()["authorized"] is True


def test_login_form_does_not_redirect_off_site(client: FlaskClient) -> None:
    ok = client.post("/login", data={"pin": PIN, "csrf_token": csrf_of(client), "next": "//evil.example/"})
    assert ok.headers["Location"] == "/"


def test_wrong_pin_is_refused_and_a_malformed_pin_is_a_400(client: FlaskClient) -> None:
    wrong = "0000" if PIN != "0000" else "1111"
    assert post(client, "/api/login", {"pin": wrong}).status_code == 403
    assert post(client, "/api/login", {"pin": "12"}).status_code == 400
    assert post(client, "/api/login", {"pin": 1234}).status_code == 400
    assert client.get("/api/session").get_json()["authorized"] is False


def test_five_wrong_pins_a_minute_then_429_even_for_the_right_pin(client: FlaskClient) -> None:
    wrong = "0000" if PIN != "0000" else "1111"
    for _ in range(5):
        assert post(client, "/api/login", {"pin": wrong}).status_code == 403
    blocked = post(client, "/api/login", {"pin": PIN})
    assert blocked.status_code == 429
    assert int(blocked.headers["Retry-After"]) > 0
    assert "too many wrong PINs" in blocked.get_json()["error"]


def test_the_limit_is_per_client(app: Flask) -> None:
    wrong = "0000" if PIN != "0000" else "1111"
    a = app.test_client()
    for _ in range(5):
        post(a, "/api/login", {"pin": wrong})
    b = app.test_client()
    b.environ_base.update(LAN)
    assert post(b, "/api/login", {"pin": PIN}).status_code == 200


def test_logout_forgets_the_pin(scorer_client: FlaskClient) -> None:
    assert post(scorer_client, "/api/logout").get_json()["authorized"] is False
    assert post(scorer_client, "/api/undo").status_code == 401


def test_a_new_pin_logs_everybody_out(app: Flask, scorer_client: FlaskClient) -> None:
    table = table_of(app)
    table.pin_mark = "another-pin-fingerprint"
    assert scorer_client.get("/api/session").get_json()["authorized"] is False


# --- changing the game -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "must be a JSON object"),
        (b'"text"', "must be a JSON object"),
    ],
)
def test_malformed_bodies_are_json_400s(scorer_client: FlaskClient, raw: bytes, words: str) -> None:
    response = scorer_client.post(
        "/api/event",
        data=raw,
        headers={"X-CSRF-Token": csrf_of(scorer_client), "Content-Type": "application/json"},
    )
    assert response.status_code == 400
    assert words in response.get_json()["error"]


@pytest.mark.parametrize(
    ("url", "body", "words"),
    [
        ("/api/event", {"type": "play", "seat": "one", "cards": ["3"]}, "'seat'"),
        ("/api/event", {"type": "trick", "cards": ["8C", "7C"]}, "does not belong"),
        ("/api/undo", {"target": "last"}, "'target'"),
        ("/api/edit-round", {"round": "1", "points": [0, 0]}, "'round'"),
        ("/api/edit-round", {"round": 1, "points": 5}, "'points'"),
        ("/api/edit-round", {"round": 1, "points": [0, 0], "reason": 5}, "'reason'"),
        ("/api/edit-round", {"round": 4, "points": [0, 0]}, "no round 4"),
        ("/api/new-game", {"game": 3, "players": ["A", "B"]}, "'game'"),
        ("/api/new-game", {"game": "oktris", "players": "A,B"}, "'players'"),
        ("/api/new-game", {"game": "oktris", "players": ["A", "B"], "options": []}, "'options'"),
        ("/api/new-game", {"game": "oktris", "players": ["A", "B"], "options": {"tie": 3}}, "text values"),
        ("/api/flagged/1", {"choice": "first"}, "'choice'"),
        ("/api/flagged/1", {"choice": None}, "no flagged reading 1"),
    ],
)
def test_invalid_commands_are_json_400s_naming_the_field(
    scorer_client: FlaskClient, url: str, body: dict[str, object], words: str
) -> None:
    response = post(scorer_client, url, body)
    assert response.status_code == 400, response.get_json()
    assert words in response.get_json()["error"]


def test_a_too_large_body_is_refused(scorer_client: FlaskClient) -> None:
    response = post(scorer_client, "/api/event", {"type": "adjust", "note": "x" * 70_000})
    assert response.status_code in (400, 413)
    assert "error" in response.get_json()


def test_an_illegal_play_is_a_409_naming_the_reason_and_changes_nothing(scorer_client: FlaskClient) -> None:
    post(scorer_client, "/api/event", {"type": "turnup", "card": "5"})
    before = scorer_client.get("/api/state").get_json()
    response = post(scorer_client, "/api/event", {"type": "play", "seat": 2, "cards": ["1"]})
    assert response.status_code == 409
    assert "seat 1's turn" in response.get_json()["error"]
    after = scorer_client.get("/api/state").get_json()
    assert after["seq"] == before["seq"] and after["version"] == before["version"]


def test_a_hand_entered_octoplus_round_is_scored(scorer_client: FlaskClient) -> None:
    new_game(scorer_client, "octoplus", ["Ana", "Ben"], {"hand_size": "2"})
    for event in (
        {"type": "turnup", "card": "1"},
        {"type": "play", "seat": 1, "cards": ["1"]},
        {"type": "play", "seat": 2, "cards": ["2"]},
        {"type": "play", "seat": 1, "cards": ["3"]},
    ):
        response = post(scorer_client, "/api/event", event)
        assert response.status_code == 200, response.get_json()
    state = response.get_json()
    assert state["octoplus"]["phase"] == "reveal" and state["octoplus"]["reveal_seats"] == [2]
    state = post(scorer_client, "/api/event", {"type": "reveal", "seat": 2, "cards": ["5"]}).get_json()
    assert state["sheet"]["rounds"] == [[{"points": 0, "rule": None}, {"points": 5, "rule": None}]]
    assert state["totals"] == [0, 5]
    assert state["standings"][0]["name"] == "Ana"


def test_give_and_last_play_in_words(scorer_client: FlaskClient) -> None:
    new_game(scorer_client, "octoplus", ["Ana", "Ben", "Cleo"])
    post(scorer_client, "/api/event", {"type": "turnup", "card": "5"})
    state = post(scorer_client, "/api/event", {"type": "play", "seat": 1, "cards": ["3"]}).get_json()
    assert state["last_play"] == "Ana: 5 + 3 = 8, gives a card"
    assert state["octoplus"]["allowed"]["give_to"] == [2, 3]
    state = post(scorer_client, "/api/event", {"event": {"type": "give", "seat": 1, "to": 3}}).get_json()
    assert state["octoplus"]["hand_sizes"] == [6, 8, 9]
    assert state["to_move"] == 2


def test_undo_a_chosen_event_and_adjust_with_a_reason(scorer_client: FlaskClient) -> None:
    post(scorer_client, "/api/event", {"type": "turnup", "card": "5"})
    post(scorer_client, "/api/event", {"type": "play", "seat": 1, "cards": ["1"]})
    state = post(scorer_client, "/api/undo", {"target": 2}).get_json()
    assert state["recent"][0]["words"] == "Undo of #2"
    assert state["recent"][1]["undone"] is True
    state = post(
        scorer_client, "/api/event", {"type": "adjust", "seat": 2, "points": 7, "reason": "forgot a card"}
    ).get_json()
    assert state["totals"] == [0, 7]
    assert state["sheet"]["adjustments"][0]["reason"] == "forgot a card"
    assert post(scorer_client, "/api/undo", {"target": 2}).status_code == 409


def test_oktris_game_to_the_end_shows_the_winner_and_keeps_the_result(scorer_client: FlaskClient) -> None:
    new_game(scorer_client, "oktris", ["Ana", "Ben"], {"target": "4"})
    tricks = [["8C", "AD"], ["8S", "AH"]]  # Ana wins two in a row: 2 x 2 = 4
    for cards in tricks:
        state = post(scorer_client, "/api/event", {"type": "trick", "cards": cards}).get_json()
    assert state["finished"] is True and state["winners"] == ["Ana"]
    assert state["totals"] == [4, 0]
    games = scorer_client.get("/api/games").get_json()["games"]
    assert games[0]["result"]["winners"] == ["Ana"]
    assert "won by Ana" in scorer_client.get("/setup").get_data(as_text=True)
    rematch = post(scorer_client, "/api/rematch").get_json()
    assert rematch["finished"] is False and rematch["players"] == ["Ana", "Ben"]
    assert rematch["options"]["target"] == "4"


def test_flagged_reading_confirmed_through_the_api(app: Flask, scorer_client: FlaskClient) -> None:
    from scorer.cards import OctoCard
    from scorer.events import TurnUp
    from webui.service import Flagged

    service = table_of(app).service
    flag = service.propose(
        None, reason="card not identified", candidates=[TurnUp(OctoCard.number(6))], image=b"jpg"
    )
    assert isinstance(flag, Flagged)
    image = scorer_client.get(f"/flagged/{flag.id}.jpg")
    assert image.status_code == 200 and image.mimetype == "image/jpeg"
    state = post(scorer_client, f"/api/flagged/{flag.id}", {"choice": 0}).get_json()
    assert state["flagged"] == [] and state["octoplus"]["running"] == 6
    assert post(scorer_client, f"/api/flagged/{flag.id}", {"choice": 9}).status_code == 400


def test_security_headers_are_set(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    cookie = response.headers.get("Set-Cookie", "")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_turn_done_needs_a_live_camera(scorer_client: FlaskClient) -> None:
    response = post(scorer_client, "/api/turn-done")
    assert response.status_code == 409
    assert "camera is offline" in response.get_json()["error"]


def test_turn_done_signals_a_live_camera(app: Flask, scorer_client: FlaskClient) -> None:
    from webui.service import CameraStatus

    class Camera:
        signals = 0

        def signal_done(self) -> None:
            Camera.signals += 1

    table = table_of(app)
    table.camera = Camera()  # type: ignore[assignment]
    table.service.set_camera(CameraStatus(live=True, message="live"))
    assert post(scorer_client, "/api/turn-done").get_json() == {"signalled": True}
    assert Camera.signals == 1
