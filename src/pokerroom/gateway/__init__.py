"""The gateway: what faces the players. HTTP (the API and the browser client), the /ws
endpoint, logins and sessions, the limits on what one client may cost the others. It holds
connections, never a table's state: commands go to the tables' owner, events come back."""
