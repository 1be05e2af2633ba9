// Waiting lists (issue 19): join a full table's list from the lobby or from the table,
// see your place and who waits, and when a seat is held for you, a prompt with the time
// left and a sound: take it (the table opens with its buy-in) or let it go to the next.
// A table of a template ("first free seat of this game"): waiting from the lobby puts us
// on the list of each of its full tables, and a seat taken at one of them takes us off the
// others. The state is the store's (room.waitingAt, the view's ``waiting`` and ``offers``).
import { seatOffered } from "./alerts.js";
import { $, clear, h } from "./dom.js";
import { t } from "./i18n.js";
import { showError } from "./toast.js";

export class Waiting {
  /** hooks: {play(name): open the table and offer its free seat, active(): the table shown or null} */
  constructor(room, hooks) {
    this.room = room;
    this.hooks = hooks;
    this.bar = h("div", { class: "waiting-bar", id: "waiting-bar", role: "status", hidden: true });
    $("#view-table").before(this.bar);
    this.dialog = h("dialog", { id: "dlg-offer", "aria-labelledby": "dlg-offer-title" });
    document.body.append(this.dialog);
    this.offer = null; // {table, until} of the prompt shown
    this.timer = null;
    room.on("waiting", ({ table, offer }) => {
      if (offer) this.prompt(table, offer);
      else if (this.offer?.table === table && !room.waitingAt.get(table)?.until) this.closePrompt();
      this.render();
    });
    for (const kind of ["table", "event", "lobby", "identity"]) room.on(kind, () => this.render());
    room.on("table", ({ table }) => this.seatedAt(table));
    window.addEventListener("hashchange", () => this.render());
  }

  /** The lobby's button for a table whose free seats (if any) are held for its waiting list
   *  (null when it has a seat for us: one free beyond those, or one held for us). */
  lobbyButton(row) {
    const me = this.room.player;
    const mine = this.room.waitingAt.get(row.name);
    const free = row.seats - row.taken;
    if (!me || row.players.includes(me) || mine?.until || (!mine && free > (row.waiting ?? 0))) return null;
    return h("button", {
      type: "button", class: `small ${mine ? "secondary" : "primary"}`, dataset: { action: mine ? "unwait" : "wait" },
      "aria-label": t(mine ? "waiting.leaveTitle" : "waiting.joinTitle", { table: row.name }),
      onclick: () => this.toggle(row.name, true),
    }, mine ? placeText(mine.place) : t("waiting.join", { n: row.waiting ?? 0 }));
  }

  /** Join or leave ``table``'s list; from the lobby (``game``), every full table of its
   *  template too. */
  async toggle(table, game = false) {
    const room = this.room;
    const template = game ? room.lobbyRow(table)?.template : null;
    const full = (r) => r.taken >= r.seats && !r.players.includes(room.player);
    const all = template ? room.lobby.filter((r) => r.template === template && full(r)).map((r) => r.name) : [];
    const names = [table, ...all.filter((n) => n !== table)];
    try {
      if (room.waitingAt.has(table)) {
        for (const name of names.filter((n) => room.waitingAt.has(n))) await room.leaveWaiting(name);
      } else {
        await room.joinWaiting(table);
        for (const name of names.slice(1)) await room.joinWaiting(name).catch(() => null); // a seat may be free there now
      }
    } catch (err) {
      showError(err);
    }
  }

  /** Seated at ``table``: off the waiting lists of its template's other tables. */
  seatedAt(table) {
    const room = this.room;
    const view = room.table(table)?.view;
    const template = room.lobbyRow(table)?.template;
    if (!template || !view || view.seat === null || view.seat === undefined) return;
    for (const name of [...room.waitingAt.keys()]) {
      if (name !== table && room.lobbyRow(name)?.template === template) room.leaveWaiting(name).catch(() => null);
    }
  }

  /** The bar over the table shown: its waiting list, and join or leave it. */
  render() {
    const name = this.hooks.active();
    const view = name ? this.room.table(name)?.view : null;
    const me = this.room.player;
    const waiting = view?.waiting ?? [];
    const seated = view && view.seat !== null && view.seat !== undefined;
    const full = view && view.seats.length >= view.max_seats;
    if (!view || seated || (!waiting.length && !full)) {
      this.bar.hidden = true;
      return;
    }
    clear(this.bar);
    const mine = this.room.waitingAt.get(name);
    this.bar.append(h("span", { class: "waiting-list" }, waiting.length
      ? t("waiting.list", { names: waiting.join(", ") }) : t("waiting.nobody")));
    if (me && (full || mine)) {
      this.bar.append(h("button", {
        type: "button", class: `small ${mine ? "secondary" : "primary"}`, dataset: { action: mine ? "unwait" : "wait" },
        onclick: () => this.toggle(name),
      }, mine ? t("waiting.leave") : t("waiting.joinHere")));
    }
    this.bar.hidden = false;
  }

  prompt(table, until) {
    this.offer = { table, until };
    seatOffered();
    clear(this.dialog);
    const left = h("p", { class: "offer-left" });
    const take = h("button", { type: "button", class: "primary", dataset: { action: "take-seat" },
      onclick: () => { this.closePrompt(); this.hooks.play(table); } }, t("waiting.take"));
    const pass = h("button", { type: "button", class: "secondary", dataset: { action: "pass-seat" },
      onclick: () => { this.closePrompt(); this.room.leaveWaiting(table).catch(showError); } }, t("waiting.pass"));
    this.dialog.append(
      h("h2", { id: "dlg-offer-title" }, t("waiting.offerTitle")),
      h("p", {}, t("waiting.offer", { table })),
      left,
      h("div", { class: "dialog-buttons" }, pass, take));
    const tick = () => {
      const seconds = Math.max(0, Math.ceil(until - this.room.now()));
      left.textContent = t("waiting.offerLeft", { seconds });
      if (seconds <= 0) this.closePrompt();
    };
    tick();
    clearInterval(this.timer);
    this.timer = setInterval(tick, 500);
    if (!this.dialog.open) this.dialog.showModal();
    take.focus();
  }

  closePrompt() {
    clearInterval(this.timer);
    this.timer = null;
    this.offer = null;
    if (this.dialog.open) this.dialog.close();
  }
}

function placeText(place) {
  return place ? t("waiting.place", { place }) : t("waiting.leaveShort");
}
