"""What changes and how a client sees it: weak content ETags with 304s on the standings, the
club and its export (api/caching.py), and the deprecated ``format`` parameter's
``Deprecation``, ``Sunset`` and ``Link`` headers."""

from __future__ import annotations

from datetime import UTC, datetime

from werkzeug.http import parse_date

from tests.api.test_league import SOLO, League
from tests.support import inlined

LOST_SOLO = {**SOLO, "tricks": 3}


def _get(client, path, headers, **query):
    return client.get(path, headers=headers, query_string=query)


def _revalidates(client, path, headers, **query) -> str:
    """The answer's weak ETag, after checking that it gets a 304 and a stale one does not."""
    first = _get(client, path, headers, **query)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert etag.startswith('W/"')
    again = client.get(path, headers={**headers, "If-None-Match": etag}, query_string=query)
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    stale = client.get(path, headers={**headers, "If-None-Match": 'W/"stale"'}, query_string=query)
    assert stale.status_code == 200 and stale.headers["ETag"] == etag
    return etag


def test_the_standings_etag_changes_with_every_hand_and_correction(api, client):
    league = League(api, client)
    path = f"/api/v1/seasons/{league.season['id']}/standings"
    table = league.table([0, 1, 2, 3])
    before = _revalidates(client, path, league.admin)
    league.record(table, SOLO)
    recorded = _revalidates(client, path, league.admin)
    assert recorded != before
    fixed = client.put(
        f"/api/v1/tables/{table['id']}/hands/1", json=LOST_SOLO, headers=league.admin
    )
    assert fixed.status_code == 200, fixed.json
    corrected = _revalidates(client, path, league.admin)
    assert corrected not in (before, recorded)
    # Another view of the same standings is another representation, with its own tag.
    assert _revalidates(client, path, league.admin, min_hands=5) != corrected
    csv = _revalidates(client, f"{path}.csv", league.admin)
    assert csv != corrected


def test_the_club_and_its_export_have_etags_that_follow_their_content(api, client):
    club = api.club()
    admin = api.auth(club["admin_token"])
    path = f"/api/v1/clubs/{club['id']}"
    assert _revalidates(client, path, admin) == _revalidates(client, path, admin)
    exported = _revalidates(client, f"{path}/export", admin)
    api.players(club, 1)
    assert _revalidates(client, f"{path}/export", admin) != exported


def test_the_deprecated_format_says_so_and_names_its_successor(api, client):
    league = League(api, client)
    path = f"/api/v1/seasons/{league.season['id']}/standings"
    plain = _get(client, path, league.admin)
    assert "Deprecation" not in plain.headers and "Sunset" not in plain.headers
    as_csv = _get(client, path, league.admin, format="csv", min_hands=2)
    assert as_csv.status_code == 200 and as_csv.mimetype == "text/csv"
    deprecated = int(as_csv.headers["Deprecation"].removeprefix("@"))
    sunset = parse_date(as_csv.headers["Sunset"])
    assert datetime.fromtimestamp(deprecated, UTC) < sunset
    assert as_csv.headers["Link"] == f'<{path}.csv?min_hands=2>; rel="successor-version"'
    successor = client.get(f"{path}.csv?min_hands=2", headers=league.admin)
    assert successor.data == as_csv.data and "Deprecation" not in successor.headers
    as_json = _get(client, path, league.admin, format="json")
    assert as_json.json == plain.json
    assert as_json.headers["Link"] == f'<{path}>; rel="successor-version"'
    assert as_json.headers["Deprecation"] == as_csv.headers["Deprecation"]


def test_the_document_marks_the_deprecated_parameter(client):
    document = inlined(client.get("/openapi.json").json)
    operation = document["paths"]["/api/v1/seasons/{season_id}/standings"]["get"]
    (fmt,) = [p for p in operation["parameters"] if p["name"] == "format"]
    assert fmt["deprecated"] is True
    headers = operation["responses"]["200"]["headers"]
    assert {"Deprecation", "Sunset", "Link", "ETag"} <= headers.keys()
    for path in (
        "/api/v1/seasons/{season_id}/standings",
        "/api/v1/seasons/{season_id}/standings.csv",
        "/api/v1/clubs/{club_id}",
        "/api/v1/clubs/{club_id}/export",
    ):
        operation = document["paths"][path]["get"]
        assert "304" in operation["responses"], path
        assert "If-None-Match" in [p["name"] for p in operation["parameters"]], path
