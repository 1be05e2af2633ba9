"""The table worker: one task per table (runner.py) and their start and stop (room.py); the
deal, a secure shuffle and its commitment (deal.py); each table's numbered event log and its
replay (eventlog.py); what each viewer may see of it (projection.py, on table/view.py); the
lobby line (lobby.py) and the stored history (record.py). It knows a client only as a
``Viewer`` (viewer.py) and never imports the gateway: the bus (bus.py) stands between."""
