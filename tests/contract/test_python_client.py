"""A Python client generated from ``openapi.yaml`` by openapi-python-client, as an integrator
would (no warning allowed), runs a club's evening against the service through nothing but its
generated functions and models: club, players, season, table, ten hands, a correction, a void,
a 409 read as a problem, close, settle-up, season standings, export and import.

The client talks to the app over httpx's WSGI transport: the whole WSGI stack, no socket.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import httpx
import pytest

from tests.contract.conftest import DOCUMENT, VENV_BIN, imported, run
from tests.support import dispose_engines, migrated_app

CONFIG = "project_name_override: solo-client\npackage_name_override: solo_client\n"
PACKAGE = "solo_client"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    where = tmp_path_factory.mktemp("python-client")
    (where / "config.yaml").write_text(CONFIG)
    result = run(
        [
            VENV_BIN / "openapi-python-client",
            "generate",
            "--path",
            DOCUMENT,
            "--config",
            "config.yaml",
            "--meta",
            "none",
            "--output-path",
            PACKAGE,
        ],
        where,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "Warning" not in output and "warning" not in output, output
    yield from imported(where, PACKAGE)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    app = migrated_app(None, tmp_path_factory.mktemp("db"))
    yield app
    dispose_engines(app)


def _module(name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.{name}")


def _client(app: Any, token: str | None = None) -> Any:
    transport = httpx.WSGITransport(app=app)
    base = _module("client")
    if token is None:
        return base.Client(
            base_url="http://solo.test",
            httpx_args={"transport": transport},
            raise_on_unexpected_status=True,
        )
    return base.AuthenticatedClient(
        base_url="http://solo.test",
        token=token,
        httpx_args={"transport": transport},
        raise_on_unexpected_status=True,
    )


def _ok(response: Any, status: int) -> Any:
    assert response.status_code == status, response.content[:500]
    return response.parsed


HANDS = [  # ten American hands: games of each contract, a forfeit and a misdeal among them
    {
        "contract": "simple",
        "trump": "hearts",
        "declarer": 1,
        "tricks": 5,
        "called": {"rank": "ace", "suit": "diamonds"},
        "partner": 3,
    },
    {
        "contract": "solo",
        "trump": "clubs",
        "declarer": 2,
        "tricks": 6,
        "matadores": {"side": "declarers", "lower": 1},
    },
    {
        "contract": "simple",
        "trump": "spades",
        "declarer": 3,
        "tricks": 3,
        "called": {"rank": "ace", "suit": "hearts"},
        "partner": 0,
        "errors": [{"kind": "revoke", "seat": 1}],
    },
    {"kind": "forfeit", "seat": 2},
    {"contract": "tout", "trump": "diamonds", "declarer": 0, "tricks": 8},
    {"kind": "misdeal"},
    {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 4},
    {
        "contract": "simple",
        "trump": "clubs",
        "declarer": 2,
        "tricks": 7,
        "called": {"rank": "ace", "suit": "spades"},
        "partner": 1,
        "tout_after_five": False,
    },
    {"contract": "forcee_partout", "trump": "spades", "declarer": 3, "tricks": 5},
    {"contract": "solo", "trump": "diamonds", "declarer": 0, "tricks": 5},
]


def _hand_model(models: Any, hand: dict[str, Any], create: bool = True) -> Any:
    suffix = "Create" if create else ""
    kind = hand.get("kind", "played")
    name = {
        "played": "AmericanPlayedHand",
        "forfeit": "AmericanForfeit",
        "misdeal": "AmericanMisdeal",
    }[kind] + suffix
    # The tags the document requires (the service would take the hand without them).
    return getattr(models, name).from_dict({"variant": "american", "kind": kind, **hand})


def test_an_evening_through_the_generated_client_alone(generated, app):
    models = _module("models")
    clubs = importlib.import_module(f"{PACKAGE}.api.clubs.create_club")
    public = _client(app)

    club = _ok(
        clubs.sync_detailed(
            client=public, body=models.ClubCreate(name="Kartenrunde Moser-Lindqvist")
        ),
        201,
    )
    admin = _client(app, club.admin_token)
    add_player = importlib.import_module(f"{PACKAGE}.api.players.add_player")
    names = ["Anna-Katharina Berger", "Carla Moser-Lindqvist", "Józef Łukasiewicz", "Ines Ruiz"]
    seats = [
        _ok(
            add_player.sync_detailed(club.id, client=admin, body=models.PlayerCreate(name=n)), 201
        ).id
        for n in names
    ]
    create_season = importlib.import_module(f"{PACKAGE}.api.seasons.create_season")
    season = _ok(
        create_season.sync_detailed(
            club.id,
            client=admin,
            body=models.SeasonCreate(name="Winter 2026", variant=models.VariantName.AMERICAN),
        ),
        201,
    )

    open_table = importlib.import_module(f"{PACKAGE}.api.tables.open_table")
    table = _ok(
        open_table.sync_detailed(
            client=admin,
            body=models.TableCreate.from_dict(
                {
                    "club_id": club.id,
                    "name": "Thursday",
                    "variant": "american",
                    "seats": seats,
                    "season_id": season.id,
                }
            ),
        ),
        201,
    )
    phone = _client(app, table.table_token)

    record = importlib.import_module(f"{PACKAGE}.api.hands.record_hand")
    for number, hand in enumerate(HANDS, start=1):
        answer = record.sync_detailed(
            table.id,
            client=phone,
            body=_hand_model(models, {**hand, "expected_number": number}),
            idempotency_key=f"evening-{number}",
        )
        recorded = _ok(answer, 201)
        assert recorded.number == number
        assert answer.headers["Location"].endswith(f"/hands/{number}")
        assert answer.headers["ETag"] == f'"{recorded.table.version}"'

    # Two phones raced for hand 10: the loser reads a problem, with the next number.
    taken = _ok(
        record.sync_detailed(
            table.id, client=phone, body=_hand_model(models, {**HANDS[0], "expected_number": 10})
        ),
        409,
    )
    assert isinstance(taken, models.Problem)
    assert taken.type_ == "urn:solo:problem:hand-number-taken" and taken.next_number == 11

    get_table = importlib.import_module(f"{PACKAGE}.api.tables.get_table")
    before = _ok(get_table.sync_detailed(table.id, client=phone), 200)
    correct = importlib.import_module(f"{PACKAGE}.api.hands.correct_hand")
    corrected = _ok(
        correct.sync_detailed(
            table.id,
            2,
            client=phone,
            body=_hand_model(models, {**HANDS[1], "tricks": 4}, create=False),
            if_match=f'"{before.version}"',
        ),
        200,
    )
    assert corrected.settlement.result == "lost"  # an enum of str values
    assert corrected.resettled == 9
    void = importlib.import_module(f"{PACKAGE}.api.hands.void_hand")
    voided = _ok(void.sync_detailed(table.id, 3, client=phone), 200)
    assert voided.status == "void" and voided.settlement is None
    history = importlib.import_module(f"{PACKAGE}.api.hands.get_hand_history")
    assert len(_ok(history.sync_detailed(table.id, 2, client=phone), 200).revisions) == 2
    list_hands = importlib.import_module(f"{PACKAGE}.api.hands.list_hands")
    page = list_hands.sync_detailed(table.id, client=phone, page=1, page_size=4)
    assert len(_ok(page, 200)) == 4 and 'rel="next"' in page.headers["Link"]

    close = importlib.import_module(f"{PACKAGE}.api.tables.close_table")
    closed = _ok(close.sync_detailed(table.id, client=admin), 200)
    assert closed.status == "closed"
    settle = importlib.import_module(f"{PACKAGE}.api.tables.get_settle_up")
    settled = _ok(settle.sync_detailed(table.id, client=admin), 200)
    assert settled.final is True
    balances = [s.balance for s in closed.seats]
    assert all(isinstance(t.amount, int) and t.amount > 0 for t in settled.transfers)
    assert sum(t.amount for t in settled.transfers if t.to != "pool") > 0
    # The parties as typed objects (docs/api.md "Transfers' parties"), the same as the bare.
    for t in settled.transfers:
        assert (t.to_party.kind.value, t.to_party.seat) == (
            ("seat", t.to) if isinstance(t.to, int) else (t.to, None)
        )

    standings = importlib.import_module(f"{PACKAGE}.api.standings.get_standings")
    rows = _ok(standings.sync_detailed(season.id, client=admin), 200).rows
    assert sorted(r.name for r in rows) == sorted(names)
    by_player = {r.player_id: r.net for r in rows}
    assert [by_player[p] for p in seats] == balances

    export = importlib.import_module(f"{PACKAGE}.api.backup.export_club")
    document = _ok(export.sync_detailed(club.id, client=admin), 200)
    assert len(document.tables[0].hands) == 10
    import_club = importlib.import_module(f"{PACKAGE}.api.backup.import_club")
    imported = _ok(import_club.sync_detailed(client=public, body=document), 201)
    assert imported.imported.hands == 10 and imported.imported.players == 4
    restored = _client(app, imported.admin_token)
    new_table = imported.ids.tables[table.id]
    again = _ok(get_table.sync_detailed(new_table, client=restored), 200)
    assert [s.balance for s in again.seats] == balances


def _operation(group: str, name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.api.{group}.{name}")


def test_a_program_follows_a_club_through_the_generated_client(generated, app):
    """As a league bot would: a read-only token, the club's feed paged by its cursor, a
    stream ticket and the stream it opens (read as lines, as docs/api.md shows: a generated
    call cannot hold a stream), a webhook subscribed to every event, and the problems a
    program meets (a bad cursor, a bad ticket, a refused URL) read as typed problems."""
    models = _module("models")
    app.config["WEBHOOK_ALLOWED_NETWORKS"] = []  # the service's default: no private address
    club = _ok(
        _operation("clubs", "create_club").sync_detailed(
            client=_client(app), body=models.ClubCreate(name="Liga")
        ),
        201,
    )
    admin = _client(app, club.admin_token)
    seats = [
        _ok(
            _operation("players", "add_player").sync_detailed(
                club.id, client=admin, body=models.PlayerCreate(name=name)
            ),
            201,
        ).id
        for name in ("Ada", "Ben", "Cy", "Dee")
    ]
    table = _ok(
        _operation("tables", "open_table").sync_detailed(
            client=admin,
            body=models.TableCreate.from_dict(
                {"club_id": club.id, "name": "T", "variant": "american", "seats": seats}
            ),
        ),
        201,
    )
    phone = _client(app, table.table_token)
    for hand in HANDS[:3]:
        _ok(
            _operation("hands", "record_hand").sync_detailed(
                table.id, client=phone, body=_hand_model(models, hand)
            ),
            201,
        )
    bot_token = _ok(
        _operation("clubs", "create_named_viewer_token").sync_detailed(
            club.id, client=admin, body=models.ViewerTokenCreate(name="league bot")
        ),
        201,
    ).token
    bot = _client(app, bot_token)

    # The feed, two events a page, by its cursor.
    changes = _operation("live", "list_club_changes")
    seen, after = [], 0
    while True:
        page = _ok(changes.sync_detailed(club.id, client=bot, after=after, limit=2), 200)
        seen += [(event.id, event.type_) for event in page.events]  # a string: types grow
        after = page.cursor
        if not page.more:
            break
    assert seen == [(1, "table.opened")] + [(n, "hand.recorded") for n in (2, 3, 4)]

    # A ticket for the club's stream, and the stream from event 2 on (this WSGI server
    # answers what the stream has and ends it; a real one goes on).
    ticket = _ok(
        _operation("live", "mint_club_stream_ticket").sync_detailed(club.id, client=bot), 201
    )
    transport = httpx.WSGITransport(app=app)
    with httpx.Client(transport=transport, base_url="http://solo.test") as http:
        lines = http.get(f"{ticket.url}&after=2").text.splitlines()
    assert [line for line in lines if line.startswith("id: ")] == ["id: 3", "id: 4"]

    # Every event, by webhook: the answer shows the secret once.
    hook = _ok(
        _operation("webhooks", "create_webhook").sync_detailed(
            club.id,
            client=admin,
            body=models.WebhookCreate(
                url="https://bot.example.org/solo",
                event_types=[models.WebhookEventType("*")],
            ),
        ),
        201,
    )
    assert hook.secret.startswith("whsec_") and hook.delivered_through == 4

    # The problems: typed, each naming what is wrong.
    bad_cursor = _ok(changes.sync_detailed(club.id, client=bot, after=-1), 422)
    assert isinstance(bad_cursor, models.Problem)
    assert list(bad_cursor.errors.additional_properties) == ["query.after"]
    stream = _operation("live", "stream_club_events")
    anonymous = _client(app)
    refused = stream.sync_detailed(club.id, client=anonymous, ticket="not-a-ticket")
    problem = _ok(refused, 401)
    assert problem.type_ == "urn:solo:problem:stream-ticket-invalid"
    assert "not a stream ticket" in problem.detail
    private = _operation("webhooks", "create_webhook").sync_detailed(
        club.id,
        client=admin,
        body=models.WebhookCreate(
            url="http://10.1.2.3/hook", event_types=[models.WebhookEventType("*")]
        ),
    )
    problem = _ok(private, 422)
    assert list(problem.errors.additional_properties) == ["url"]
