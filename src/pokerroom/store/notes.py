"""Players' notes and colour tags on other players (issue 19, item 6): private to their
author, kept on the server so that they follow him from one browser to another.

One row per (author, subject) in ``player_notes``: the text (up to ``MAX_TEXT``
characters, '' for a colour tag alone) and a colour of ``PALETTE`` (or None, a note
alone). Functions on the room's Store rather than a mixin of it: the notes share nothing
with the money paths and need no journal. The gateway's notes.py checks what a client
sends; these check again (``NoteError``) so no caller can store what the room would not
show.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from pokerroom.store.database import Database
from pokerroom.store.schema import accounts, player_notes

MAX_TEXT = 1000
# eight tags, as the browser draws them (css/notes.css): names, not colour values, so a
# client may draw them as it likes
PALETTE = ("red", "orange", "yellow", "green", "teal", "blue", "purple", "grey")


class NoteError(ValueError):
    """A note the room does not keep: too long, a colour not of the palette, empty, or
    on the author himself."""


@dataclass(frozen=True)
class Note:
    subject: str  # the other player's name, as he spells it
    text: str
    colour: str | None
    updated_at: float


def check_note(text: object, colour: object) -> tuple[str, str | None]:
    """(text, colour) as stored, or NoteError saying what is wrong."""
    if not isinstance(text, str):
        raise NoteError("a note's text is a string")
    if len(text) > MAX_TEXT:
        raise NoteError(f"a note is at most {MAX_TEXT} characters")
    if colour is not None and colour not in PALETTE:
        raise NoteError(f"a colour is one of {', '.join(PALETTE)} (or null)")
    if not text.strip() and colour is None:
        raise NoteError("a note needs a text or a colour (delete it instead)")
    return text, colour


async def notes_of(db: Database, author_id: int) -> list[Note]:
    """Every note of the author, by the subjects' names."""
    query = (
        select(accounts.c.name, player_notes.c.text, player_notes.c.colour, player_notes.c.updated_at)
        .join(accounts, accounts.c.id == player_notes.c.subject_id)
        .where(player_notes.c.author_id == author_id)
        .order_by(accounts.c.name)
    )
    async with db.engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [Note(str(r.name), str(r.text), r.colour, float(r.updated_at)) for r in rows]


async def note_of(db: Database, author_id: int, subject_id: int) -> Note | None:
    query = (
        select(accounts.c.name, player_notes.c.text, player_notes.c.colour, player_notes.c.updated_at)
        .join(accounts, accounts.c.id == player_notes.c.subject_id)
        .where(player_notes.c.author_id == author_id, player_notes.c.subject_id == subject_id)
    )
    async with db.engine.connect() as conn:
        r = (await conn.execute(query)).first()
    return None if r is None else Note(str(r.name), str(r.text), r.colour, float(r.updated_at))


async def put_note(db: Database, author_id: int, subject_id: int, text: object, colour: object) -> float:
    """Write the author's note on the subject (a new one or over the old); its time."""
    if author_id == subject_id:
        raise NoteError("a note is on another player")
    text, colour = check_note(text, colour)
    now = time.time()
    values = {"author_id": author_id, "subject_id": subject_id, "text": text, "colour": colour,
              "updated_at": now}
    insert = pg_insert if not db.sqlite else sqlite_insert
    statement = insert(player_notes).values(**values)
    statement = statement.on_conflict_do_update(
        index_elements=[player_notes.c.author_id, player_notes.c.subject_id],
        set_={"text": text, "colour": colour, "updated_at": now},
    )
    async with db._writing() as conn:
        await conn.execute(statement)
    return now


async def delete_note(db: Database, author_id: int, subject_id: int) -> bool:
    """Remove the author's note on the subject; whether there was one."""
    async with db._writing() as conn:
        result = await conn.execute(
            delete(player_notes).where(player_notes.c.author_id == author_id,
                                       player_notes.c.subject_id == subject_id)
        )
    return bool(result.rowcount)
