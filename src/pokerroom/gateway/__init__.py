"""The gateway: what faces the players. HTTP (the API and the browser client: app.py), the
/ws endpoint (ws.py), a client's connection and its message budget (connection.py), logins
and sessions (auth.py, sessions.py), the limits on what one client may cost the others
(limits.py, gate.py). It holds connections, never a table's state: commands go to the
tables' owner through the bus (bus.py), events come back."""
