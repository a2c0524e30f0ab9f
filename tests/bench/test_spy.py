"""bench/spy.py sums a raw py-spy profile by the site's own frames."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from tests.conftest import BASE_DIR

_spec = importlib.util.spec_from_file_location("spy", BASE_DIR / "bench" / "spy.py")
assert _spec is not None and _spec.loader is not None
spy: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(spy)

RAW = (
    "run (threading.py:982);game_act (games/web/play_views.py:40);"
    "render_push (games/web/regions.py:88);render (django/template/base.py:170) 3\n"
    "run (threading.py:982);game_act (games/web/play_views.py:40);"
    "execute (psycopg/cursor.py:97) 1\n"
    "select (selectors.py:468) 1\n"
)


def test_a_sample_counts_for_every_app_frame_and_for_its_innermost_app_module(
    tmp_path: Path,
) -> None:
    raw = tmp_path / "daphne.txt"
    raw.write_text(RAW)
    text = spy.summary(raw)
    assert "5 samples" in text
    assert " 80.0%  game_act (games/web/play_views.py)" in text
    assert " 60.0%  render_push (games/web/regions.py)" in text
    innermost = text.split("== innermost app module (exclusive) ==")[1].split("==")[0]
    assert " 60.0%  games/web/regions.py" in innermost
    assert " 20.0%  games/web/play_views.py" in innermost
    assert " 20.0%  [no app frame] selectors.py" in innermost
