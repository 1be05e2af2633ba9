"""The table worker: one task per table (the runner), the deal (secure shuffle and its
commitment), each table's numbered event log and its replay, and the projection of the
table for each viewer."""
