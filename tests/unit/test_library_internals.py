"""The members of gunicorn and of ``limits`` that the service overrides or uses without their
being documented (``service/stream_hub.py``, ``service/http_worker.py``,
``service/middleware/limits.py``) are where and as they were read.

A release that renames or reshapes one would not fail loudly: an override whose name the library
no longer calls is dead code, and the worker would quietly lose what it adds (a stream kept, a
sweep bounded). pyproject.toml pins the major versions these were read from; this fails first
when a release within them moves one, naming it. Nothing here starts a server: the classes are
read, and at most built."""

from __future__ import annotations

import inspect
import logging
import socket
from collections.abc import Callable
from typing import Any

import pytest
from gunicorn.config import Config
from gunicorn.workers import gthread
from gunicorn.workers.gthread import TConn, ThreadWorker
from limits.storage import MemoryStorage

from service.http_worker import BufferedConn, BufferingThreadWorker
from service.middleware.limits import SweptMemoryStorage
from service.stream_hub import StreamingThreadWorker

# Each library class the service subclasses, and each member of it the subclass overrides, with
# the parameters it has (gunicorn 27.0.1, limits 5.8.0).
OVERRIDDEN: dict[type, dict[str, str]] = {
    ThreadWorker: {
        "__init__": "(self, *args, **kwargs)",
        "init_process": "(self)",
        "run": "(self)",
        "load_wsgi": "(self)",
        "enqueue_req": "(self, conn)",
        "accept": "(self, listener)",
        "on_client_socket_readable": "(self, conn, client)",
        "handle_request": "(self, req, conn)",
        "_keepalive_after": "(self, conn, keepalive)",
        "finish_request": "(self, conn, fs)",
        "murder_pending": "(self)",
    },
    TConn: {"__init__": "(self, cfg, sock, client, server)", "init": "(self)"},
    MemoryStorage: {
        "__init__": "(self, uri=None, wrap_exceptions=False, **_)",
        # name-mangled: ``__schedule_expiry`` as the library's class spells it
        "_MemoryStorage__schedule_expiry": "(self)",
    },
}
# Where the library calls what is overridden (the method, and the call as its source writes
# it): an override the library no longer calls from there does nothing.
CALLS: list[tuple[Callable[..., Any], str]] = [
    (ThreadWorker.handle, "self._keepalive_after("),
    (ThreadWorker.handle, "self.handle_request("),
    (ThreadWorker.handle, "conn.init()"),
    (ThreadWorker.run, "self.murder_pending()"),
    (ThreadWorker.enqueue_req, "self.finish_request"),
    (ThreadWorker.finish_request, "self.on_client_socket_readable"),
    (ThreadWorker.set_accept_enabled, "self.accept"),
    (MemoryStorage.incr, "self.__schedule_expiry()"),
    (MemoryStorage.acquire_entry, "self.__schedule_expiry()"),
]
# Members used but not overridden: methods with their parameters, and attributes an instance
# has once built (the loop's queue of calls, the flag of a first byte seen …).
USED_METHODS: dict[type, dict[str, str]] = {
    ThreadWorker: {"handle": "(self, conn)"},
    gthread.PollableMethodQueue: {"defer": "(self, callback, *args)"},
    TConn: {"close": "(self, graceful=False)"},
    MemoryStorage: {"_MemoryStorage__expire_events": "(self)"},
}
WORKER_ATTRIBUTES = ("method_queue", "poller", "nr_conns", "keepalived_conns", "alive")
WORKER_ATTRIBUTES += ("worker_connections", "cfg", "log")
CONNECTION_ATTRIBUTES = ("data_ready", "parser", "sock", "initialized")

SUBCLASSES: dict[type, type] = {
    StreamingThreadWorker: ThreadWorker,
    BufferingThreadWorker: ThreadWorker,
    BufferedConn: TConn,
    SweptMemoryStorage: MemoryStorage,
}


def _parameters(function: Callable[..., Any]) -> str:
    """A function's parameters as written, without their annotations."""
    signature = inspect.signature(function)
    bare = [p.replace(annotation=inspect.Parameter.empty) for p in signature.parameters.values()]
    return str(signature.replace(parameters=bare, return_annotation=inspect.Signature.empty))


def mismatches(base: type, members: dict[str, str]) -> list[str]:
    """Each of ``members`` that ``base`` lacks, or has with other parameters."""
    found = []
    for name, parameters in members.items():
        member = getattr(base, name, None)
        if not callable(member):
            found.append(f"{base.__qualname__}.{name} is gone")
        elif _parameters(member) != parameters:
            found.append(f"{base.__qualname__}.{name}{_parameters(member)}, not {parameters}")
    return found


@pytest.mark.parametrize("base", [*OVERRIDDEN, *USED_METHODS], ids=lambda base: base.__qualname__)
def test_each_member_overridden_or_used_is_on_the_library_with_its_parameters(base: type) -> None:
    assert mismatches(base, {**OVERRIDDEN.get(base, {}), **USED_METHODS.get(base, {})}) == []


def test_the_check_names_a_member_gone_or_reshaped() -> None:
    class Moved:
        def _keepalive_after(self, conn: Any) -> bool:
            return False

    assert mismatches(Moved, {"_keepalive_after": "(self, conn, keepalive)", "run": "(self)"}) == [
        "test_the_check_names_a_member_gone_or_reshaped.<locals>.Moved._keepalive_after(self, "
        "conn), not (self, conn, keepalive)",
        "test_the_check_names_a_member_gone_or_reshaped.<locals>.Moved.run is gone",
    ]


def _written_in(member: Any, cls: type) -> bool:
    return callable(member) and member.__qualname__.startswith(f"{cls.__qualname__}.")


@pytest.mark.parametrize("subclass", list(SUBCLASSES), ids=lambda cls: cls.__qualname__)
def test_every_override_of_the_service_is_in_the_table(subclass: type) -> None:
    """A new override is added above (and so checked), and the table names no stale one."""
    base = SUBCLASSES[subclass]
    # (Written in the subclass: limits' storages get copies of the library's methods, wrapped.)
    own = {name for name, member in vars(subclass).items() if _written_in(member, subclass)}
    overridden = {name for name in own if hasattr(base, name) and name not in vars(object)}
    tabled = set(OVERRIDDEN[base])
    assert overridden <= tabled, f"{subclass.__qualname__}: add to OVERRIDDEN"
    ours = {
        name
        for cls, of in SUBCLASSES.items()
        if of is base
        for name, member in vars(cls).items()
        if _written_in(member, cls)
    }
    assert tabled <= ours, f"{base.__qualname__}: OVERRIDDEN names what nothing overrides"


@pytest.mark.parametrize(("caller", "call"), CALLS, ids=lambda x: getattr(x, "__qualname__", x))
def test_the_library_still_calls_what_is_overridden(caller: Callable[..., Any], call: str) -> None:
    assert call in inspect.getsource(caller)


def test_the_stopping_linger_is_a_number_of_seconds() -> None:
    assert isinstance(gthread.STOP_KEEPALIVE_LINGER, int | float)
    assert gthread.STOP_KEEPALIVE_LINGER > 0


def test_a_worker_and_a_connection_have_the_attributes_used() -> None:
    worker = ThreadWorker(0, 1, [], None, 30, Config(), logging.getLogger(__name__))
    try:
        assert [a for a in WORKER_ATTRIBUTES if not hasattr(worker, a)] == []
    finally:
        worker.tmp.close()
    ours, theirs = socket.socketpair()
    with ours, theirs:
        conn = TConn(Config(), ours, ("127.0.0.1", 1), ("127.0.0.1", 2))
        assert [a for a in CONNECTION_ATTRIBUTES if not hasattr(conn, a)] == []
        assert conn.data_ready is False  # set True by the loop once a request is in
        conn.init()
        assert callable(conn.parser.unreader.unread)  # what BufferedConn hands the request to
