// The client's state: who we are, the lobby, and each open table as the server last
// described it (its snapshot ``view``, event ``version``, clock, showdown, log and chat).
// It applies server messages and sends commands; it decides nothing about the game. Every
// write of this state goes through here (the Room's methods): the views only read it.
// A table's events carry versions that rise by one (docs/protocol.md): a version skipped
// means something was lost, and the table is drawn again from a fresh snapshot, never on.
import { api } from "./api.js";
import { isStud } from "./games.js";

const LOG_SIZE = 400;
const ANNOUNCED = "pokerroom.announced"; // localStorage: what deals announced (Room.announce)

function announcedDeals() {
  try {
    const all = JSON.parse(localStorage.getItem(ANNOUNCED) ?? "{}");
    return all && typeof all === "object" && !Array.isArray(all) ? all : {};
  } catch {
    return {};
  }
}

export class TableState {
  constructor(name) {
    this.name = name;
    this.version = null; // the last event version seen (for ``since`` after a reconnect)
    this.view = null; // the latest snapshot view
    this.turn = null; // {legal, deadline} from your_turn
    this.clock = null; // the latest TurnStarted: {seat, started, deadline, time_bank}
    this.commitment = null; // the deal's DeckCommitted hash
    this.pendingCommitment = null; // published just before its HandStarted
    this.showdown = null; // the end of the last hand, shown until the next one starts
    this.previous = null; // the previous-hand record
    this.askedPrevious = null; // the hand number whose record was requested
    this.log = []; // {id, event, who, winners}: the dealer log and chat, translated when drawn
    this.logSeq = 0;
    this.seatNames = {}; // seat -> name, kept from the events between snapshots
    this.pre = null; // a pre-action: {kind, level, street, hand}
    this.marks = { number: null, protected: new Set(), straddle: null }; // of the hand being played
    this.myHand = null; // {number, cards}: the viewer's hole cards of the last hand he was dealt
    this.reveals = { number: null, seats: {} }; // cards shown after hand ``number`` (D12), by seat
    this.sending = false; // an action was sent and not yet reflected
    this.postDeadline = null;
    this.resyncing = false; // a version was skipped: events wait for the snapshot asked for
    this.gaps = 0; // how many times that happened
  }

  /** Seat number -> player name, from the latest view. */
  names() {
    const names = {};
    for (const s of this.view?.seats ?? []) names[s.seat] = s.player;
    return names;
  }

  /** The cards ``seat`` showed after hand ``number`` (D12), in the order shown. */
  revealed(number, seat) {
    return this.reveals.number === number ? (this.reveals.seats[seat] ?? []) : [];
  }

  mySeat() {
    const v = this.view;
    if (!v || v.seat === null || v.seat === undefined) return null;
    return v.seats.find((s) => s.seat === v.seat) ?? null;
  }
}

export class Room extends EventTarget {
  constructor(socket) {
    super();
    this.socket = socket;
    this.player = null; // our name, or null (a guest)
    this.balance = null;
    this.identified = false; // a welcome came on this connection
    this.connected = false;
    this.lobby = [];
    this.lobbyLoaded = false;
    this.tables = new Map(); // open tables, in the order they were opened
    this.waitingAt = new Map(); // table -> {place, until}: the waiting lists we are on (until: a seat held for us)
    this.clockOffset = null; // server time minus local time, seconds (learned from TurnStarted)
    socket.addEventListener("message", (e) => this.handle(e.detail));
    socket.addEventListener("up", (e) => this.resync(e.detail.again));
    socket.addEventListener("down", () => {
      this.connected = false;
      this.emit("connection", { up: false });
    });
  }

  emit(type, detail = {}) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  on(type, fn) {
    this.addEventListener(type, (e) => fn(e.detail));
  }

  /** Server time now, in seconds since the epoch (deadlines are server times). */
  now() {
    return Date.now() / 1000 + (this.clockOffset ?? 0);
  }

  /** A server time that was "now" on the server when it was sent (or earlier, for an
   *  event replayed after a reconnect): the offset is at least its difference to ours. */
  learnClock(serverTime) {
    const offset = serverTime - Date.now() / 1000;
    if (this.clockOffset === null || offset > this.clockOffset) this.clockOffset = offset;
  }

  // ------------------------------------------------------------------ connection

  resync(again) {
    this.connected = true;
    this.identified = false;
    this.socket.send({ type: "lobby" });
    for (const ts of this.tables.values()) this.sendSubscribe(ts);
    this.emit("connection", { up: true, again });
  }

  sendSubscribe(ts) {
    ts.promised = null; // a room that restarted deals on from other decks
    if (ts.version !== null) {
      // the events missed while away (chat, log, the end of a hand), then a fresh view
      this.socket.send({ type: "subscribe", table: ts.name, since: ts.version, snapshots: true });
    }
    this.socket.send({ type: "subscribe", table: ts.name, snapshots: true });
  }

  /** Forget the versions: after a login or logout every view must come fresh. */
  forgetVersions() {
    for (const ts of this.tables.values()) {
      ts.version = null;
      ts.view = null;
      ts.turn = null;
    }
  }

  // ------------------------------------------------------------------ tables

  open(name) {
    let ts = this.tables.get(name);
    if (!ts) {
      ts = new TableState(name);
      this.tables.set(name, ts);
      if (this.connected) this.sendSubscribe(ts);
      this.emit("tables");
    }
    return ts;
  }

  close(name) {
    if (!this.tables.has(name)) return;
    this.tables.delete(name);
    this.socket.send({ type: "unsubscribe", table: name });
    this.emit("tables");
  }

  table(name) {
    return this.tables.get(name) ?? null;
  }

  lobbyRow(name) {
    return this.lobby.find((r) => r.name === name) ?? null;
  }

  // ------------------------------------------------------------------ messages

  handle(m) {
    switch (m.type) {
      case "welcome":
        this.identified = true;
        this.player = m.player;
        this.balance = m.balance;
        this.emit("identity");
        break;
      case "lobby":
        this.lobby = m.tables;
        this.lobbyLoaded = true;
        this.emit("lobby");
        break;
      case "snapshot":
        this.onSnapshot(m);
        break;
      case "events": { // what one command or tick caused, in order (a hand's last action alone, before its result)
        const ts = this.tables.get(m.table);
        for (const item of ts ? m.events : []) {
          if (this.inOrder(ts, item.version)) this.onEvent({ table: m.table, version: item.version, event: item.event });
        }
        break;
      }
      case "your_turn": {
        const ts = this.tables.get(m.table);
        if (!ts) break;
        ts.turn = { legal: m.legal, deadline: m.deadline };
        this.emit("turn", { table: m.table, deadline: m.deadline });
        break;
      }
      case "previous_hand": {
        const ts = this.tables.get(m.table);
        if (!ts) break;
        ts.previous = m.hand;
        if (m.hand && ts.showdown && ts.showdown.number === m.hand.number) {
          const first = !ts.showdown.record;
          ts.showdown.record = m.hand; // again after a show after the hand (D12): those cards face up
          for (const p of first ? m.hand.players : []) {
            if (p.reached_showdown && p.hand) this.addLog(ts, { type: "HandName", player: p.player, cards: p.cards, hand: p.hand, value: p.value }, {});
          }
        }
        this.emit("table", { table: m.table, previous: true });
        break;
      }
      case "table_moving": { // its server stopped: the gateway tries the command again
        const ts = this.tables.get(m.table);
        if (ts) this.addLog(ts, { type: "TableMoving" }, {});
        break;
      }
      case "table_paused": // the room could not save a write of its chips: it stops until it can
      case "table_resumed": {
        const ts = this.tables.get(m.table);
        if (!ts) break;
        ts.paused = m.type === "table_paused";
        this.addLog(ts, { type: m.type === "table_paused" ? "TablePaused" : "TableResumed", seconds: m.paused_for ?? 0 }, {});
        this.emit("table", { table: m.table });
        this.emit("paused", { table: m.table, paused: ts.paused, seconds: m.paused_for ?? 0 });
        break;
      }
      case "seat_offered": // first on a waiting list: a seat is held for us until ``until``
        this.waitingAt.set(m.table, { ...this.waitingAt.get(m.table), until: m.until });
        this.emit("waiting", { table: m.table, offer: m.until });
        break;
      case "error":
        this.emit("error", m);
        break;
      default:
        break;
    }
  }

  /** Whether an event of ``version`` is the next one of table ``ts``: one seen already (a
   *  replay overlapping what came) is skipped; one after a gap is not drawn: the table asks
   *  for a snapshot (a subscribe without ``since``) and skips events until it comes. */
  inOrder(ts, version) {
    if (ts.version === null || ts.resyncing) return false; // a snapshot comes first
    if (version <= ts.version) return false;
    if (version === ts.version + 1) return true;
    ts.resyncing = true;
    ts.gaps += 1;
    this.socket.send({ type: "subscribe", table: ts.name, snapshots: true });
    this.emit("gap", { table: ts.name, expected: ts.version + 1, got: version });
    return false;
  }

  onSnapshot(m) {
    const ts = this.tables.get(m.table);
    if (!ts) return;
    ts.resyncing = false;
    const before = ts.view;
    ts.view = m.view;
    ts.version = m.version;
    ts.seatNames = Object.fromEntries(m.view.seats.map((x) => [x.seat, x.player]));
    ts.sending = false;
    if (!m.view.legal) ts.turn = null;
    const mine = m.view.seats.find((x) => x.seat === m.view.seat);
    if (m.view.phase === "playing" && mine?.in_hand && mine.cards.length && mine.cards.every(Boolean)) {
      ts.myHand = { number: m.view.hand_number, cards: mine.cards };
    }
    if (m.view.phase === "playing" && ts.showdown && m.view.hand_number > ts.showdown.number) ts.showdown = null;
    if (m.view.previous_hand && ts.askedPrevious !== m.view.previous_hand && ts.previous?.number !== m.view.previous_hand) {
      this.askPrevious(ts, m.view.previous_hand);
    }
    const wasSeated = before && before.seat !== null && before.seat !== undefined;
    const seatedNow = m.view.seat !== null && m.view.seat !== undefined;
    if (wasSeated !== seatedNow && this.player) this.refreshBalance();
    this.noteWaiting(m.table, m.view.waiting ?? [], m.view.offers ?? []);
    this.emit("table", { table: m.table });
  }

  /** A table's waiting list as it now is: whether we are on it, our place, a seat held for us. */
  noteWaiting(table, waiting, offers) {
    if (!this.player) return;
    const place = waiting.indexOf(this.player) + 1;
    const held = offers.find(([who]) => who === this.player);
    const before = this.waitingAt.get(table);
    if (place) this.waitingAt.set(table, { place, until: held ? held[1] : null });
    else this.waitingAt.delete(table);
    if (before || place) this.emit("waiting", { table });
  }

  /** Keep what was announced at a deal (its commitment, the seeds mixed in): the hand's
   *  history is checked against it, not against what the history says (fair.js). The last
   *  400 deals are kept in localStorage, so a reload still knows them. */
  announce(table, number, fields) {
    const all = announcedDeals();
    const key = `${table}#${number}`;
    all[key] = { ...all[key], ...fields };
    const keys = Object.keys(all);
    for (const old of keys.slice(0, Math.max(0, keys.length - 400))) delete all[old];
    try {
      localStorage.setItem(ANNOUNCED, JSON.stringify(all));
    } catch {
      // storage full or refused: the check falls back to the history's own commitment
    }
  }

  announced(table, number) {
    return announcedDeals()[`${table}#${number}`] ?? null;
  }

  /** Our own randomness for the next deal of a table we sit at (docs/protocol.md, "Provably
   *  fair deals"): 16 random bytes from the browser, naming the commitment announced. */
  sendSeed(ts, number, commitment) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    const seed = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    // hand ``number`` must be dealt from ``commitment``, with this seed in it once the room
    // took it: checked at its deal (``dealtAsPromised``); a seed refused (the deck was
    // dealt meanwhile) costs nothing
    ts.promised = { number, commitment, seed: null };
    this.socket.request({ type: "seed", table: ts.name, commitment, seed })
      .then(() => {
        if (ts.promised?.number === number) ts.promised.seed = seed;
      })
      .catch(() => {});
  }

  /** At a deal: was it the deck announced a hand before, with our seed in it? If not, the
   *  hand's proof fails (fair.js), whatever its history says. */
  dealtAsPromised(ts, e) {
    const promise = ts.promised;
    if (!promise || promise.number !== e.number) return;
    let broken = null;
    if (e.type === "DeckCommitted" && e.commitment !== promise.commitment) {
      broken = "the deck dealt is not the one announced a hand before, for the players' seeds";
    } else if (e.type === "DeckSeeded" && promise.seed && !e.seeds.some((pair) => pair[1] === promise.seed)) {
      broken = "the seed this browser sent, and the room took, was not mixed into the deal";
    }
    if (broken) this.announce(ts.name, e.number, { broken });
  }

  askPrevious(ts, number) {
    ts.askedPrevious = number;
    this.socket.send({ type: "previous_hand", table: ts.name });
  }

  onEvent(m) {
    const ts = this.tables.get(m.table);
    if (!ts) return;
    ts.version = m.version;
    const e = m.event;
    const names = ts.names();
    switch (e.type) {
      case "HandStarted":
        ts.showdown = null;
        ts.pre = null;
        ts.commitment = ts.pendingCommitment ?? ts.commitment;
        ts.marks = { number: e.number, protected: new Set(), straddle: null };
        break;
      case "Posted":
        if (e.kind === "straddle") ts.marks.straddle = e.player;
        break;
      case "Acted":
        if (e.action === "protected") ts.marks.protected.add(e.player);
        break;
      case "CardsRevealed": {
        // shown after the hand (D12): face up at the seat now, and in the record asked again
        if (ts.reveals.number !== e.number) ts.reveals = { number: e.number, seats: {} };
        const before = ts.reveals.seats[e.seat] ?? [];
        ts.reveals.seats[e.seat] = [...before, ...e.cards.filter((c) => !before.includes(c))];
        if (ts.showdown?.number === e.number) ts.showdown.at = Date.now(); // the end of the hand stays to be seen
        if (ts.previous?.number === e.number || ts.showdown?.number === e.number) this.askPrevious(ts, e.number);
        break;
      }
      case "DeckCommitted":
        this.dealtAsPromised(ts, e);
        ts.pendingCommitment = e.commitment;
        this.announce(ts.name, e.number, { commitment: e.commitment });
        break;
      case "DeckSeeded":
        this.announce(ts.name, e.number, { seeds: e.seeds });
        this.dealtAsPromised(ts, e);
        if (this.player && ts.view?.seats?.some((x) => x.player === this.player)) {
          this.sendSeed(ts, e.number + 1, e.next_commitment);
        }
        break;
      case "TurnStarted":
        ts.clock = e;
        this.learnClock(e.started);
        break;
      case "PostRequested":
        if (e.player === this.player) ts.postDeadline = e.deadline;
        break;
      case "Shown":
        this.showdownOf(ts).shown[e.player] = e.cards;
        break;
      case "PotAwarded":
        this.showdownOf(ts).awards.push(e);
        break;
      case "HandFinished": {
        const sd = this.showdownOf(ts);
        sd.number = e.number;
        sd.finished = true;
        sd.net = Object.fromEntries(e.net);
        sd.at = Date.now();
        sd.view = ts.view; // the table as it was at the end, for the seats' places
        this.askPrevious(ts, e.number);
        ts.clock = null;
        break;
      }
      case "Left":
      case "ChipsAdded":
        if (e.player === this.player) this.refreshBalance();
        break;
      case "WaitingChanged":
        if (ts.view) ts.view = { ...ts.view, waiting: e.waiting, offers: e.offers };
        this.noteWaiting(ts.name, e.waiting, e.offers);
        break;
      default:
        break;
    }
    const quiet = ["TurnStarted", "DeckCommitted", "DeckSeeded", "WaitingChanged"];
    if (!quiet.includes(e.type)) this.addLog(ts, e, names);
    this.emit("event", { table: m.table, event: e });
  }

  /** A line for the dealer log and chat, with the seat numbers turned into names now
   *  (the seat may change hands later). */
  addLog(ts, event, names) {
    if (event.type === "Seated") ts.seatNames[event.seat] = event.player;
    const seatNames = { ...names, ...ts.seatNames };
    const who = typeof event.player === "number" ? seatNames[event.player] : (event.player ?? null);
    const winners = (event.winners ?? []).map((s) => seatNames[s] ?? null);
    ts.logSeq += 1;
    ts.log.push({ id: ts.logSeq, event, who, winners, stud: isStud(ts.view?.game_info) });
    if (ts.log.length > LOG_SIZE) ts.log.shift();
    if (event.type === "Left") delete ts.seatNames[event.seat];
  }

  showdownOf(ts) {
    if (!ts.showdown || ts.showdown.finished) {
      ts.showdown = {
        number: ts.view?.hand_number ?? null, shown: {}, awards: [], finished: false, record: null, net: {},
      };
    }
    return ts.showdown;
  }

  async refreshBalance() {
    try {
      const me = await api.me();
      this.balance = me.balance;
      this.emit("identity");
    } catch {
      // logged out meanwhile: the welcome of the next connection says so
    }
  }

  // ------------------------------------------------------------------ the page's own writes

  /** Logged in as ``name`` (the welcome of the next connection confirms it). */
  signedIn(name) {
    this.player = name;
  }

  signedOut() {
    this.player = null;
    this.balance = null;
  }

  setBalance(balance) {
    this.balance = balance;
    this.emit("identity");
  }

  /** A pre-action box (check/fold, call any...) ticked for table ``name``, or cleared (null). */
  setPre(name, pre) {
    const ts = this.tables.get(name);
    if (ts) ts.pre = pre;
  }

  // ------------------------------------------------------------------ commands

  command(table, type, fields = {}) {
    return this.socket.request({ type, table, ...fields });
  }

  sit(table, seat, buyIn) {
    return this.command(table, "sit", { seat, buy_in: buyIn });
  }

  act(table, action, amount) {
    const ts = this.tables.get(table);
    if (ts) ts.sending = true;
    const fields = amount === undefined || amount === null ? { action } : { action, amount };
    return this.command(table, "act", fields).catch((err) => {
      if (ts) ts.sending = false;
      this.emit("table", { table });
      throw err;
    });
  }

  /** Show some of one's hole cards after the hand (D12): ``cards`` are their indices. */
  showCards(table, cards) {
    return this.command(table, "show_cards", { cards });
  }

  options(table, values) {
    return this.command(table, "options", values);
  }

  post(table, accept) {
    return this.command(table, "post", { accept });
  }

  sitOut(table) {
    return this.command(table, "sit_out");
  }

  sitIn(table) {
    return this.command(table, "sit_in");
  }

  leave(table) {
    return this.command(table, "leave");
  }

  /** Wait for a seat at a full table; ``leaveWaiting``: no more. */
  async joinWaiting(table) {
    await this.command(table, "join_waiting");
    if (!this.waitingAt.has(table)) this.waitingAt.set(table, { place: null, until: null });
    this.emit("waiting", { table });
  }

  async leaveWaiting(table) {
    try {
      await this.command(table, "leave_waiting");
    } finally {
      this.waitingAt.delete(table);
      this.emit("waiting", { table });
    }
  }

  topUp(table, amount) {
    return this.command(table, "top_up", { amount });
  }

  chat(table, text) {
    return this.command(table, "chat", { text });
  }
}
