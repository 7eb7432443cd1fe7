"""A small score chart as SVG, rendered on the server.

One line per player: the running total after each finished round (Octoplus) or
deal (Oktris), starting at 0, with the current total (adjustments and a deal in
progress included) as the last point.  Colours come from the page's CSS
classes ``seat-1`` .. ``seat-8`` so the chart follows light and dark mode.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from scorer.sheet import ScoreSheet

WIDTH = 320
HEIGHT = 160
PAD = 24


def running_totals(sheet: ScoreSheet) -> list[list[int]]:
    """Per player, the total after each round: ``[0, r1, r1+r2, ..., current]``."""
    lines: list[list[int]] = []
    for seat in range(len(sheet.players)):
        points = [0]
        for row in sheet.rounds:
            points.append(points[-1] + row[seat].points)
        if sheet.totals[seat] != points[-1] or len(points) == 1:
            points.append(sheet.totals[seat])
        lines.append(points)
    length = max(len(line) for line in lines) if lines else 0
    for line in lines:
        line.extend([line[-1]] * (length - len(line)))
    return lines


def _scale(values: Sequence[int], low: int, high: int, size: int) -> list[float]:
    span = max(1, high - low)
    return [PAD + (size - 2 * PAD) * (value - low) / span for value in values]


def score_chart_svg(sheet: ScoreSheet, goal: int | None = None) -> str:
    """The chart as a standalone ``<svg>`` element (text); ``goal`` draws a dashed line (88)
    once some total has come at least half way to it."""
    lines = running_totals(sheet)
    steps = max((len(line) for line in lines), default=1)
    values = [value for line in lines for value in line] + [0]
    if goal is not None and max(values) < goal // 2:
        goal = None  # far away: drawing it would flatten the lines
    low, high = min(values), max(values)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="Score chart of {escape(sheet.game)}">',
        f'<line class="axis" x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}"/>',
    ]

    def y_of(value: int) -> float:
        return HEIGHT - _scale([value], low, high, HEIGHT)[0]

    if goal is not None:
        y = y_of(goal)
        parts.append(f'<line class="goal" x1="{PAD}" y1="{y:.1f}" x2="{WIDTH - PAD}" y2="{y:.1f}"/>')
        parts.append(f'<text class="label" x="{WIDTH - PAD + 2}" y="{y + 4:.1f}">{goal}</text>')
    for value in sorted({low, high}):
        parts.append(f'<text class="label" x="2" y="{y_of(value) + 4:.1f}">{value}</text>')
    xs = [PAD + (WIDTH - 2 * PAD) * i / max(1, steps - 1) for i in range(steps)]
    for seat, line in enumerate(lines, start=1):
        points = " ".join(f"{x:.1f},{y_of(v):.1f}" for x, v in zip(xs, line, strict=False))
        name = escape(sheet.players[seat - 1])
        parts.append(f'<polyline class="seat-{seat}" points="{points}"><title>{name}</title></polyline>')
        parts.append(
            f'<circle class="seat-{seat}" cx="{xs[len(line) - 1]:.1f}" cy="{y_of(line[-1]):.1f}" r="3"/>'
        )
    parts.append("</svg>")
    return "".join(parts)
