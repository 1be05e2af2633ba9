// The app: one WebSocket, the state, the screens (log in, lobby, tables) and the header;
// routes by the URL hash (#/lobby, #/table/<name>), keyboard shortcuts, turn alerts.
import { api } from "./api.js";
import { Auth } from "./auth.js";
import { setBaseTitle, stopFlash, yourTurn } from "./alerts.js";
import { askChips } from "./dialogs.js";
import { $, clear, h, setText } from "./dom.js";
import { HandsWindow } from "./history.js";
import { applyStatic, chips, clockTime, language, onLanguage, plural, setLanguage, t } from "./i18n.js";
import { Lobby } from "./lobby.js";
import "./notes.js"; // notes and colour tags on players: draws beside the table and lobby
import { onPref, pref, setPref } from "./prefs.js";
import { Room } from "./store.js";
import { replayer } from "./replay.js"; // issue 19: the hand replayer (#/replay/<hand id>)
import "./stats.js"; // issue 19: the Statistics page and the seats' statistics cards
import { TableView } from "./table.js";
import { WIDE, firstNeed, layTiles, mark, reveal, setTileChoice, tileChoice, tiling, untile } from "./tiles.js";
import { showError, toast } from "./toast.js";
import { Waiting } from "./waiting.js";
import { Socket } from "./ws.js";

const socket = new Socket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
const room = new Room(socket);
const tableViews = new Map();
const pendingSit = new Set(); // tables opened with "Play": pick a free seat when the view comes
const alerted = new Map(); // table -> the deadline we alerted for
let guest = sessionStorage.getItem("pokerroom.guest") === "1";
let active = null; // the table on screen (tiled: the one last chosen)
let urgent = null; // tiled: the table that needs the player first (tiles.js)

// ------------------------------------------------------------------ routing

function route() {
  const hash = decodeURIComponent(location.hash.replace(/^#\/?/, ""));
  if (hash.startsWith("table/")) return { view: "table", table: hash.slice(6) };
  if (hash === "login") return { view: "auth" };
  if (hash === "lobby") return { view: "lobby" };
  if (/^replay\/\d{1,10}$/.test(hash)) return { view: "replay", id: Number(hash.slice(7)) };
  return { view: "" };
}

function go(hash) {
  if (location.hash !== hash) location.hash = hash;
  else render();
}

function showView(id) {
  for (const el of document.querySelectorAll("main > .view")) el.hidden = el.id !== `view-${id}`;
}

function render() {
  const r = route();
  if (!room.identified && !room.player) {
    showView(r.view === "auth" ? "auth" : "");
    return;
  }
  if (r.view === "table") {
    showTable(r.table);
    return;
  }
  if (r.view === "replay" && !room.player) return showView("auth"); // a shared link: log in first
  if (r.view === "replay") { // a shared link to a hand: over the lobby
    showView("lobby");
    lobby.render();
    if (!(replayer.dialog?.open && replayer.handId === r.id)) {
      replayer.onClose = () => go("#/lobby");
      replayer.openHand(r.id);
    }
    return;
  }
  active = null;
  setBaseTitle("pokerroom");
  updateTabs();
  if (r.view === "auth" || (!r.view && !room.player && !guest)) {
    if (room.player) return go("#/lobby");
    showView("auth");
    $("#auth-name").focus();
    return;
  }
  showView("lobby");
  lobby.render();
}

function tableView(name) {
  let view = tableViews.get(name);
  if (!view) {
    view = new TableView(room, name, tableHooks(name));
    tableViews.set(name, view);
  }
  return view;
}

let showing = false; // in showTable: its room.open sends "tables", which must not lay out again
function showTable(name) {
  showing = true;
  room.open(name);
  showing = false;
  persistOpen();
  const view = tableView(name);
  const holder = $("#view-table");
  active = name;
  if (tiling(room.tables.size)) {
    // every open table in a tile (tiles.js), in the order of the tabs
    const views = [...room.tables.keys()].map(tableView);
    urgent = firstNeed(room);
    layTiles(holder, views, active, urgent);
    showView("table");
    for (const v of views) v.update();
    reveal(holder, view); // chosen from a tab: its tile comes into view
  } else {
    untile(holder);
    urgent = null;
    for (const child of [...holder.children]) if (child !== view.el) child.remove();
    if (!view.el.isConnected) holder.append(view.el);
    showView("table");
    view.update();
  }
  setBaseTitle(`${name} · pokerroom`);
  updateTabs();
}

/** The tables on screen: every open one when tiled, else the active one. */
function visibleTables() {
  if (!active) return [];
  return $("#view-table").classList.contains("tiled") ? [...room.tables.keys()] : [active];
}

/** The table the keyboard acts at: tiled, the one that needs the player first, else the
 *  one on screen (or last chosen). */
function keyTable() {
  return (visibleTables().length > 1 && urgent) || active;
}

/** Tiled: mark again the table that needs the player first, and bring it into view. */
function markTiles() {
  const holder = $("#view-table");
  if (!active || !holder.classList.contains("tiled")) return;
  const before = urgent;
  urgent = firstNeed(room);
  const views = visibleTables().map((n) => tableViews.get(n)).filter(Boolean);
  mark(views, active, urgent);
  if (urgent && urgent !== before) reveal(holder, tableViews.get(urgent));
}

/** A click in a tile chooses its table (the URL follows, with no new drawing). */
$("#view-table").addEventListener("pointerdown", (e) => {
  const screen = e.target instanceof Element ? e.target.closest(".table-screen") : null;
  const name = screen?.dataset.table;
  if (!name || name === active || !$("#view-table").classList.contains("tiled")) return;
  active = name;
  history.replaceState(null, "", `#/table/${encodeURIComponent(name)}`);
  setBaseTitle(`${name} · pokerroom`);
  markTiles();
  updateTabs();
});

function persistOpen() {
  sessionStorage.setItem("pokerroom.open", JSON.stringify([...room.tables.keys()]));
}

// ------------------------------------------------------------------ table actions

function tableHooks(name) {
  return {
    sit: (seat) => sit(name, seat),
    previousHand: () => hands.open("previous", name),
    lobby: () => go("#/lobby"),
    topUp: () => topUp(name),
    leave: () => room.leave(name).catch(showError),
  };
}

async function sit(name, seat) {
  if (!room.player) return go("#/login");
  const row = room.lobbyRow(name);
  if (!row) return;
  // the buy-in this player may bring now: higher after leaving with more lately (D13)
  let limits = { min: row.min_buy_in, max: row.max_buy_in, rathole: null };
  try {
    limits = await api.buyIn(name);
  } catch (err) {
    if (err.code === "login_required") return showError(err);
  }
  const rathole = limits.rathole;
  const balance = room.balance ?? 0;
  if (balance < limits.min) {
    toast(rathole ? t("buyin.ratholeBalance", { stack: chips(rathole.stack) }) : t("chips.noBalance"), "error");
    return;
  }
  const max = Math.min(limits.max, balance);
  const amount = await askChips({
    title: t("buyin.title", { table: name, seat }),
    range: t("buyin.range", { min: chips(limits.min), max: chips(max), balance: chips(balance) }),
    note: rathole ? ratholeText(rathole) : "",
    ok: t("buyin.ok"),
    min: limits.min,
    max,
    initial: max,
  });
  if (amount === null) return;
  try {
    await room.sit(name, seat, amount);
    room.refreshBalance();
  } catch (err) {
    showError(err);
  }
}

/** "You left this table 12 minutes ago with 350 chips: sit down with at least 350 until 14:32." */
function ratholeText(rathole) {
  const minutes = Math.floor(Math.max(0, room.now() - rathole.left_at) / 60);
  const ago = minutes < 1 ? t("ago.now") : plural("ago.minutes", minutes);
  return t("buyin.rathole", { ago, stack: chips(rathole.stack), time: clockTime(rathole.until) });
}

async function topUp(name) {
  const ts = room.table(name);
  const me = ts?.mySeat();
  const row = room.lobbyRow(name);
  if (!me || !row) return;
  const balance = room.balance ?? 0;
  const max = Math.min(row.max_buy_in - me.stack, balance);
  const min = Math.max(1, row.min_buy_in - me.stack);
  if (max < min) {
    toast(max <= 0 && balance > 0 ? t("topup.full") : t("chips.noBalance"), "error");
    return;
  }
  const amount = await askChips({
    title: t("topup.title", { table: name }),
    range: t("topup.range", { max: chips(max), cap: chips(row.max_buy_in), balance: chips(balance) }),
    ok: t("topup.ok"),
    min,
    max,
    initial: max,
  });
  if (amount === null) return;
  try {
    await room.topUp(name, amount);
    room.refreshBalance();
  } catch (err) {
    showError(err);
  }
}

/** "Play" from the lobby: open the table, then offer the first free seat. */
function play(name) {
  if (!room.player) return go("#/login");
  pendingSit.add(name);
  go(`#/table/${encodeURIComponent(name)}`);
  offerSeat(name);
}

function offerSeat(name) {
  const ts = room.table(name);
  const row = room.lobbyRow(name);
  if (!pendingSit.has(name) || !ts?.view || !row) return;
  pendingSit.delete(name);
  if (ts.view.seat !== null && ts.view.seat !== undefined) return;
  const taken = new Set(ts.view.seats.map((s) => s.seat));
  for (let seat = 1; seat <= row.seats; seat += 1) {
    if (!taken.has(seat)) {
      sit(name, seat);
      return;
    }
  }
}

// ------------------------------------------------------------------ header

function updateHeader() {
  const who = $("#who");
  who.hidden = !room.player;
  setText($("#who-name"), room.player ?? "");
  setText($("#who-balance"), room.balance === null ? "" : chips(room.balance));
  $("#who-balance").setAttribute("aria-label", `${t("header.balance")}: ${chips(room.balance ?? 0)}`);
  $("#btn-logout").hidden = !room.player;
  $("#btn-history").hidden = !room.player;
  $("#btn-login").hidden = Boolean(room.player) || !room.identified;
  for (const b of document.querySelectorAll(".lang button")) b.setAttribute("aria-pressed", String(b.dataset.lang === language()));
}

function updateTabs() {
  const nav = $("#table-tabs");
  clear(nav);
  nav.append(h("a", { href: "#/lobby", class: `tab${active ? "" : " current"}`, "aria-current": active ? null : "page" }, t("nav.lobby")));
  for (const [name, ts] of room.tables) {
    const mine = ts.view && ts.view.seat !== null && ts.view.seat !== undefined;
    const turn = Boolean(ts.view?.legal && ts.view.actor === ts.view.seat);
    const tab = h("a", {
      href: `#/table/${encodeURIComponent(name)}`,
      class: `tab${name === active ? " current" : ""}${turn ? " your-turn" : ""}${mine ? " mine" : ""}`,
      "aria-current": name === active ? "page" : null,
      dataset: { table: name },
    }, name);
    const close = mine ? null : h("button", {
      type: "button", class: "tab-close", "aria-label": t("nav.closeTable", { table: name }),
      onclick: (e) => {
        e.preventDefault();
        closeTable(name);
      },
    }, "×");
    nav.append(h("span", { class: "tab-wrap" }, tab, close));
  }
}

function closeTable(name) {
  room.close(name);
  tableViews.get(name)?.el.remove();
  tableViews.delete(name);
  persistOpen();
  const next = [...room.tables.keys()][0];
  if (active === name) go(next && tiling(room.tables.size + 1) ? `#/table/${encodeURIComponent(next)}` : "#/lobby");
  else if (active) showTable(active); // tiled: the tiles close up
  else updateTabs();
}

// ------------------------------------------------------------------ the parts

const auth = new Auth(room, socket, {
  signedIn: () => {
    guest = false;
    go("#/lobby");
  },
  guest: () => {
    guest = true;
    sessionStorage.setItem("pokerroom.guest", "1");
    go("#/lobby");
  },
});
const waiting = new Waiting(room, { play, active: () => active });
const lobby = new Lobby(room, {
  play,
  watch: (name) => go(`#/table/${encodeURIComponent(name)}`),
  wait: (row) => waiting.lobbyButton(row),
});
const hands = new HandsWindow(room);

let frame = null;
const dirty = new Set();
function redraw(name) {
  dirty.add(name ?? "*");
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = null;
    const all = dirty.has("*");
    for (const name of visibleTables()) if (all || dirty.has(name)) tableViews.get(name)?.update();
    dirty.clear();
    markTiles();
    updateTabs();
  });
}

room.on("identity", () => {
  updateHeader();
  if (!room.player) sessionStorage.removeItem("pokerroom.open");
  render();
});
room.on("lobby", () => {
  // tables where we sit open by themselves (after a reload, say)
  if (room.player) {
    for (const row of room.lobby) if (row.players.includes(room.player) && !room.tables.has(row.name)) room.open(row.name);
    persistOpen();
  }
  redraw();
  for (const name of pendingSit) offerSeat(name);
});
room.on("table", ({ table }) => {
  redraw(table);
  offerSeat(table);
});
room.on("event", ({ table }) => redraw(table));
room.on("tables", () => {
  // tiled, a table opened by itself (a seat after a reload) gets its tile
  if (active && !showing && tiling(room.tables.size) && $("#view-table").childElementCount !== room.tables.size) showTable(active);
  else updateTabs();
});
room.on("turn", ({ table, deadline }) => {
  if (alerted.get(table) === deadline) return;
  alerted.set(table, deadline);
  yourTurn(table, document.hidden || !document.hasFocus() || !visibleTables().includes(table));
  redraw(table);
});
room.on("error", (m) => showError(m));
room.on("paused", ({ table, paused, seconds }) => {
  // the feed says it too; this is for a player looking elsewhere (another table, a phone)
  if (paused) toast(`${table}: ${t("log.paused")}`, "error", 8000);
  else toast(`${table}: ${t("log.resumed", { s: Math.round(seconds) })}`, "ok", 3000);
});
room.on("connection", ({ up, again }) => {
  const dot = $("#conn-dot");
  dot.dataset.state = up ? "up" : "down";
  dot.title = up ? t("header.connected") : t("header.connecting");
  dot.setAttribute("aria-label", dot.title);
  const banner = $("#conn-banner");
  if (!up) {
    banner.textContent = t("conn.lost");
    banner.hidden = false;
  } else {
    banner.hidden = true;
    if (again) toast(t("conn.back"), "ok", 2500);
  }
  updateHeader();
});

window.addEventListener("hashchange", render);
window.addEventListener("focus", stopFlash);
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) stopFlash();
});
document.addEventListener("pointerdown", stopFlash);

// keyboard shortcuts: the table on screen takes them (tiled: the one that needs the
// player first, else the one last chosen), unless the player is typing
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const typing = e.target;
  if (typing instanceof HTMLElement && typing.closest("input, textarea, select, [contenteditable]")) return;
  if (document.querySelector("dialog[open]")) return;
  const target = keyTable();
  if (!target) return;
  const view = tableViews.get(target);
  if (!view) return;
  if (e.key.toLowerCase() === "h") {
    hands.open("previous", target);
    e.preventDefault();
    return;
  }
  if (view.actions.handleKey(e)) {
    stopFlash();
    e.preventDefault();
  }
});

setInterval(() => {
  for (const name of visibleTables()) tableViews.get(name)?.tick();
}, 200);

// the header's menu (a phone folds Settings, EN/RU, Log out... into it): a tap on the
// button opens it; a choice in it, a tap elsewhere, Escape or another screen close it
const menuButton = $("#btn-menu");
function setMenu(open) {
  $(".topbar").classList.toggle("menu-open", open);
  menuButton.setAttribute("aria-expanded", String(open));
}
menuButton.addEventListener("click", () => setMenu(menuButton.getAttribute("aria-expanded") !== "true"));
$("#topbar-menu").addEventListener("click", (e) => {
  if (e.target instanceof Element && e.target.closest("button")) setMenu(false);
});
document.addEventListener("pointerdown", (e) => {
  if (e.target instanceof Element && !e.target.closest(".topbar")) setMenu(false);
});
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") setMenu(false);
});
window.addEventListener("hashchange", () => setMenu(false));

// header buttons and settings
$("#btn-logout").addEventListener("click", async () => {
  await auth.logout();
  guest = false;
  go("#/login");
});
$("#btn-login").addEventListener("click", () => go("#/login"));
$("#btn-history").addEventListener("click", () => hands.open("mine", active));
for (const b of document.querySelectorAll(".lang button")) b.addEventListener("click", () => setLanguage(b.dataset.lang));
$("#btn-settings").addEventListener("click", () => {
  $("#set-four-color").checked = pref("fourColor");
  $("#set-sound").checked = pref("sound");
  $("#set-flash").checked = pref("flash");
  $("#dlg-settings").showModal();
});
$("#set-four-color").addEventListener("change", (e) => setPref("fourColor", e.target.checked));
$("#set-sound").addEventListener("change", (e) => setPref("sound", e.target.checked));
$("#set-flash").addEventListener("change", (e) => setPref("flash", e.target.checked));
onPref((name, value) => {
  if (name === "fourColor") document.body.classList.toggle("four-color", value);
  if (name === "layout") relayout();
});

// "Tabs / Tile" in the header (tiles.js): shown on a window wide enough to tile (css)
function relayout() {
  for (const b of document.querySelectorAll(".layout-switch button")) {
    b.setAttribute("aria-pressed", String(b.dataset.layout === tileChoice()));
  }
  if (route().view === "table" && (room.identified || room.player)) render();
}
for (const b of document.querySelectorAll(".layout-switch button")) b.addEventListener("click", () => setTileChoice(b.dataset.layout));
WIDE.addEventListener("change", relayout);
document.body.classList.toggle("four-color", pref("fourColor"));

onLanguage(() => {
  updateHeader();
  updateTabs();
  lobby.render();
  for (const view of tableViews.values()) view.relabel();
  hands.relabel();
  auth.setMode(auth.mode);
});

// start
applyStatic(document);
updateHeader();
relayout();
try {
  for (const name of JSON.parse(sessionStorage.getItem("pokerroom.open") || "[]")) room.open(name);
} catch {
  sessionStorage.removeItem("pokerroom.open");
}
socket.connect();
render();

// for tests and the curious: the state and the connection
window.pokerroom = { room, socket, tableViews };
