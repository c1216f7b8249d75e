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
        # Not frozen: the count does not grow by them. (It may shrink: a frozen object that
        # another thread of the process lets go of leaves the permanent generation, and run
        # after the whole suite this test freezes every object the suite left behind.)
        assert gc.get_freeze_count() <= frozen
        assert len(made_later) == 1000
    finally:
        gc.unfreeze()
    assert gc.get_freeze_count() == 0
