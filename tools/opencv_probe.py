"""Fingerprints of the OpenCV calls octotable's pictures depend on, to compare two OpenCV builds.

Run it once in each environment and compare the two outputs line by line::

    python tools/opencv_probe.py > probe-a.txt      # with one opencv-python-headless
    python tools/opencv_probe.py > probe-b.txt      # with another
    diff probe-a.txt probe-b.txt

Each line names one call on fixed inputs (a committed fixture scene, a seeded noise image,
drawn text) with a digest of its output, and for images the mean and a few pixels, so that a
difference shows which call changed and roughly how much.  The calls are the ones the scanner
runs on a frame (decoding, resizing, blurs, warps, colour conversion, template matching) and
the ones the card and scene renderer draws with (text, anti-aliased shapes, warps).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SCENE = ROOT / "tests" / "fixtures" / "scenes" / "scene_002.jpg"
TEXT = "10 K +2"


def _digest(value: object) -> str:
    if isinstance(value, tuple):
        return "+".join(_digest(v) for v in value)
    array = np.ascontiguousarray(np.asarray(value))
    text = hashlib.sha256(array.tobytes() + str((array.dtype, array.shape)).encode()).hexdigest()[:12]
    if array.dtype == np.uint8 and array.size > 16:
        return f"{text} mean={float(array.mean()):.4f}"
    return text


def _scale_about(size: float, cx: float, cy: float) -> np.ndarray:
    return np.array([[size, 0.0, cx * (1.0 - size)], [0.0, size, cy * (1.0 - size)]], np.float64)


def probes() -> dict[str, Callable[[], object]]:
    """The calls and their fixed inputs, by name."""
    frame = cv2.imread(str(SCENE), cv2.IMREAD_COLOR)
    if frame is None:
        raise SystemExit(f"{SCENE}: not a readable image")
    rng = np.random.default_rng(1)
    grey = cv2.GaussianBlur(rng.integers(0, 256, (280, 200), dtype=np.uint8), (0, 0), 1.5)
    quad = np.float32([[500.3, 200.7], [640.2, 210.1], [630.9, 405.5], [490.4, 395.2]])
    card = np.float32([[0, 0], [199, 0], [199, 279], [0, 279]])
    persp = cv2.getPerspectiveTransform(quad, card)
    ys, xs = np.mgrid[0:280, 0:200].astype(np.float32)

    def scaled(size: float) -> np.ndarray:
        matrix = _scale_about(size, 100, 140)
        linear, replicate = cv2.INTER_LINEAR, cv2.BORDER_REPLICATE
        return cv2.warpAffine(grey, matrix, (200, 280), flags=linear, borderMode=replicate)

    def text(font: int) -> np.ndarray:
        image = np.full((120, 300, 3), 235, np.uint8)
        cv2.putText(image, TEXT, (8, 90), font, 2.0, (20, 20, 200), 6, cv2.LINE_AA)
        return image

    def shapes() -> np.ndarray:
        image = np.full((200, 200), 235, np.uint8)
        cv2.circle(image, (100, 100), 60, 0, -1, cv2.LINE_AA)
        cv2.line(image, (5, 20), (190, 170), 128, 3, cv2.LINE_AA)
        cv2.ellipse(image, (100, 100), (70, 40), 30, 0, 360, 60, 2, cv2.LINE_AA)
        return image

    return {
        "imread jpeg": lambda: frame,
        "imencode jpeg q85": lambda: cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])[1],
        "resize area 1/3": lambda: cv2.resize(frame, (427, 240), interpolation=cv2.INTER_AREA),
        "resize linear": lambda: cv2.resize(frame, (427, 240), interpolation=cv2.INTER_LINEAR),
        "GaussianBlur 1.6": lambda: cv2.GaussianBlur(grey, (0, 0), 1.6),
        "cvtColor gray": lambda: cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY),
        "cvtColor lab": lambda: cv2.cvtColor(frame, cv2.COLOR_BGR2LAB),
        "Canny": lambda: cv2.Canny(grey, 30, 90),
        "matchTemplate ccoeff": lambda: cv2.matchTemplate(grey, grey[50:90, 40:80], cv2.TM_CCOEFF_NORMED),
        "warpPerspective linear (card cut)": lambda: cv2.warpPerspective(
            frame, persp, (200, 280), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        ),
        "warpAffine linear x0.9": lambda: scaled(0.9),
        "warpAffine linear x1.1": lambda: scaled(1.1),
        "remap linear float maps": lambda: cv2.remap(
            grey, xs * 0.93 + 3.3, ys * 0.91 + 2.1, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        ),
        "getTextSize duplex": lambda: np.array(cv2.getTextSize(TEXT, cv2.FONT_HERSHEY_DUPLEX, 2.0, 6)[0]),
        "putText duplex": lambda: text(cv2.FONT_HERSHEY_DUPLEX),
        "putText simplex": lambda: text(cv2.FONT_HERSHEY_SIMPLEX),
        "anti-aliased shapes": shapes,
    }


def main() -> int:
    print(f"opencv {cv2.__version__}")
    for name, call in probes().items():
        print(f"{name:<36} {_digest(call())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
