"""The README's screenshots can be made again: the script runs through every main screen."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest

from .screenshots import take
from .support import Network

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def test_the_screenshot_script_covers_the_main_screens(
    browser: Any, base_url: str, network: Network, tmp_path: Path
) -> None:
    shots = take(browser, base_url, network, tmp_path)
    assert [p.stem for p in shots] == [
        "1-start",
        "2-table",
        "10-sheet",
        "3-record",
        "4-preview",
        "5-correct",
        "6-conflict",
        "7-share",
        "8-settle",
        "9-tablet",
        "11-solo66",
        "12-dark",
    ]
    tablet = shots.pop(9)
    assert {png_size(p) for p in shots} == {(360, 640)}
    assert png_size(tablet) == (1024, 768)
