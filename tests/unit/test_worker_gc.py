"""A worker freezes what it loaded with the app (gunicorn.conf.py's post_worker_init), so that
the garbage collector's full collections no longer scan it."""

import gc
import runpy
from pathlib import Path

CONFIG = Path(__file__).resolve().parents[2] / "gunicorn.conf.py"


def test_a_worker_freezes_what_it_loaded_and_not_what_it_makes_later() -> None:
    hooks = runpy.run_path(str(CONFIG))
    assert gc.get_freeze_count() == 0
    loaded = [[] for _ in range(1000)]  # lists are tracked by the collector, as the app's are
    try:
        hooks["post_worker_init"](None)
        frozen = gc.get_freeze_count()
        assert frozen >= len(loaded)
        made_later = [[] for _ in range(1000)]
        assert gc.get_freeze_count() == frozen
        assert len(made_later) == 1000
    finally:
        gc.unfreeze()
    assert gc.get_freeze_count() == 0
