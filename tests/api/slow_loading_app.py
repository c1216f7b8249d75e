"""The service's app, loaded slowly (``SLOW_LOAD_SECONDS``, default 8): a worker that takes
this long to load it, for tests/api/test_worker_restart.py. With ``SLOW_LOAD_WHEN`` (a path),
only a worker started while that file exists loads slowly: a replacement, not the first
workers."""

import os
import time

if os.path.exists(os.environ.get("SLOW_LOAD_WHEN", os.curdir)):
    time.sleep(float(os.environ.get("SLOW_LOAD_SECONDS", "8")))

from wsgi import app  # noqa: E402 - after the wait, which is the point

__all__ = ["app"]
