"""``octotable serve``: run the table companion (the live page, manual entry and the camera)."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

HELP = "run the table companion: the live page on every phone, manual entry and the camera"

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the options of ``serve``."""
    parser.add_argument(
        "--source",
        default="auto",
        help="auto|picamera|opencv:N|replay:DIR|none (default auto: the Pi camera, "
        "else OpenCV device 0, else the built-in demo)",
    )
    parser.add_argument(
        "--game", choices=("octoplus", "oktris"), default="octoplus", help="game of a new table"
    )
    parser.add_argument("--players", type=int, default=4, help="players of a new table (default 4)")
    parser.add_argument("--port", type=int, default=8088, help="TCP port (default 8088)")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: the LAN)")
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        help="folder of the event store, PIN and session key (default: the per-user data folder)",
    )
    parser.add_argument("--templates", type=Path, default=None, help="card templates folder of your deck")
    parser.add_argument("--calibration", type=Path, default=None, help="calibration file")
    parser.add_argument("--threads", type=int, default=None, help="server threads (default 32)")
    parser.add_argument(
        "--confirm-readings",
        action="store_true",
        help="every camera reading waits for a person to confirm it (default: confident legal ones apply)",
    )
    parser.add_argument(
        "--done-button",
        type=int,
        default=None,
        metavar="GPIO",
        help="BCM GPIO pin of a push button (to ground) that ends the turn on the pile (Raspberry Pi)",
    )


def run(args: argparse.Namespace) -> int:
    """Start the server; returns 0 when stopped, 2 on bad options."""
    from webui.app import create_app
    from webui.buttons import ButtonError, gpio_button, terminal_key
    from webui.config import SERVER_THREADS, ServeConfig, default_data_dir
    from webui.context import EXTENSION, Table
    from webui.qr import page_url
    from webui.server import serve
    from webui.store import StoreError

    threads = args.threads or SERVER_THREADS
    try:
        config = ServeConfig(
            data_dir=args.data if args.data is not None else default_data_dir(),
            game=args.game,
            players=args.players,
            source=args.source,
            host=args.host,
            port=args.port,
            templates=args.templates,
            calibration=args.calibration,
            camera=args.source != "none",
            max_streams=max(1, threads - 8),
            auto_accept=not args.confirm_readings,
        )
        app = create_app(config)
    except (ValueError, StoreError, OSError) as error:
        log.error("cannot start: %s", error)
        return 2
    table: Table = app.extensions[EXTENSION]
    button = None
    if table.camera is not None:
        if args.done_button is not None:
            try:
                button = gpio_button(args.done_button, table.camera.signal_done)
            except ButtonError as error:
                log.error("cannot start: %s", error)
                return 2
        if sys.stdin is not None and sys.stdin.isatty():
            terminal_key(sys.stdin, table.camera.signal_done)
            print("octotable: press Enter here to end the turn on the pile")
    print(f"octotable: open {page_url(config.host, config.port)} on every phone at the table")
    print(f"octotable: table PIN {table.pin} (also shown on /setup on this machine)")
    print(f"octotable: event store {table.service.store.path}")
    try:
        serve(app, config.host, config.port, threads)
    finally:
        if button is not None:
            button.close()
        if table.camera is not None:
            table.camera.stop()
        table.service.store.close()
    return 0
