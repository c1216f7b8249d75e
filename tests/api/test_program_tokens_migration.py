"""Migration 0018_program_tokens, both ways: a program's token and the webhooks it made. Down,
its webhooks stay (turned off, with their delivery logs: the copy of
``webhook_subscriptions`` cascades into nothing) and its token goes; up again, the schema is
the models'. On a database of its own (SQLite), since it moves the schema's revision."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from sqlalchemy import inspect, text

from service.extensions import db
from tests.support import ApiClient, migrated_app

# A name that never resolves is taken at creation (it is judged again at delivery).
HOOK = "https://hooks.invalid/in"


def test_the_migration_takes_program_tokens_and_their_webhooks_both_ways(
    tmp_path: Path,
) -> None:
    import flask_migrate

    app: Flask = migrated_app(None, tmp_path)
    api = ApiClient(app.test_client())
    club = api.club()
    admin = api.auth(club["admin_token"])
    bot = api.client.post(
        f"/api/v1/clubs/{club['id']}/viewer-tokens",
        json={"name": "league bot", "kind": "program"},
        headers=admin,
    ).json
    hook = api.client.post(
        f"/api/v1/clubs/{club['id']}/webhooks",
        json={"url": HOOK, "event_types": ["*"]},
        headers=api.auth(bot["token"]),
    ).json
    assert hook["token_id"] == bot["id"]
    with app.app_context():
        db.session.execute(
            text(
                "INSERT INTO webhook_deliveries (subscription_id, seq, event_type, attempt,"
                " manual, outcome, latency_ms, attempted_at) VALUES"
                " (:hook, 1, 'table.opened', 1, false, 'delivered', 5, CURRENT_TIMESTAMP)"
            ),
            {"hook": hook["id"]},
        )
        db.session.commit()
        flask_migrate.downgrade(revision="0017_series_length")
        columns = {c["name"] for c in inspect(db.engine).get_columns("webhook_subscriptions")}
        assert "token_id" not in columns
        kept = db.session.execute(
            text("SELECT enabled, disabled_reason FROM webhook_subscriptions")
        ).all()
        assert [tuple(r) for r in kept] == [(False, "its program's token was removed")]
        log = db.session.execute(text("SELECT count(*) FROM webhook_deliveries")).scalar()
        assert log == 1
        kinds = db.session.execute(text("SELECT kind FROM tokens ORDER BY kind")).scalars().all()
        assert kinds == ["admin"]
        db.session.remove()
        flask_migrate.upgrade()
        flask_migrate.check()
        db.session.remove()
    listed = api.client.get(f"/api/v1/clubs/{club['id']}/webhooks", headers=admin).json
    assert [(h["id"], h["token_id"], h["enabled"]) for h in listed] == [(hook["id"], None, False)]
    again = api.client.post(
        f"/api/v1/clubs/{club['id']}/viewer-tokens",
        json={"name": "league bot", "kind": "program"},
        headers=admin,
    )
    assert again.status_code == 201, again.json
