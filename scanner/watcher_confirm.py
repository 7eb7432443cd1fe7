"""Confirming a view: the scanner's readings of several still frames combined into one.

Detections of consecutive frames are tied into tracks by overlap (IoU); a track
seen in too few frames is dropped; each kept track's card is the one most
frames agree on (confidence breaks ties; ``None`` only when no frame identified it), and
its confidence is the agreeing frames' confidence spread over every frame that
identified the card as something, so a disagreement lowers it while a frame that
could not read the card at all (a blurred one) does not.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from scanner.observations import Candidate
from scanner.types import Detection, Point, Quad
from scanner.watcher_image import iou
from scanner.watcher_params import WatcherParams
from scorer.cards import Card


@dataclass(frozen=True)
class SeenCard:
    """A card of a confirmed view."""

    card: Card | None
    confidence: float
    candidates: tuple[Candidate, ...]
    corners: Quad
    top: bool

    @property
    def centre(self) -> Point:
        return (sum(p[0] for p in self.corners) / 4.0, sum(p[1] for p in self.corners) / 4.0)


def _track(readings: Sequence[Sequence[Detection]], params: WatcherParams) -> list[list[Detection]]:
    tracks: list[list[Detection]] = []
    for detections in readings:
        taken: set[int] = set()
        pairs = sorted(
            (
                (iou(track[-1].corners, det.corners), t, d)
                for t, track in enumerate(tracks)
                for d, det in enumerate(detections)
            ),
            reverse=True,
        )
        matched: set[int] = set()
        for overlap, t, d in pairs:
            if overlap < params.track_iou:
                break
            if t in taken or d in matched:
                continue
            tracks[t].append(detections[d])
            taken.add(t)
            matched.add(d)
        tracks.extend([det] for d, det in enumerate(detections) if d not in matched)
    return tracks


def _settle(track: list[Detection]) -> SeenCard:
    votes: dict[Card, list[float]] = {}
    scores: dict[Card, float] = {}
    for det in track:
        if det.card is not None:
            votes.setdefault(det.card, []).append(det.confidence)
            scores[det.card] = scores.get(det.card, 0.0) + det.confidence
        if det.runner_up is not None:
            scores[det.runner_up] = scores.get(det.runner_up, 0.0) + det.runner_up_confidence
    readings = sum(len(v) for v in votes.values())
    best: Card | None = None
    confidence = max(det.confidence for det in track) if not votes else 0.0
    if votes:
        best = max(votes, key=lambda card: (len(votes[card]), sum(votes[card])))
        confidence = sum(votes[best]) / readings
    candidates = tuple(
        sorted(((card, score / len(track)) for card, score in scores.items()), key=lambda c: -c[1])
    )
    last = track[-1]
    tops = sum(1 for det in track if det.top)
    return SeenCard(
        card=best,
        confidence=min(1.0, confidence) if best is not None else 0.0,
        candidates=candidates,
        corners=last.corners,
        top=tops * 2 >= len(track),
    )


def confirm(readings: Sequence[Sequence[Detection]], params: WatcherParams) -> tuple[SeenCard, ...]:
    """One view from the detections of several still frames (one sequence per frame).

    Returns the confirmed cards, largest confidence first.
    """
    frames = len(readings)
    if frames == 0:
        return ()
    needed = max(1, math.ceil(params.track_fraction * frames - 1e-9))
    kept = [_settle(track) for track in _track(readings, params) if len(track) >= needed]
    return tuple(sorted(kept, key=lambda seen: -seen.confidence))
