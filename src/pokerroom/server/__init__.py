"""The room server: the shell around the engine and the table layer (DESIGN.md).

HTTP and WebSocket on FastAPI and uvicorn, accounts, the lobby, one asyncio task per
table, a double-entry ledger and hand histories on SQLAlchemy (SQLite by default,
PostgreSQL by URL), the secure shuffle with a published commitment.
"""
