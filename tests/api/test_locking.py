"""The table lock of recording (services/locking.py): a writer that had to wait for it reads
the table and its seats as the holder left them."""

from __future__ import annotations

import threading
import time

from sqlalchemy import update

from service.extensions import db
from service.persistence.table_keeping import SeatRow, TableRow
from service.services.locking import lock_table_state


def test_a_writer_that_waited_for_the_lock_reads_the_seats_the_holder_left(app, api):
    table = api.table()
    holding = threading.Event()
    failures: list[BaseException] = []

    def hold_and_change() -> None:
        try:
            with app.app_context():
                lock_table_state(table["id"])
                db.session.execute(update(SeatRow).where(SeatRow.table_id == table["id"])
                                   .values(balance=SeatRow.balance + 7))
                db.session.execute(update(TableRow).where(TableRow.id == table["id"])
                                   .values(version=TableRow.version + 1))
                holding.set()
                time.sleep(0.5)  # the other writer is waiting for the lock meanwhile
                db.session.commit()
        except BaseException as error:  # reported by the test, not lost in the thread
            failures.append(error)
            holding.set()

    holder = threading.Thread(target=hold_and_change)
    holder.start()
    assert holding.wait(10)
    with app.app_context():
        state = lock_table_state(table["id"])  # waits until the holder commits
        db.session.rollback()
    holder.join()

    assert not failures
    assert state.version == table["version"] + 1
    assert [seat.balance for seat in state.seats] == [7, 7, 7, 7]
    assert [seat.seat for seat in state.seats] == [0, 1, 2, 3]
