"""gunicorn settings; gunicorn reads ./gunicorn.conf.py from its working directory, so
``make serve`` and the tests' real servers use it. Command-line flags still win."""

import os
import shutil
import tempfile

# The metrics of every worker (and of a deliverer given the same directory) are added up from
# files in this directory (prometheus-client's multiprocess mode, service/metrics.py). It
# must be set before prometheus_client is first imported (below, with the worker), and start
# empty: `make serve` empties its own; without one given, the server makes a fresh one and
# removes it when it stops.
_made_metrics_dir = None
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    _made_metrics_dir = tempfile.mkdtemp(prefix="solo-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = _made_metrics_dir

import gunicorn.http.wsgi  # noqa: E402 - after the metrics' directory is set
from gunicorn.glogging import Logger  # noqa: E402
from prometheus_client import multiprocess  # noqa: E402

from service.http_worker import (  # noqa: E402
    BufferingThreadWorker,
    migrate_queued_connections,
)

# The Server header names no product and no version (HTTP/1 and HTTP/2 both read this).
gunicorn.http.wsgi.SERVER = "solo"


class AppAccessLog(Logger):
    """The app writes the access log itself (one JSON line per request, with its request id:
    ``service/middleware/security.py``); gunicorn's own line would repeat it in another format, so
    it is dropped even where ``--access-logfile`` is given. Errors are logged as usual."""

    def access(self, resp, req, environ, request_time):
        return


logger_class = AppAccessLog

# Request size limits at the socket, before the app: the request line, the number of headers
# and each header's size (gunicorn's defaults, stated). Bodies are capped by the app (64 KiB).
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190

# No runtime control socket (gunicorn >= 25.1 opens one in $HOME by default): one interface
# less to guard, and several servers on one machine (tests, soak) do not share its path.
control_socket_disable = True

# Threads, with every request gathered by the worker's event loop before a thread takes it
# (service/http_worker.py): a slow or vanished phone costs a socket, never a worker. Measured
# against 200 connections sending their headers slowly: sync workers left a normal request
# unanswered for 60 s; plain gthread for as long as its threads were held; this answers it at
# once (tests/api/test_slow_clients.py, docs/scaling.md).
worker_class = BufferingThreadWorker
# Per worker: threads for requests (the app is thread-safe: sessions and pinned connections
# are per thread, the version feed has its own), sockets for the rest. On SQLite a request is
# the worker's own CPU from end to end (the database is a library in the process), and a
# worker's threads only take the GIL from each other: 2 threads recorded 1.25-1.35x the hands
# of 4, at less CPU a hand (bench.writes --threads, docs/performance.md). On PostgreSQL a
# thread waits on the server's round trips, and 4 keep the worker busy meanwhile.
threads = int(
    os.environ.get("WEB_THREADS")
    or ("4" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "2")
)
# (WEB_CONNECTIONS: each held stream is one of them, besides the kept-alive connections.)
worker_connections = int(os.environ.get("WEB_CONNECTIONS", "1000"))
# Each worker listens on a socket of its own (SO_REUSEPORT; gunicorn 27 then opens the
# listening sockets in each worker, not in the arbiter), and the kernel spreads new connections
# across them by a hash of their addresses. With one shared socket the worker whose event loop
# woke first took the connection, and wrk's 16 kept-alive connections split 1/15 between two
# workers in some runs (bench/spread.py measures the split both ways). A worker that stops
# drops the connections still queued on its socket, not yet accepted (the clients retry, as
# after any reset); and SO_REUSEPORT lets another process of the same user bind the same
# port beside us, where one shared socket would refuse it. WEB_REUSE_PORT=0: one shared socket.
reuse_port = os.environ.get("WEB_REUSE_PORT", "1") != "0"
# Connections the kernel queues on a listening socket before the worker accepts them (capped
# by net.core.somaxconn): after a restart every phone of a club night connects at once, and a
# queue that overflows drops their SYNs, which their kernels send again only 1, 3, 7… s later.
backlog = int(os.environ.get("WEB_BACKLOG", "4096"))
# An idle kept-alive connection is closed after this long; phones poll every few seconds.
keepalive = 5
# A worker whose event loop has not reported for this long is replaced. Request work is
# bounded far below it (PostgreSQL's statement_timeout, SQLite's busy timeout).
timeout = 30
graceful_timeout = 20


def on_starting(server):
    """With a socket per worker, the connections queued on a killed worker's socket (accepted by
    the kernel, not yet by the worker) go to another worker's socket, not reset
    (``http_worker.migrate_queued_connections``: ``net.ipv4.tcp_migrate_req``, set where the
    process may; docs/scaling.md)."""
    if reuse_port:
        done = migrate_queued_connections()
        if done in ("on", "set"):
            server.log.info("net.ipv4.tcp_migrate_req: %s", done)
        else:
            server.log.warning(
                "net.ipv4.tcp_migrate_req is %s: the connections queued on a killed worker's "
                "socket are reset (set it to 1: docs/operations.md)",
                done,
            )


def post_worker_init(worker):
    """Move everything the worker loaded with the app (about 160,000 objects the garbage
    collector tracks: the app, its schemas, SQLAlchemy's tables, the catalogs) out of the
    collector's reach, as the gc module's documentation suggests for servers. Scanned in each
    full collection, they cost a worker a pause of 100-190 ms every few thousand requests,
    taken wherever it fell, often with SQLite's writer lock held, so every writer of the
    instance waited for it (measured with gc.callbacks under bench.peer_writes' load; after
    the freeze no full collection in the same run, the young ones' longest 0.5-5 ms instead
    of 26-33 ms). What the worker makes later is collected as usual."""
    import gc

    gc.collect()
    gc.freeze()


def child_exit(server, worker):
    """A worker gone: its live gauges (the streams it held) no longer count."""
    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    if _made_metrics_dir is not None:
        shutil.rmtree(_made_metrics_dir, ignore_errors=True)
