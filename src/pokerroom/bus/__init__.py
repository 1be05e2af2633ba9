"""The bus: the only way between the gateways and the table workers (DESIGN.md, the split
of lila and lila-ws). Subjects and messages in messages.py; how they travel in
transport.py (in-process) and nats.py (NATS); the gateway's side in gateway.py (routing
commands, fanning events out to connections, the lobby); the worker's side in tables.py
(serving its tables' subjects, publishing their batches); local.py puts both in one
process over the in-process transport (``pokerroom serve``): one implementation of
routing, not two.

Import the side you need (``pokerroom.bus.gateway`` or ``pokerroom.bus.tables``): this
package imports neither, so that a gateway never loads the worker.
"""

PREFIX = "room"  # the subjects' first token by default (``--bus-prefix``: rooms sharing a NATS server)
