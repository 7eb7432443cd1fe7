"""The finder's work image and side refinement, checked against their definitions."""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from scanner.find_geometry import refine
from scanner.find_work import make_faint, make_work
from scanner.params import FindParams

PARAMS = FindParams()
FloatArray = npt.NDArray[np.float64]


def _noisy_scene(seed: int) -> npt.NDArray[np.uint8]:
    """A 1280x720 frame: coloured blotches (tables of any colour), light and grey patches, noise."""
    rng = np.random.default_rng(seed)
    img = np.empty((720, 1280, 3), np.uint8)
    img[:] = rng.integers(0, 256, 3)
    for _ in range(12):
        x, y = int(rng.integers(0, 1200)), int(rng.integers(0, 650))
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        w, h = int(rng.integers(30, 300)), int(rng.integers(30, 300))
        cv2.rectangle(img, (x, y), (x + w, y + h), colour, -1)
    cv2.rectangle(img, (500, 200), (640, 400), (235, 235, 235), -1)
    noise = rng.normal(0, 6, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def test_work_image_colourless_pixels_are_those_of_small_lab_chroma() -> None:
    for seed in (1, 2):
        img = _noisy_scene(seed)
        work = make_work(img, PARAMS)
        small = cv2.resize(img, (640, 360), interpolation=cv2.INTER_AREA)
        lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.int16)
        chroma = np.maximum(np.abs(lab[..., 1] - 128), np.abs(lab[..., 2] - 128))
        expected = np.where(chroma <= PARAMS.max_chroma, 255, 0).astype(np.uint8)
        assert 0 < np.count_nonzero(expected) < expected.size
        assert np.array_equal(work.colourless, expected)
        assert np.array_equal(work.grey, lab[..., 0].astype(np.uint8))


def test_work_image_gradients_are_the_sobel_derivatives_of_the_smoothed_grey() -> None:
    img = _noisy_scene(3)
    work = make_work(img, PARAMS)
    smooth = cv2.GaussianBlur(work.grey, (3, 3), 0)
    assert work.gx.dtype == np.int16 and work.gy.dtype == np.int16
    assert np.array_equal(work.gx, cv2.Sobel(smooth, cv2.CV_16S, 1, 0, ksize=3))
    assert np.array_equal(work.gy, cv2.Sobel(smooth, cv2.CV_16S, 0, 1, ksize=3))
    assert np.count_nonzero(work.gx) > 0


def test_work_image_split_is_the_card_pixels_less_the_widened_fine_edges() -> None:
    img = np.empty((720, 1280, 3), np.uint8)
    img[:] = (40, 100, 30)
    cv2.rectangle(img, (400, 200), (600, 480), (235, 235, 235), -1)
    cv2.rectangle(img, (520, 260), (720, 540), (235, 235, 235), -1)
    cv2.rectangle(img, (520, 260), (720, 540), (150, 150, 150), 3)  # the upper card's shadowed rim
    work = make_work(img, PARAMS)
    fine_widened = cv2.dilate(
        cv2.Canny(cv2.GaussianBlur(work.grey, (3, 3), 0), PARAMS.split_canny_low, PARAMS.split_canny_high),
        cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3)),
    )
    expected = np.where((work.mask > 0) & (fine_widened == 0), 255, 0).astype(np.uint8)
    assert np.array_equal(work.split, expected)
    # the rim cuts the card pixels into the visible parts of the two cards
    count, _labels = cv2.connectedComponents(work.split, connectivity=4)
    assert count - 1 >= 2


def test_work_image_regions_and_faint_edges_are_those_of_canny_on_the_denoised_grey() -> None:
    for seed in (5, 6):
        img = _noisy_scene(seed)
        img[2:8, 200:1000] = img[200:600, 2:8] = 250  # light lines by the border, where its kind matters
        work = make_work(img, PARAMS)
        blurred = cv2.medianBlur(work.grey, PARAMS.denoise_kernel)
        assert np.array_equal(work.blurred, blurred)
        edges = cv2.Canny(blurred, PARAMS.canny_low, PARAMS.canny_high)
        assert 0 < np.count_nonzero(edges) < edges.size // 4
        expected = cv2.bitwise_not(cv2.dilate(edges, np.ones((3, 3), np.uint8)))
        assert np.array_equal(work.regions, expected)
        faint = make_faint(work, PARAMS)
        faint_edges = cv2.Canny(blurred, PARAMS.faint_canny_low, PARAMS.faint_canny_high)
        assert np.array_equal(faint.edges, faint_edges)


def test_work_image_fine_edges_in_a_card_box_are_canny_of_that_box() -> None:
    img = np.empty((720, 1280, 3), np.uint8)
    img[:] = (40, 100, 30)
    cv2.rectangle(img, (400, 200), (600, 480), (235, 235, 235), -1)
    cv2.rectangle(img, (470, 300), (560, 420), (170, 170, 170), 2)  # a print on the card
    x, y, w, h = cv2.boundingRect(make_work(img, PARAMS).union_outlines[0])
    pad = PARAMS.fine_pad
    box = (slice(y - pad, y + h + pad), slice(x - pad, x + w + pad))
    # dark lines on the table just inside the box's border, where a crop's own border matters
    img[2 * (y - pad + 1) : 2 * (y - pad + 2), 300:700] = 20
    img[300:600, 2 * (x - pad + 1) : 2 * (x - pad + 2)] = 20
    work = make_work(img, PARAMS)
    assert cv2.boundingRect(work.union_outlines[0]) == (x, y, w, h)
    smooth = cv2.GaussianBlur(work.grey, (3, 3), 0)
    expected = cv2.Canny(smooth[box], PARAMS.split_canny_low, PARAMS.split_canny_high)
    assert np.count_nonzero(expected[:3]) > 0 and np.count_nonzero(expected[:, :3]) > 0
    assert np.array_equal(work.fine[box], expected)
    assert np.count_nonzero(work.fine) == np.count_nonzero(expected)  # nothing outside the box


def _rectangle_frame(box: tuple[int, int, int, int]) -> npt.NDArray[np.uint8]:
    grey = np.full((300, 400), 60, np.uint8)
    x0, y0, x1, y1 = box
    grey[y0:y1, x0:x1] = 220
    return grey


def _turned(quad: FloatArray, degrees: float) -> FloatArray:
    centre = quad.mean(axis=0)
    a = math.radians(degrees)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return np.asarray((quad - centre) @ rot.T + centre, dtype=np.float64)


def test_refine_snaps_every_side_of_a_rough_quad_to_the_light_to_dark_step() -> None:
    grey = _rectangle_frame((100, 60, 260, 240))
    truth = np.array([[100.0, 60.0], [259.0, 60.0], [259.0, 239.0], [100.0, 239.0]])
    rough = _turned(truth, 1.5) + np.array([3.0, -2.0])
    out = refine(rough, grey, 8, 0.5, 12.0)
    before = np.abs(rough - truth).max()
    after = np.abs(out - truth).max()
    assert before > 3.0
    assert after < 1.0


def test_refine_keeps_a_side_that_shows_no_step() -> None:
    grey = _rectangle_frame((100, 60, 260, 240))
    grey[:, 260:] = 220  # the right side runs off into light: no step there
    rough = np.array([[102.0, 62.0], [300.0, 62.0], [300.0, 238.0], [102.0, 238.0]])
    out = refine(rough, grey, 6, 0.5, 12.0)
    assert abs(out[0, 0] - 100.0) < 1.0 and abs(out[3, 0] - 100.0) < 1.0  # left side snapped
    assert abs(out[0, 1] - 60.0) < 1.0  # top side snapped
    # the right-hand corners move only along the snapped top and bottom sides
    assert abs(out[1, 0] - 300.0) < 1.0 and abs(out[2, 0] - 300.0) < 1.0


def test_refine_leaves_a_quad_alone_without_radius_or_sides() -> None:
    grey = _rectangle_frame((100, 60, 260, 240))
    rough = np.array([[102.0, 62.0], [258.0, 62.0], [258.0, 238.0], [102.0, 238.0]])
    assert np.array_equal(refine(rough, grey, 0, 0.5, 12.0), rough)
    tiny = np.array([[150.0, 150.0], [151.0, 150.0], [151.0, 151.0], [150.0, 151.0]])
    assert np.array_equal(refine(tiny, grey, 8, 0.5, 12.0), tiny)


def test_refine_keeps_a_side_whose_probes_leave_the_image() -> None:
    # the rectangle's left side is 5 pixels in from the image's edge; probes of radius 8 reach past it
    grey = _rectangle_frame((5, 60, 260, 240))
    rough = np.array([[7.0, 62.0], [258.0, 62.0], [258.0, 238.0], [7.0, 238.0]])
    out = refine(rough, grey, 8, 0.5, 12.0)
    assert abs(out[1, 0] - 259.0) < 1.0 and abs(out[1, 1] - 60.0) < 1.0  # a corner of sides in view
    assert abs(out[0, 0] - 7.0) < 1e-9 and abs(out[3, 0] - 7.0) < 1e-9  # the left side kept its place
    # inside the image the same left side snaps to its step
    inside = refine(rough + np.array([20.0, 0.0]), _rectangle_frame((25, 60, 280, 240)), 8, 0.5, 12.0)
    assert abs(inside[0, 0] - 25.0) < 1.0
