// The HTTP API: accounts, hand histories and notes on players. The session is an HttpOnly cookie the
// server sets; the client never sees or stores the token.

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

async function request(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("network", "the server cannot be reached", 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(error.code || "http", error.message || response.statusText, response.status);
  }
  return data;
}

/** ``?a=1&b=2`` of the set values of ``query`` ('' when none). */
function queryString(query) {
  const set = Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== "");
  return set.length ? `?${new URLSearchParams(set)}` : "";
}

export const api = {
  register: (name, password) => request("POST", "/api/register", { name, password }),
  login: (name, password) => request("POST", "/api/login", { name, password }),
  logout: () => request("POST", "/api/logout", {}),
  me: () => request("GET", "/api/me"),
  freeChips: () => request("POST", "/api/topup", {}),
  tables: () => request("GET", "/api/tables"),
  buyIn: (table) => request("GET", `/api/tables/${encodeURIComponent(table)}/buy-in`),
  hands: (query = {}) => request("GET", `/api/hands${queryString(query)}`),
  handGames: () => request("GET", "/api/hands/games"),
  archiveUrl: (format, query = {}) => `/api/hands/archive${queryString({ format, ...query })}`,
  hand: (id) => request("GET", `/api/hands/${encodeURIComponent(id)}`),
  notes: () => request("GET", "/api/notes"),
  putNote: (name, note) => request("PUT", `/api/notes/${encodeURIComponent(name)}`, note),
  deleteNote: (name) => request("DELETE", `/api/notes/${encodeURIComponent(name)}`, {}),
  prefs: () => request("GET", "/api/prefs"), // issue 19, item 9: own bet presets
  putPrefs: (presets) => request("PUT", "/api/prefs", { presets }),
  handUrl: (id, format) => `/api/hands/${encodeURIComponent(id)}.${format}`,
};
