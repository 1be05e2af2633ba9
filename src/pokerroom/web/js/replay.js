// The hand replayer (issue 19, item 5): a hand drawn on the table, step by step, with
// play, pause, a step back or forward, to the start or the end, and a speed. The steps
// are the server's (gateway/replay.py): a hand of yours (GET /api/hands/{id}/replay, the
// cards you saw and at the end the showdown's, D6) or a PHH file you import (POST
// /api/replay: every card the file has). The previous hand of a table you watch is folded
// here from its record, whose events are already what everyone may see. Each step is a
// snapshot ``view``: the table's own TableView draws it, over a room of one table that
// sends nothing (its dock of buttons is hidden: a replay has no turn to act on).
import { ApiError } from "./api.js";
import { describe } from "./chat.js";
import { clear, h, setText } from "./dom.js";
import { recordEventType, recordIsStud } from "./games.js";
import { onLanguage, t } from "./i18n.js";
import { TableState } from "./store.js";
import { TableView } from "./table.js";
import { showError, toast } from "./toast.js";

const SPEEDS = [0.5, 1, 2, 4];
const STEP_MS = 1400; // a step at speed 1

/** What a TableView needs of a Room, for one table that is only drawn. */
class ReplayRoom {
  constructor() {
    this.ts = new TableState("replay");
    this.player = null; // nobody sits down in a replay: no "Sit here" on the empty seats
    this.seats = 2;
  }

  table() {
    return this.ts;
  }

  lobbyRow() {
    return { seats: this.seats, action_time: 15, max_buy_in: 0 };
  }

  now() {
    return Date.now() / 1000;
  }

  announced() {
    return null;
  }

  // what the action bar and the seat panel could send: nothing, from a replay
  on() {}
  setPre() {}
  act() {}
  showCards() {}
  post() {}
  options() {}
  sitIn() {}
  sitOut() {}
}

/** api.js's request, for the replayer's two routes (kept here: api.js is not this feature's). */
async function call(method, path, body) {
  const response = await fetch(path, {
    method, credentials: "same-origin", headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch(() => {
    throw new ApiError("network", "the server cannot be reached", 0);
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = data?.error ?? {};
    throw new ApiError(error.code || "http", error.message || response.statusText, response.status);
  }
  return data;
}

/** The link that opens the replay of hand ``id`` (for the players of that hand). */
export function replayLink(id) {
  return `${location.origin}${location.pathname}#/replay/${id}`;
}

export class Replayer {
  constructor() {
    this.steps = [];
    this.k = 0;
    this.speed = 1;
    this.timer = null;
    this.handId = null;
    this.onClose = null;
  }

  build() {
    if (this.dialog) return;
    this.room = new ReplayRoom();
    this.table = new TableView(this.room, "replay", { sit() {}, previousHand() {}, lobby() {}, topUp() {}, leave() {} });
    const button = (control, text, onclick) => h("button", { type: "button", class: "secondary small", dataset: { control }, onclick }, text);
    this.titleEl = h("h2", { id: "dlg-replay-title" });
    this.closeEl = h("button", { type: "button", class: "close", id: "replay-close", onclick: () => this.dialog.close() }, "×");
    this.firstEl = button("first", "«", () => this.go(0));
    this.backEl = button("back", "◀", () => this.go(this.k - 1));
    this.playEl = button("play", "▶", () => (this.timer ? this.pause() : this.play()));
    this.playEl.classList.replace("secondary", "primary");
    this.forwardEl = button("forward", "▶", () => this.go(this.k + 1));
    this.forwardEl.classList.add("step-forward");
    this.lastEl = button("last", "»", () => this.go(this.steps.length - 1));
    this.speedEl = h("select", { id: "replay-speed", onchange: () => this.setSpeed(Number(this.speedEl.value)) },
      SPEEDS.map((s) => h("option", { value: String(s), selected: s === this.speed }, `${s}×`)));
    this.speedLabel = h("label", { class: "replay-speed" }, h("span", {}), this.speedEl);
    this.positionEl = h("span", { class: "replay-position", id: "replay-position", "aria-live": "polite" });
    this.captionEl = h("div", { class: "replay-caption", id: "replay-caption", role: "status" });
    this.linkEl = h("button", { type: "button", class: "link replay-link", id: "replay-link", onclick: () => this.copyLink() });
    this.dialog = h("dialog", { id: "dlg-replay", class: "wide replay", "aria-labelledby": "dlg-replay-title" },
      h("div", { class: "dialog-head" }, this.titleEl, this.closeEl),
      h("div", { class: "replay-body" },
        h("div", { class: "replay-table" }, this.table.el),
        h("div", { class: "replay-bar" },
          h("div", { class: "replay-buttons" }, this.firstEl, this.backEl, this.playEl, this.forwardEl, this.lastEl),
          this.positionEl, this.speedLabel),
        this.captionEl, this.linkEl));
    this.dialog.addEventListener("close", () => {
      this.pause();
      this.onClose?.();
    });
    this.dialog.addEventListener("keydown", (e) => {
      if (e.target instanceof HTMLSelectElement) return;
      if (e.key === "ArrowLeft") this.go(this.k - 1);
      else if (e.key === "ArrowRight") this.go(this.k + 1);
      else if (e.key === " ") this.timer ? this.pause() : this.play();
      else return;
      e.preventDefault();
    });
    document.body.append(this.dialog);
    this.relabel();
  }

  relabel() {
    if (!this.dialog) return;
    setText(this.titleEl, this.title ?? t("replay.title"));
    this.closeEl.setAttribute("aria-label", t("dialog.close"));
    for (const [el, key] of [[this.firstEl, "replay.first"], [this.backEl, "replay.back"], [this.forwardEl, "replay.forward"],
      [this.lastEl, "replay.last"]]) {
      el.setAttribute("aria-label", t(key));
      el.title = t(key);
    }
    setText(this.speedLabel.firstChild, t("replay.speed"));
    setText(this.linkEl, t("replay.copyLink"));
    this.linkEl.title = t("replay.linkNote");
    this.table.relabel();
    if (this.steps.length) this.draw();
  }

  /** A hand of yours, by its id (a 404 for a hand you did not play). */
  async openHand(id) {
    try {
      const data = await call("GET", `/api/hands/${encodeURIComponent(id)}/replay`);
      this.show(data.steps, { id, record: data.record, title: t("replay.handTitle", { table: data.table, n: data.number }) });
    } catch (err) {
      showError(err);
      this.onClose?.();
    }
  }

  /** A PHH file from disk: its first hand, every card it has. */
  async openFile(file) {
    try {
      const text = await file.text();
      const data = await call("POST", "/api/replay", { phh: text });
      this.show(data.steps, { title: t("replay.fileTitle", { name: file.name }) });
    } catch (err) {
      // the reader's or the engine's reason (English, as the server gives it) after the words
      if (err.code === "bad_phh") toast(`${t("error.bad_phh")} ${err.message}`, "error", 10000);
      else showError(err);
    }
  }

  /** The previous hand of a table, from its record (what everyone at the table may see). */
  openRecord(record, table, seats) {
    this.show(recordSteps(record, table, seats), { record, title: t("replay.handTitle", { table, n: record.number }) });
  }

  /** ``record``: the hand's previous-hand record, when there is one: its end is drawn as
   *  the table draws the end of a hand (the hands' names, the winning five). */
  show(steps, { id = null, title, record = null }) {
    this.build();
    this.pause();
    this.steps = steps;
    this.record = record;
    this.handId = id;
    this.title = title;
    this.room.seats = steps[0]?.view.max_seats ?? 2;
    this.table.size = 0;
    this.linkEl.hidden = id === null;
    setText(this.titleEl, title);
    if (!this.dialog.open) this.dialog.showModal();
    this.go(0);
    this.playEl.focus();
  }

  go(k) {
    if (!this.steps.length) return;
    const next = Math.max(0, Math.min(this.steps.length - 1, k));
    if (next < this.k) this.table.pushedFor = null; // the pots fly to the winners again
    this.k = next;
    if (this.k === this.steps.length - 1) this.pause();
    this.draw();
  }

  draw() {
    const step = this.steps[this.k];
    const ts = this.room.ts;
    const view = step.view;
    ts.view = view;
    const names = Object.fromEntries(view.seats.map((s) => [s.seat, s.player]));
    const last = this.k === this.steps.length - 1;
    const mine = view.seats.find((s) => s.seat === view.seat);
    ts.myHand = mine ? { number: view.hand_number, cards: mine.cards } : null;
    const awards = this.steps.map((s) => s.event).filter((e) => e && e.type === "PotAwarded");
    ts.showdown = last && awards.length ? {
      finished: true, number: view.hand_number, at: Date.now(), record: this.record, view,
      shown: Object.fromEntries(view.seats.filter((s) => s.cards.some((c) => c)).map((s) => [s.seat, s.cards])),
      awards: awards.map((e) => ({ pot: e.pot, amount: e.amount, winners: e.winners, shares: e.shares })),
    } : null;
    this.table.update();
    setText(this.positionEl, t("replay.step", { k: this.k + 1, n: this.steps.length }));
    this.captionEl.dataset.step = String(this.k);
    clear(this.captionEl);
    const e = step.event;
    const line = e ? describe({ event: e, who: names[e.player] ?? null, winners: (e.winners ?? []).map((w) => names[w]),
      stud: Boolean(view.game_info?.variant === "stud") }) : null;
    if (line) this.captionEl.append(...line.nodes);
    else setText(this.captionEl, !e ? t("replay.start") : e.type === "HoleDealt" ? t("replay.dealt")
      : e.type === "HandEnded" ? t("replay.end") : "");
    this.backEl.disabled = this.firstEl.disabled = this.k === 0;
    this.forwardEl.disabled = this.lastEl.disabled = last;
    const playing = Boolean(this.timer);
    setText(this.playEl, playing ? "⏸" : "▶");
    this.playEl.setAttribute("aria-label", t(playing ? "replay.pause" : "replay.play"));
    this.playEl.title = t(playing ? "replay.pause" : "replay.play");
    this.playEl.dataset.playing = String(playing);
  }

  play() {
    if (this.timer || !this.steps.length) return;
    if (this.k === this.steps.length - 1) this.k = 0;
    this.timer = setInterval(() => this.go(this.k + 1), STEP_MS / this.speed);
    this.draw();
  }

  pause() {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    if (this.steps.length) this.draw();
  }

  setSpeed(speed) {
    this.speed = SPEEDS.includes(speed) ? speed : 1;
    if (this.timer) {
      this.pause();
      this.play();
    }
  }

  async copyLink() {
    if (this.handId === null) return;
    const link = replayLink(this.handId);
    try {
      await navigator.clipboard.writeText(link);
      toast(t("replay.copied"), "info");
    } catch {
      toast(link, "info", 8000);
    }
  }
}

/** The steps of a previous-hand record, folded from its events (seats for players; the
 *  cards nobody may see are null in them): the same shape as the server's. */
export function recordSteps(record, table, maxSeats) {
  const stud = recordIsStud(record);
  const players = [...record.players];
  const at = Object.fromEntries(players.map((p, i) => [p.seat, i]));
  const st = players.map((p) => ({ stack: p.starting_stack, bet: 0, folded: false, allIn: false, cards: [] }));
  const board = [];
  const shown = new Set();
  let collected = 0;
  let street = 0;
  let ended = false;
  let sb = null, bb = null;
  const streets = stud ? ["third", "fourth", "fifth", "sixth", "seventh"] : ["preflop", "flop", "turn", "river"];
  const base = {
    name: table, max_seats: Math.max(maxSeats ?? 0, ...players.map((p) => p.seat), 2), min_buy_in: 0, max_buy_in: 0,
    viewer: null, seat: null, phase: "playing", game: record.game, next_game: record.game, hands_to_switch: 0,
    hand_number: record.number, button: stud ? null : record.button, deadline: null, legal: null, post: null,
    options: null, time_bank: null, previous_hand: null, game_info: record.game_info, next_game_info: record.game_info,
  };
  const view = (actor) => {
    const pot = collected + st.reduce((a, s) => a + s.bet, 0);
    const recordAt = (i) => players[i];
    return {
      ...base, small_blind: sb, big_blind: bb, board: [...board], pot,
      pots: pot ? [{ amount: pot, seats: players.filter((_, i) => !st[i].folded).map((p) => p.seat) }] : [],
      street: ended ? "showdown" : streets[Math.min(street, streets.length - 1)], actor,
      seats: st.map((s, i) => ({
        seat: recordAt(i).seat, player: recordAt(i).player, stack: s.stack, state: "active", owes: "nothing",
        in_hand: true, bet: s.bet, folded: s.folded, all_in: s.allIn && !s.folded, leaving: false, protected: false,
        cards: s.cards.map(([c, up]) => (c && (up || shown.has(i) || (ended && recordAt(i).cards.includes(c))) ? c : null)),
      })),
    };
  };
  const steps = [{ view: view(null), event: null }];
  const events = record.events.map((e) => ({ ...e, type: recordEventType(e) }));
  events.forEach((e, k) => {
    const i = at[e.player];
    const s = st[i];
    switch (e.type) {
      case "Posted":
        s.stack -= e.amount;
        s.allIn = e.all_in;
        if (e.kind === "ante" || e.kind === "dead") collected += e.amount;
        else s.bet += e.amount;
        if (e.kind === "small_blind") sb = e.player;
        if (e.kind === "big_blind") bb = e.player;
        break;
      case "HoleDealt":
        s.cards.push([e.card, e.face_up]);
        break;
      case "BoardDealt":
        board.push(...e.cards);
        street = e.street;
        break;
      case "Acted":
        if (e.action === "fold") s.folded = true;
        else {
          s.stack -= e.amount;
          s.bet = e.to;
          s.allIn = e.all_in;
        }
        break;
      case "UncalledReturned": {
        const back = Math.min(e.amount, s.bet);
        s.bet -= back;
        collected -= e.amount - back;
        s.stack += e.amount;
        break;
      }
      case "StreetEnded":
        collected = e.pot;
        for (const x of st) x.bet = 0;
        street = e.street + 1;
        break;
      case "Shown":
        shown.add(i);
        break;
      case "PotAwarded":
        collected = Math.max(0, collected + st.reduce((a, x) => a + x.bet, 0) - e.amount);
        for (const x of st) x.bet = 0;
        e.winners.forEach((w, n) => { st[at[w]].stack += e.shares[n]; });
        break;
      default:
        break;
    }
    if (e.type === "StreetEnded" || e.type === "Reshuffled") return;
    if (e.type === "HoleDealt" && events[k + 1]?.type === "HoleDealt") return;
    const actor = ["Acted", "Posted", "Shown", "Mucked"].includes(e.type) ? e.player : null;
    if (k === events.length - 1) {
      ended = true;
      players.forEach((p, n) => { st[n].stack = p.final_stack; st[n].bet = 0; });
      collected = 0;
    }
    steps.push({ view: view(actor), event: e });
  });
  return steps;
}

export const replayer = new Replayer();
onLanguage(() => replayer.relabel());

/** The "Import PHH" input: a file chosen is replayed. */
export function importInput() {
  const input = h("input", { type: "file", accept: ".phh,.phhs,.toml,text/plain", id: "replay-import", class: "visually-hidden",
    onchange: () => {
      const file = input.files?.[0];
      if (file) replayer.openFile(file);
      input.value = "";
    } });
  return h("label", { class: "button-like small replay-import", title: t("replay.importHelp") }, `⤒ ${t("replay.import")}`, input);
}

export function replayButton(onclick) {
  return h("button", { type: "button", class: "secondary small", dataset: { control: "replay" }, onclick }, `▶ ${t("replay.open")}`);
}
