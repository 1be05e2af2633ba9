"""The room's record: accounts and sessions, the double-entry ledger and the hand journal
on SQLAlchemy (SQLite by default, PostgreSQL by URL), its schema and migrations, the audit
that checks it, and the fault injection that tests it."""
