// The side panel: the dealer's account of the hand and the table chat, in one feed
// (drawn in the current language), and the chat box for players at the table.
import { h, setText } from "./dom.js";
import { gameLong, streetByIndex, streetName } from "./games.js";
import { chips, handName, t } from "./i18n.js";
import { showError } from "./toast.js";

const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };

/** Cards as short coloured text: A♠ 10♥. */
export function cardsInline(cards) {
  return h("span", { class: "cards-inline" }, (cards || []).map((c) => (c
    ? h("span", { class: `ct suit-${c[1]}` }, `${c[0] === "T" ? "10" : c[0]}${SUITS[c[1]]}`)
    : h("span", { class: "ct hidden" }, "▮"))));
}

/** One feed line for an event, or null for events the feed does not tell. */
export function describe(entry) {
  const e = entry.event;
  const p = entry.who ?? "?";
  const allIn = e.all_in && e.action !== "protected" ? t("log.allIn") : ""; // "all-in (protected)" says it
  switch (e.type) {
    case "ChatLine":
      return { kind: "chat", nodes: [h("b", {}, `${e.player}: `), e.text] };
    case "TablePaused": // not a table event: the room's word that the table waits for its database
      return { kind: "hand", nodes: [t("log.paused")] };
    case "TableResumed":
      return { kind: "hand", nodes: [t("log.resumed", { s: Math.round(e.seconds) })] };
    case "HandVoided": // the server dealing it stopped: another took the table over
      return { kind: "hand", nodes: [t("log.voided", { n: e.number })] };
    case "TableMoving":
      return { kind: "hand", nodes: [t("log.moving")] };
    case "HandStarted":
      return { kind: "hand", nodes: [t("log.hand", { n: e.number, game: gameLong(e.game_info, e.game) })] };
    case "Posted":
      return { kind: "dealer", nodes: [t(`log.posted.${e.kind}`, { p, n: chips(e.amount) }) + allIn] };
    case "Acted":
      return { kind: "dealer", nodes: [t(`log.acted.${e.action}`, { p, n: chips(e.amount), to: chips(e.to) }) + allIn] };
    case "BoardDealt":
      return { kind: "dealer", nodes: [t("log.board", { street: streetName(streetByIndex(e.street, entry.stud)), cards: "" }), cardsInline(e.cards)] };
    case "UncalledReturned":
      return { kind: "dealer", nodes: [t("log.uncalled", { p, n: chips(e.amount) })] };
    case "Shown":
      return { kind: "dealer", nodes: [t("log.shown", { p, cards: "" }), cardsInline(e.cards)] };
    case "CardsRevealed": // shown after the hand (D12)
      return { kind: "dealer", nodes: [t("log.revealed", { p, cards: "" }), cardsInline(e.cards)] };
    case "Mucked":
      return { kind: "dealer", nodes: [t("log.mucked", { p })] };
    case "PotAwarded":
      return { kind: "dealer win", nodes: [entry.winners.map((w, k) => t("log.won", { p: w ?? "?", n: chips(e.shares[k]) })).join(", ")] };
    case "HandName":
      return { kind: "dealer", nodes: [`${e.player}: `, cardsInline(e.cards), ` — ${handName(e.value, e.hand)}`] };
    case "Seated":
      return { kind: "dealer", nodes: [t("log.seated", { p: e.player, seat: e.seat, n: chips(e.stack) })] };
    case "Left":
      return { kind: "dealer", nodes: [t("log.left", { p: e.player })] };
    case "SatOut":
      return { kind: "dealer", nodes: [t("log.satOut", { p: e.player })] };
    case "SatIn":
      return { kind: "dealer", nodes: [t("log.satIn", { p: e.player })] };
    case "ChipsAdded":
      return { kind: "dealer", nodes: [t("log.chipsAdded", { p: e.player, n: chips(e.amount) })] };
    case "TimedOut":
      return { kind: "dealer", nodes: [t("log.timedOut", { p: e.player })] };
    case "GameChanged":
      return { kind: "hand", nodes: [t("log.gameChanged", { game: gameLong(e.game_info, e.game) })] };
    case "Reshuffled":
      return { kind: "dealer", nodes: [t("log.reshuffled")] };
    case "BlindMissed":
      return { kind: "dealer", nodes: [t("log.blindMissed", { p: e.player, blind: t(`log.${e.blind}`) })] };
    default:
      return null;
  }
}

export class Feed {
  constructor(room, name) {
    this.room = room;
    this.name = name;
    this.shown = 0; // the id of the last entry drawn
    this.list = h("ol", { class: "feed", "aria-live": "polite" });
    this.input = h("input", { type: "text", maxlength: "200", class: "chat-input", autocomplete: "off" });
    this.sendButton = h("button", { type: "submit", class: "secondary small" });
    this.note = h("p", { class: "muted chat-note" });
    this.form = h("form", { class: "chat-form" }, this.input, this.sendButton);
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.send();
    });
    this.title = h("h3", { class: "side-title" });
    this.onClose = null; // set by the table: a phone shows the feed as a sheet with this close button
    this.onChat = null; // and marks its chat button when a line of chat comes
    this.closeButton = h("button", { type: "button", class: "close side-close", onclick: () => this.onClose?.() }, "×");
    this.el = h("aside", { class: "side" }, h("div", { class: "side-head" }, this.title, this.closeButton),
      this.list, this.note, this.form);
    this.relabel();
  }

  get ts() {
    return this.room.table(this.name);
  }

  relabel() {
    setText(this.title, `${t("table.log")} · ${t("table.chat")}`);
    this.input.placeholder = t("table.chatPlaceholder");
    this.input.setAttribute("aria-label", t("table.chatLabel"));
    this.sendButton.textContent = t("table.send");
    this.closeButton.setAttribute("aria-label", t("phone.chatClose"));
    setText(this.note, t("table.chatObserver"));
    this.list.replaceChildren();
    this.shown = 0;
    this.update();
  }

  update() {
    const ts = this.ts;
    if (!ts) return;
    const seated = Boolean(ts.mySeat());
    this.form.hidden = !seated;
    this.note.hidden = seated;
    const fresh = ts.log.filter((entry) => entry.id > this.shown);
    if (!fresh.length) return;
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    for (const entry of fresh) {
      this.shown = entry.id;
      const line = describe(entry);
      if (!line) continue;
      this.list.append(h("li", { class: line.kind }, line.nodes));
      if (line.kind === "chat" && fresh.length < ts.log.length) this.onChat?.();
    }
    while (this.list.childElementCount > 300) this.list.firstElementChild.remove();
    if (atBottom || fresh.length === ts.log.length) this.list.scrollTop = this.list.scrollHeight;
  }

  async send() {
    const text = this.input.value.trim();
    if (!text) return;
    this.input.value = "";
    try {
      await this.room.chat(this.name, text.slice(0, 200));
    } catch (err) {
      this.input.value = text;
      showError(err);
    }
  }
}
