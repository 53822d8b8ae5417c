"""The board is polled every few seconds by every open page: what it costs the database must
not grow with the number of tables."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.busy_hall import build_hall

# Session, user, tournament, the director check, the round, then the board's own four
# reads (tables with their sheets, games, seats, penalties).
BOARD_QUERIES = 10


def _board(client, user, players: int) -> tuple[int, str]:
    tournament = build_hall(players, directors=[user])
    client.force_login(user)
    url = reverse("manage:board", args=[tournament.slug, 2])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return len(queries), response.content.decode()


@pytest.mark.django_db
def test_the_board_reads_9_and_60_tables_with_the_same_queries(client, director_user):
    nine, small = _board(client, director_user, 36)
    sixty, large = _board(client, director_user, 240)
    assert nine == sixty == BOARD_QUERIES
    # Every table is on it, with its state and its players.
    assert small.count('id="board-table-') == 9 and large.count('id="board-table-') == 60
    assert 'class="state-confirmed"' in large and 'class="state-new"' in large
    assert "(+10 min)" in large  # the sheet's extra time, read with the table
