"""The Scanner facade: frame validation, a scanner that survives bad frames, detections."""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from scanner.find import other_way
from scanner.params import FindParams, ScannerParams
from scanner.scan import ScanInputError, Scanner, ScanResult, check_frame
from scanner.templates import Templates
from scorer.cards import DeckKind, StdCard

Frame = npt.NDArray[np.uint8]


def scene(angles: tuple[float, ...] = (0.0, 30.0), size: tuple[int, int] = (1280, 720)) -> Frame:
    """Plain white cards side by side on green felt."""
    w, h = size
    img = np.empty((h, w, 3), np.uint8)
    img[:] = (40, 110, 30)
    for i, angle in enumerate(angles):
        cx, cy = (i + 1) * w / (len(angles) + 1), h / 2
        short, long = 150.0, 150.0 * 88 / 63
        half = np.array([[-short, -long], [short, -long], [short, long], [-short, long]]) / 2
        a = math.radians(angle)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        cv2.fillConvexPoly(img, np.round(half @ rot.T + [cx, cy]).astype(np.int32), (245, 245, 245))
    return img


@pytest.fixture(scope="module")
def scanner() -> Scanner:
    return Scanner(DeckKind.OKTRIS)


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        ([[1, 2], [3, 4]], "numpy array, got list"),
        (np.zeros((100, 100, 3), np.float32), "uint8, got dtype float32"),
        (np.zeros((100, 100, 2), np.uint8), r"HxWx3 \(BGR\), got shape \(100, 100, 2\)"),
        (np.zeros((0, 0, 3), np.uint8), "at least 32x32"),
        (np.zeros((10, 500, 3), np.uint8), "at least 32x32"),
        (np.zeros((4, 4, 4, 3), np.uint8), "got shape"),
    ],
    ids=["list", "float", "two channels", "empty", "sliver", "4-d"],
)
def test_unreadable_frame_raises_scan_input_error_naming_the_problem(
    scanner: Scanner, frame: object, message: str
) -> None:
    with pytest.raises(ScanInputError, match=message):
        scanner.scan(frame)  # type: ignore[arg-type]


def test_scan_input_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        check_frame(None)


def test_grey_bgra_and_sliced_frames_are_accepted() -> None:
    bgr = scene()
    assert check_frame(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)).ndim == 2
    assert check_frame(cv2.cvtColor(bgr, cv2.COLOR_BGR2BGRA)).shape == bgr.shape
    sliced = bgr[:, ::2]
    assert check_frame(sliced).flags["C_CONTIGUOUS"]


def test_scanner_finds_every_card_and_reports_time(scanner: Scanner) -> None:
    result = scanner.scan(scene((0.0, 30.0, 75.0)))
    assert isinstance(result, ScanResult)
    assert len(result.detections) == 3
    assert all(d.top for d in result.detections)
    assert result.ms > 0.0
    assert result.error is None
    xs = sorted(d.centre[0] for d in result.detections)
    assert xs == pytest.approx([320, 640, 960], abs=3)


def test_blank_cards_are_found_but_not_identified(scanner: Scanner) -> None:
    result = scanner.scan(scene((10.0,)))
    assert len(result.detections) == 1
    assert result.detections[0].card is None


def test_long_running_scanner_survives_garbage_frames(scanner: Scanner) -> None:
    garbage: list[object] = [
        None,
        "frame.jpg",
        np.zeros((0,), np.uint8),
        np.full((720, 1280, 3), np.nan, np.float64),
        np.zeros((720, 1280, 5), np.uint8),
        np.zeros((3, 3), np.uint8),
        np.random.default_rng(0).integers(0, 256, (720, 1280, 3), dtype=np.uint8),
        np.full((720, 1280, 3), 255, np.uint8),
    ]
    for frame in garbage:
        result = scanner.scan_or_empty(frame)
        assert isinstance(result, ScanResult)
        if result.error is not None:
            assert result.detections == ()
    assert scanner.scan_or_empty(None).error is not None
    good = scanner.scan_or_empty(scene())
    assert good.error is None and len(good.detections) == 2


def test_scanner_with_missing_builtin_templates_still_finds_cards(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from scanner.templates import TemplateError

    def missing(deck: DeckKind) -> Templates:
        raise TemplateError(f"no templates for {deck.value}")

    monkeypatch.setattr(Templates, "builtin", staticmethod(missing))
    with caplog.at_level("WARNING"):
        s = Scanner(DeckKind.OCTOPLUS)
    assert "will not be identified" in caplog.text
    result = s.scan(scene())
    assert len(result.detections) == 2 and all(d.card is None for d in result.detections)


def test_scanner_uses_its_parameters() -> None:
    # A minimum card area above the cards' size finds nothing.
    params = ScannerParams(find=FindParams(min_card_area=0.2, max_card_area=0.6))
    assert Scanner(DeckKind.OKTRIS, params=params).scan(scene()).detections == ()


def test_scanner_params_refuse_a_card_size_the_identifier_cannot_read() -> None:
    with pytest.raises(ValueError, match="card_width"):
        ScannerParams(find=FindParams(card_width=100, card_height=140))


def test_grey_frame_is_scanned_like_a_colour_one(scanner: Scanner) -> None:
    grey = cv2.cvtColor(scene((0.0, 30.0)), cv2.COLOR_BGR2GRAY)
    result = scanner.scan(np.asarray(grey, np.uint8))
    assert len(result.detections) == 2


def test_failure_inside_the_pipeline_is_reported_not_raised(
    scanner: Scanner, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import scanner.scan as scan_module

    def broken(image: Frame, params: FindParams, work: object = None, scores: bool = True) -> list[object]:
        raise cv2.error("simulated failure")

    monkeypatch.setattr(scan_module, "find_cards", broken)
    with caplog.at_level("WARNING"):
        result = scanner.scan_or_empty(scene())
    assert result.detections == ()
    assert result.error is not None and "simulated failure" in result.error
    assert "frame skipped" in caplog.text


def test_a_card_that_looks_wider_than_long_is_read_the_other_way() -> None:
    """A card photographed at a slant (or a photo stretched across) can look wider than long:
    the finder's short sides are then the card's long ones, and it is read the other way too."""
    card = StdCard.parse("7H")
    face = Templates.builtin(DeckKind.OKTRIS).faces[card][0]
    frame = np.empty((720, 1280, 3), np.uint8)
    frame[:] = (40, 110, 30)
    wide = cv2.resize(face, (330, 290), interpolation=cv2.INTER_AREA)  # 1.14 times as wide as long
    frame[200:490, 500:830] = wide
    found = Scanner(DeckKind.OKTRIS).scan(frame).detections
    assert [d.card for d in found] == [card]
    off = ScannerParams(find=FindParams(square_aspect=1.0))
    assert [d.card for d in Scanner(DeckKind.OKTRIS, params=off).scan(frame).detections] == [None]


def test_only_a_nearly_square_outline_has_another_way() -> None:
    square = ((0.0, 0.0), (110.0, 0.0), (110.0, 100.0), (0.0, 100.0))
    card = ((0.0, 0.0), (63.0, 0.0), (63.0, 88.0), (0.0, 88.0))
    assert other_way(square, FindParams()) == (square[1], square[2], square[3], square[0])
    assert other_way(card, FindParams()) is None
    assert other_way(square, FindParams(square_aspect=1.05)) is None
