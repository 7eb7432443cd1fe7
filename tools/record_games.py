"""Render the recorded games of ``tests/fixtures/games/``: frame folders of whole games with known results.

Run from the repository root: ``.venv/bin/python tools/record_games.py [--out DIR] [--only NAME]``.
The same script always writes the same files.

Each folder holds what a camera would have recorded and what should come of it:

- ``frame_NNNN.jpg``: the images of the frames (640x360 JPEG; the Oktris deal 960x540; quality
  per folder, see ``*_QUALITY``, with optimised Huffman tables); a still view is stored as two
  images shown in turn (see ``STILL``);
- ``calibration.toml``: what calibrating this table would give (frame size, a
  card's size in pixels, equal seat zones, the deck), for ``--calibration``;
- ``timestamps.txt``: one line per frame, its seconds value and the image shown
  (``scanner.sources.parse_frame_list``; pauses last long in time but cost one frame);
- ``people.txt``: what people told the page during the game, one event per line
  in game-log notation (the recipients of the cards given for making 8), applied
  by ``octotable replay`` when the game waits for them;
- ``expected.log``: the game log the replay must produce (``docs/game-log.md``);
  its header names the game and the players;
- ``expected-sheet.json``: the score sheet the replay must end with (the JSON of
  ``octotable score``);
- ``frames.json``: per frame, what was rendered and why: the time, the hands in
  view, whether it is blurred, a note, and every card in z-order as
  ``[label, corners TL TR BR BL, top, visible fraction, an index visible]``, to
  tell which frames a failing replay misread (and to replay with the truth in
  place of the scanner).

Folders: ``octoplus-3p-round`` (a whole round for three players with a +2 chain,
a -2, a Pass, two gives and shown hands), ``oktris-4p-deal`` (a whole deal for
four players with an all-red trick and a late player), and three folders that
must yield no event: ``idle-table``, ``hands-waving`` and ``card-nudged``.
It also writes the web page's built-in demo, ``webui/data/demo/`` (same format): a whole short
Octoplus round for three, about a minute of play, that needs no person.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from calibration.config import (  # noqa: E402
    Calibration,
    CameraSettings,
    DeckSettings,
    TableSettings,
    save,
)
from calibration.seats import default_zones  # noqa: E402
from scanner.scenes import CARD_ASPECT, Arm, Imaging, Lighting, PlacedCard, Scene, Table, render  # noqa: E402
from scanner.scenes_paint import TableKind  # noqa: E402
from scanner.types import Image, Point  # noqa: E402
from scorer.cards import DeckKind, OctoCard, StdCard  # noqa: E402
from scorer.events import Event, Give, Play, Reveal, Source, Trick, TurnUp  # noqa: E402
from scorer.game import Game, rules_for  # noqa: E402
from scorer.notation import format_event, format_log  # noqa: E402

log = logging.getLogger("record_games")

OUT = ROOT / "tests" / "fixtures" / "games"
WIDTH, HEIGHT = 640, 360
CARD_PX = 100.0
ARM_WIDTH = 64.0
JPEG_QUALITY = 40
"""JPEG quality of the folders that must yield no event (through the real scanner they stay quiet
from quality 30 to 62; 40 keeps them small)."""
OCTOPLUS_QUALITY = 62
"""The Octoplus round (read by its big centre numerals and by what changed on the pile). Through the
real scanner it replays right at every quality tried from 40 to 82 with its own and other noise seeds
(``python -m benchmarks.recorded_games``); 62 is near the middle of that range."""
DEMO_QUALITY = 50
"""The page's demo: through the real scanner it replays right from quality 45 to 70."""
JPEG_OPTIONS = (cv2.IMWRITE_JPEG_OPTIMIZE, 1)
"""Optimised Huffman tables: the same pixels as a plain JPEG in about a fifth fewer bytes."""
STILL = 4
"""Frames of every still view: enough for the watcher's default two still frames and two readings.
Only the first two sharp frames of a still view are rendered (two draws of the camera noise); the
later ones, and the frame ending a pause that follows them, show them again in turn (A B A B A), so
every frame still differs from the one before it by camera noise and the two frames the watcher reads
are different draws."""


@dataclass
class Recorder:
    """Builds one folder: the cards on the table, the clock, and every rendered frame."""

    name: str
    seats: int
    base: Scene
    rng: np.random.Generator
    cards: list[PlacedCard] = field(default_factory=list)
    t: float = 0.0
    images: list[Image] = field(default_factory=list)
    frames: list[dict[str, Any]] = field(default_factory=list)
    shown: list[int] = field(default_factory=list)
    """Per frame, the index in ``images`` of the image it shows."""
    quality: int = JPEG_QUALITY

    def _render(self, note: str, arms: Sequence[Arm] = (), blur: float = 0.0, **changes: Any) -> None:
        imaging = replace(self.base.imaging, motion_px=blur, motion_deg=30.0)
        scene = replace(self.base, cards=tuple(self.cards), arms=tuple(arms), imaging=imaging, **changes)
        image, truth = render(scene, self.rng)
        self.shown.append(len(self.images))
        self.images.append(image)
        self.frames.append(
            {
                "frame": len(self.frames),
                "t": round(self.t, 3),
                "hands": len(arms),
                "blurred": blur > 0,
                "note": note,
                "cards": [
                    [
                        str(c.card),
                        [[round(x), round(y)] for x, y in c.corners],
                        c.top,
                        round(c.visible_fraction, 2),
                        c.identifiable,
                    ]
                    for c in truth.cards
                ],
            }
        )

    def _again(self, frame: int, note: str) -> None:
        """One more frame showing the image of ``frame`` (the table unchanged since)."""
        self.shown.append(self.shown[frame])
        self.frames.append(
            {**self.frames[frame], "frame": len(self.frames), "t": round(self.t, 3), "note": note}
        )

    def still(self, note: str, count: int = STILL, dt: float = 0.1, *, blurred_first: bool = False) -> None:
        """``count`` frames of the table as it is, ``dt`` apart; the first shaken if ``blurred_first``
        (then ``count`` sharp frames follow it).  The first two sharp frames are rendered, every later
        one shows the sharp frame two before it again."""
        sharp: list[int] = []
        for i in range(count + blurred_first):
            self.t += dt
            if blurred_first and i == 0:
                self._render(note, blur=7.0)
            elif len(sharp) >= 2:
                sharp.append(len(self.frames))
                self._again(sharp[-3], note)
            else:
                sharp.append(len(self.frames))
                self._render(note)

    def wait(self, seconds: float, note: str = "the table rests", **changes: Any) -> None:
        """The table rests for ``seconds``: one frame at the end of the pause.  After two sharp frames of
        the same view, with nothing changed, it shows the image of the one before the last again."""
        self.t += seconds
        if not changes and len(self.frames) >= 2:
            before, last = self.frames[-2], self.frames[-1]
            view = (last["cards"], last["hands"], last["blurred"])
            if view == (before["cards"], 0, False) and self.shown[-2] != self.shown[-1]:
                self._again(len(self.frames) - 2, note)
                return
        self._render(note, **changes)

    def hands(self, reaches: Sequence[tuple[int, Point]], note: str, dt: float = 0.4) -> None:
        """One frame with a hand of each ``(seat, point)`` over the table (cards as they are now)."""
        self.t += dt
        self._render(note, arms=[self.arm(seat, point) for seat, point in reaches])

    def arm(self, seat: int, point: Point) -> Arm:
        """An arm from ``seat``'s edge of the table to ``point``."""
        angle = math.radians(360.0 * (seat - 1) / self.seats)
        dx, dy = -math.sin(angle), math.cos(angle)
        start = (point[0] + dx * 520.0, point[1] + dy * 520.0)
        return Arm(start=start, end=point, width=ARM_WIDTH * self.base.card_px / CARD_PX)

    def lay(self, seat: int, placed: PlacedCard, note: str, *, blurred: bool = False) -> None:
        """``seat`` lays ``placed`` on the table: a frame with the hand over it, then the still view."""
        self.cards.append(placed)
        self.hands([(seat, placed.centre)], note)
        self.still(note, blurred_first=blurred)

    def write(self, folder: Path, game: Game, people: Sequence[Event]) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.iterdir():  # what an earlier run wrote; a README.md stays
            if old.name != "README.md":
                shutil.rmtree(old) if old.is_dir() else old.unlink()
        calibration = Calibration(
            camera=CameraSettings(self.base.width, self.base.height),
            table=TableSettings(card_size_px=(round(self.base.card_px * CARD_ASPECT, 2), self.base.card_px)),
            seats=default_zones(self.seats, self.base.width, self.base.height),
            deck=DeckSettings(DeckKind.OCTOPLUS if game.name == "octoplus" else DeckKind.OKTRIS),
        )
        save(calibration, folder / "calibration.toml")
        for i, image in enumerate(self.images):
            path = folder / f"frame_{i:04d}.jpg"
            if not cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, self.quality, *JPEG_OPTIONS]):
                raise OSError(f"cannot write {path}")
        (folder / "timestamps.txt").write_text(
            "".join(f"{f['t']:.3f} frame_{i:04d}.jpg\n" for f, i in zip(self.frames, self.shown, strict=True))
        )
        (folder / "frames.json").write_text(
            "[\n" + ",\n".join(json.dumps(f, separators=(",", ":")) for f in self.frames) + "\n]\n"
        )
        (folder / "people.txt").write_text(
            "# what people told the page, applied in order when the game waits for it\n"
            + "".join(format_event(e) + "\n" for e in people)
        )
        (folder / "expected.log").write_text(format_log(game))
        (folder / "expected-sheet.json").write_text(json.dumps(game.score_sheet().to_json(), indent=1) + "\n")
        size = sum(p.stat().st_size for p in folder.iterdir())
        log.info(
            "%s: %d frames (%d images), %d events, %.0f kB",
            folder.name,
            len(self.frames),
            len(self.images),
            game.seq,
            size / 1000,
        )


def _scene(kind: TableKind, seed: int, scale: float = 1.0, card_px: float = CARD_PX) -> Scene:
    return Scene(
        table=Table(kind, seed),
        lighting=Lighting(gradient=0.08, gradient_deg=30.0),
        imaging=Imaging(read_noise=1.5, shot_noise=3.0),
        card_px=card_px,
        width=round(WIDTH * scale),
        height=round(HEIGHT * scale),
    )


def _noise(seed: int, noise: int | None) -> np.random.Generator:
    """The generator of a folder's camera noise: its own ``seed`` unless ``noise`` replaces it (the
    cards, moves and times are drawn from other generators, so they stay the same)."""
    return np.random.default_rng(seed if noise is None else noise)


def _scanned(event: Event) -> Event:
    return replace(event, source=Source.SCANNER)


def _octo(*texts: str) -> tuple[OctoCard, ...]:
    return tuple(OctoCard.parse(t) for t in texts)


NEAR_DX, NEAR_DY, NEAR_DEG = 12.0, 9.0, 7.0
"""How far the second 2 of the Octoplus round lies off the first (pixels of a 100-pixel card, degrees):
the offset of a card laid on the pile by hand.  A card laid exactly on an identical one changes nothing
a camera can see; one off it by a few pixels is what the top card of a pile pushed a little looks like
(``card-nudged``: 9, 5 and 5 degrees), which must stay no new card."""


# --- Octoplus: one round for three players ---------------------------------------------------------


def octoplus_round(noise: int | None = None) -> tuple[Recorder, Game, list[Event]]:
    """A round for three: turn-up 1; seat 1 makes 8 and gives; a +2 chain answered with exactly 8
    (another give, to the same seat); a Pass; a turn of 2, 2 (the second a little off the
    first) and -2, ended by the idle time; seat 1 plays its last three cards and is out; the
    others show their hands (seat 3's 28 is void); the table is cleared."""
    rec = Recorder(
        "octoplus-3p-round",
        3,
        _scene(TableKind.GREY, 11),
        _noise(11, noise),
        quality=OCTOPLUS_QUALITY,
    )
    layout = np.random.default_rng(5)
    game = Game.new(rules_for("octoplus"), 3)
    people: list[Event] = []

    def pile(seat: int, text: str, *, blurred: bool = False, near: bool = False) -> None:
        centre = (320.0 + layout.uniform(-14, 14), 180.0 + layout.uniform(-10, 10))
        angle = float(layout.uniform(-25, 25))
        if near:  # on the card below, off it by what a hand laying a card gives
            below = rec.cards[-1]
            centre, angle = (below.centre[0] + NEAR_DX, below.centre[1] + NEAR_DY), below.angle_deg + NEAR_DEG
        card = PlacedCard(OctoCard.parse(text), centre, angle, "pile", seat)
        rec.lay(seat, card, f"seat {seat} lays {text} on the pile", blurred=blurred)

    def apply(event: Event) -> None:
        game.apply(_scanned(event))

    def give(seat: int, to: int) -> None:
        event = Give(seat, to, source=Source.MANUAL)
        game.apply(event)
        people.append(event)
        rec.hands([(seat, (250.0, 330.0)), (to, (200.0, 60.0))], f"seat {seat} hands a card to seat {to}")
        rec.still("after the give", count=2)

    rec.still("empty table")
    pile(1, "1")
    apply(TurnUp(OctoCard.number(1)))
    pile(1, "4")
    pile(1, "3", blurred=True)
    apply(Play(1, _octo("4", "3")))  # 1 + 7 = 8: give
    give(1, 3)
    pile(2, "+2")
    apply(Play(2, _octo("+2")))
    pile(3, "+2")
    apply(Play(3, _octo("+2")))
    rec.wait(1.5, "seat 1 thinks")
    pile(1, "1")
    apply(Play(1, _octo("1")))  # 3 + 4 + 1 = 8: give
    give(1, 3)
    pile(2, "P")
    apply(Play(2, _octo("P")))
    pile(3, "2")
    pile(3, "2", near=True)
    pile(3, "-2")
    rec.wait(3.6, "seat 3 is done: the idle time ends the turn")
    apply(Play(3, _octo("2", "2", "-2")))  # 1 + 2 + 2 - 2 = 3
    rec.hands([(1, (330.0, 250.0))], "seat 1 reaches in and withdraws")
    rec.still("seat 1 thinks", count=2)
    pile(1, "3")
    pile(1, "2")
    pile(1, "1")
    apply(Play(1, _octo("3", "2", "1")))  # -2 + 6 = 4 with the last cards: seat 1 is out
    # Each shown hand lies in its seat's zone (seat 2 upper left, seat 3 upper right), a little apart.
    hands = {
        2: (
            ("7", "6", "6", "5", "+2", "-2"),
            [(40, 58), (124, 58), (208, 58), (40, 180), (124, 180), (40, 302)],
        ),
        3: (
            ("7", "4", "2", "4", "1", "P"),
            [(600, 58), (516, 58), (432, 58), (600, 180), (516, 180), (600, 302)],
        ),
    }
    for seat, (texts, spots) in hands.items():
        for text, (x, y) in zip(texts, spots, strict=True):
            angle = float(layout.uniform(-6, 6))
            rec.cards.append(PlacedCard(OctoCard.parse(text), (float(x), float(y)), angle, "hand", seat))
    rec.hands([(2, (120.0, 120.0)), (3, (520.0, 120.0))], "seats 2 and 3 lay their hands face up")
    rec.still("hands shown")
    for seat, (texts, _) in hands.items():
        apply(Reveal(seat, _octo(*texts)))
    rec.wait(2.0, "everyone reads the score")
    rec.cards.clear()
    rec.hands([(1, (320.0, 180.0)), (2, (120.0, 120.0))], "the table is cleared")
    rec.still("empty table")
    return rec, game, people


# --- Oktris: one deal for four players -------------------------------------------------------------

TRICKS = (
    ("5H", "7S", "7D", "2C"),
    ("3H", "6D", "8H", "AD"),  # all red: the next trick is low
    ("AH", "2S", "3D", "4C"),
    ("8C", "8S", "6H", "5D"),
    ("7C", "6S", "4H", "2D"),
    ("4S", "3C", "5S", "2H"),
    ("6C", "7H", "AS", "8D"),
    ("3S", "4D", "5C", "AC"),
)
OKTRIS_SCALE = 1.5
"""The Oktris deal is recorded at 960x540 with cards 165 pixels long: its cards are read by their
small corner indices, which need the pixels (a Pi camera's 1280x720 gives them more still)."""
OKTRIS_CARD_PX = 165.0
OKTRIS_QUALITY = 40
"""Through the real scanner the deal replays right from quality 30 to 62; 40 keeps a margin both ways."""
SEAT_SPOTS: dict[int, Point] = {1: (480.0, 429.0), 2: (144.0, 270.0), 3: (480.0, 111.0), 4: (816.0, 270.0)}


def oktris_deal(noise: int | None = None) -> tuple[Recorder, Game, list[Event]]:
    """A whole deal of eight tricks for four; trick 2 is all red; in trick 5 seat 4 lays late;
    one still view starts with a shaken frame; at the end the table is cleared."""
    scene = _scene(TableKind.GREY, 23, OKTRIS_SCALE, OKTRIS_CARD_PX)
    rec = Recorder("oktris-4p-deal", 4, scene, _noise(23, noise), quality=OKTRIS_QUALITY)
    layout = np.random.default_rng(7)
    game = Game.new(rules_for("oktris"), 4)
    rec.still("empty table")
    for number, trick in enumerate(TRICKS, start=1):
        placed = []
        for seat, text in enumerate(trick, start=1):
            x, y = SEAT_SPOTS[seat]
            centre = (x + layout.uniform(-18, 18), y + layout.uniform(-12, 12))
            placed.append(
                PlacedCard(StdCard.parse(text), centre, float(layout.uniform(-20, 20)), "trick", seat)
            )
        rec.cards.clear()
        if number == 5:
            rec.cards.extend(placed[:3])
            rec.hands(
                [(s, p.centre) for s, p in zip((1, 2, 3), placed, strict=False)], f"trick {number}: three lay"
            )
            rec.still(f"trick {number}: seat 4 is late")
            rec.cards.append(placed[3])
            rec.hands([(4, placed[3].centre)], f"trick {number}: seat 4 lays")
        else:
            rec.cards.extend(placed)
            rec.hands([(s, p.centre) for s, p in enumerate(placed, start=1)], f"trick {number}: all lay")
        rec.still(f"trick {number} revealed", blurred_first=number == 3)
        game.apply(_scanned(Trick(tuple(StdCard.parse(t) for t in trick))))
        if number == 4:
            rec.wait(2.5, "the players count their tricks")
    rec.cards.clear()
    rec.hands([(1, SEAT_SPOTS[1]), (3, SEAT_SPOTS[3])], "the deal is over: the table is cleared")
    rec.still("empty table")
    return rec, game, []


# --- folders that must yield no event --------------------------------------------------------------


def _pile_of(layout: np.random.Generator, texts: Sequence[str]) -> list[PlacedCard]:
    return [
        PlacedCard(
            OctoCard.parse(t),
            (320.0 + layout.uniform(-14, 14), 180.0 + layout.uniform(-10, 10)),
            float(layout.uniform(-25, 25)),
            "pile",
        )
        for t in texts
    ]


def idle_table(noise: int | None = None) -> tuple[Recorder, Game, list[Event]]:
    """A pile lying still for half a minute while the room light dims a little."""
    rec = Recorder("idle-table", 3, _scene(TableKind.GREY, 31), _noise(31, noise))
    rec.cards = _pile_of(np.random.default_rng(3), ("2", "6", "+2"))
    rec.still("a pile at rest")
    for seconds, brightness in ((5.0, 1.0), (10.0, 0.97), (15.0, 0.95)):
        dimmed = replace(rec.base.lighting, brightness=brightness)
        rec.wait(seconds, f"still at rest, light {brightness}", lighting=dimmed)
    rec.still("still at rest", count=2, dt=1.0)
    return rec, Game.new(rules_for("octoplus"), 3), []


def hands_waving(noise: int | None = None) -> tuple[Recorder, Game, list[Event]]:
    """Hands wave over a pile and one rests over it for a moment; nothing is played."""
    rec = Recorder("hands-waving", 3, _scene(TableKind.GREY, 41), _noise(41, noise))
    rec.cards = _pile_of(np.random.default_rng(4), ("5", "1", "-2"))
    rec.still("a pile at rest")
    for seat, point in ((1, (200.0, 250.0)), (2, (330.0, 170.0)), (3, (450.0, 120.0)), (1, (380.0, 200.0))):
        rec.hands([(seat, point)], f"seat {seat} waves", dt=0.15)
    rec.hands([(2, (320.0, 180.0)), (3, (420.0, 150.0))], "two hands at once", dt=0.15)
    for _ in range(3):
        rec.hands([(2, (330.0, 185.0))], "a hand rests over the pile", dt=0.1)
    rec.still("the hands are gone", count=STILL + 2)
    return rec, Game.new(rules_for("octoplus"), 3), []


def card_nudged(noise: int | None = None) -> tuple[Recorder, Game, list[Event]]:
    """The top card of a pile is pushed a little and turned, then the table rests: no card was played."""
    rec = Recorder("card-nudged", 3, _scene(TableKind.GREY, 51), _noise(51, noise))
    rec.cards = _pile_of(np.random.default_rng(6), ("3", "7", "4"))
    rec.still("a pile at rest")
    top = rec.cards[-1]
    rec.cards[-1] = replace(
        top, centre=(top.centre[0] + 9.0, top.centre[1] + 5.0), angle_deg=top.angle_deg + 5.0
    )
    rec.hands([(1, rec.cards[-1].centre)], "seat 1 straightens the top card")
    rec.still("the pile at rest again", count=STILL + 2)
    return rec, Game.new(rules_for("octoplus"), 3), []


# --- the page's built-in demo ----------------------------------------------------------------------

DEMO = ROOT / "webui" / "data" / "demo"
"""Where the demo goes: ``scanner.sources.DEFAULT_DEMO_DIR``, played when no camera is found."""


DEMO_TURNS: tuple[tuple[int, tuple[str, ...], float], ...] = (
    (1, ("2", "1"), 3.8),
    (2, ("4",), 4.0),
    (3, ("+2",), 3.5),
    (1, ("1",), 4.2),
    (2, ("2", "3"), 3.8),
    (3, ("-2",), 4.5),
    (1, ("5", "4"), 4.0),
    (2, ("P",), 3.5),
    (3, ("1", "2"), 4.0),
    (1, ("3", "-2", "1"), 3.6),
)
"""The demo's turns after the turn-up 3: the seat, the cards it lays in order, and the seconds the
table then rests (a +2 or a Pass ends the turn at once, other turns end by the idle time of 3 s).
No turn makes exactly 8 (a give would wait for a person), no card lands near one of the same face
and seat 1 lays its eighth card last."""
DEMO_HANDS: dict[int, tuple[tuple[str, Point], ...]] = {
    2: (("7", (75.0, 80.0)), ("6", (160.0, 80.0)), ("3", (75.0, 200.0)), ("2", (160.0, 200.0))),
    3: (("7", (565.0, 80.0)), ("6", (480.0, 80.0)), ("4", (565.0, 200.0)), ("5", (480.0, 200.0))),
}
"""The hands left when seat 1 is out, laid face up in their seats' zones (seat 2 left, seat 3 right),
away from the pile and the frame's edges: seat 2's 18 is void, seat 3 scores 22."""


def demo() -> tuple[Recorder, Game, list[Event]]:
    """A whole short round of Octoplus for three at a human pace, needing nobody: turn-up 3; turns of
    one to three cards; a +2 answered by a number; a -2; a Pass; seat 1 lays its last cards and is
    out; seats 2 and 3 show their hands (seat 2's 18 is void); the table is cleared."""
    rec = Recorder("demo", 3, _scene(TableKind.GREY, 61), np.random.default_rng(61))
    layout = np.random.default_rng(8)
    game = Game.new(rules_for("octoplus"), 3)

    def lay(seat: int, text: str) -> None:
        centre = (320.0 + layout.uniform(-14, 14), 180.0 + layout.uniform(-10, 10))
        card = PlacedCard(OctoCard.parse(text), centre, float(layout.uniform(-25, 25)), "pile", seat)
        rec.lay(seat, card, f"seat {seat} lays {text} on the pile")

    rec.still("empty table")
    rec.wait(2.0, "seat 1 shuffles and deals")
    lay(1, "3")
    game.apply(_scanned(TurnUp(OctoCard.number(3))))
    rec.wait(2.5, "the players sort their hands")
    for seat, texts, pause in DEMO_TURNS:
        for text in texts:
            lay(seat, text)
        game.apply(_scanned(Play(seat, _octo(*texts))))
        single = texts[-1] in ("+2", "P")
        rec.wait(pause, "the next seat thinks" if single else f"seat {seat} is done: the idle time ends it")
    for seat, cards in DEMO_HANDS.items():
        for text, (x, y) in cards:
            angle = float(layout.uniform(-6, 6))
            rec.cards.append(PlacedCard(OctoCard.parse(text), (x, y), angle, "hand", seat))
    rec.hands([(2, (120.0, 140.0)), (3, (520.0, 140.0))], "seats 2 and 3 lay their hands face up")
    rec.still("hands shown")
    for seat, cards in DEMO_HANDS.items():
        game.apply(_scanned(Reveal(seat, _octo(*(text for text, _ in cards)))))
    rec.wait(6.0, "everyone reads the score")
    rec.cards.clear()
    rec.hands([(1, (320.0, 180.0)), (2, (120.0, 140.0))], "the table is cleared")
    rec.still("empty table")
    rec.wait(3.0, "the table rests")
    return rec, game, []


GAMES: dict[str, Callable[[int | None], tuple[Recorder, Game, list[Event]]]] = {
    "octoplus-3p-round": octoplus_round,
    "oktris-4p-deal": oktris_deal,
    "idle-table": idle_table,
    "hands-waving": hands_waving,
    "card-nudged": card_nudged,
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"where the folders go (default {OUT})")
    parser.add_argument(
        "--demo", type=Path, default=DEMO, help=f"where the page's demo goes (default {DEMO})"
    )
    parser.add_argument("--only", choices=[*sorted(GAMES), "demo"], help="render one folder only")
    parser.add_argument(
        "--quality",
        type=int,
        choices=range(1, 101),
        metavar="1..100",
        help="JPEG quality of every folder instead of its own (to try one; commit the defaults)",
    )
    parser.add_argument(
        "--noise-seed",
        type=int,
        help="seed of every folder's camera noise instead of its own (same cards and moves; to try one)",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    for name, make in GAMES.items():
        if args.only and name != args.only:
            continue
        rec, game, people = make(args.noise_seed)
        rec.quality = args.quality or rec.quality
        rec.write(args.out / name, game, people)
    if args.only in (None, "demo"):
        rec, game, people = demo()
        rec.quality = args.quality or DEMO_QUALITY
        rec.write(args.demo, game, people)
    total = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    log.info("all recorded games (demo not included): %.2f MB", total / 1e6)
    return 0


if __name__ == "__main__":
    sys.exit(main())
