"""The service's app, loaded slowly (``SLOW_LOAD_SECONDS``, default 8): a worker that takes
this long to load it, for tests/api/test_worker_restart.py."""

import os
import time

time.sleep(float(os.environ.get("SLOW_LOAD_SECONDS", "8")))

from wsgi import app  # noqa: E402 - after the wait, which is the point

__all__ = ["app"]
