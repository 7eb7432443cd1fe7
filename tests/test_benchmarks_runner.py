"""``python -m benchmarks`` (``make bench``): every benchmark runs, whatever the others do."""

from __future__ import annotations

import sys

import pytest

from benchmarks import __main__ as runner


def test_every_named_benchmark_runs_with_no_arguments_and_a_failure_is_reported(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ran: list[tuple[str, list[str]]] = []

    def run_module(name: str, run_name: str | None = None) -> None:
        ran.append((name, list(sys.argv)))
        if name.endswith("quits"):
            raise SystemExit(0)  # a command that exits as commands do
        if name.endswith("fails"):
            raise SystemExit(2)
        if name.endswith("breaks"):
            raise RuntimeError("broken")

    monkeypatch.setattr("runpy.run_module", run_module)
    monkeypatch.setattr(sys, "argv", ["benchmarks", "quits", "fails", "breaks", "last"])
    code = runner.main(["quits", "fails", "breaks", "last"])
    assert [name for name, _ in ran] == [f"benchmarks.{n}" for n in ("quits", "fails", "breaks", "last")]
    assert all(argv == [name] for name, argv in ran)  # the runner's own arguments are not passed on
    assert sys.argv == ["benchmarks", "quits", "fails", "breaks", "last"]
    assert code == 1
    err = capsys.readouterr().err
    assert "fails (exit 2)" in err and "breaks (RuntimeError)" in err and "quits" not in err.split(":")[-1]


def test_a_run_where_every_benchmark_succeeds_exits_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("runpy.run_module", lambda name, run_name=None: None)
    assert runner.main(["one", "two"]) == 0
