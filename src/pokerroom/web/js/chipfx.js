// A table's sounds of cards and chips and the chips' flight to the pot (issue 19, item 9).
// After each drawing of the table it compares what is on it with the last drawing: more
// cards dealt sound a card's slide, a bet put in a click of chips; the bets of a street
// that closed fly from where they stood to the pot in the middle (the bets stand in front
// of the seats, so the chips never cross a name or a stack). The pot's flight to the
// winners is table.js's ``pushPots``, which asks ``won`` here. Only the table on screen
// sounds; each sound and the flights are switchable in the settings (prefs.js).
import { sound } from "./alerts.js";
import { h } from "./dom.js";
import { pref } from "./prefs.js";

export const POT_POINT = { x: 50, y: 56 }; // where the pot's chips gather, in % of the stage

export class TableFx {
  /** ``table`` is the TableView: its stage's ``fxEl``, ``betPoint(seat)`` and ``el``. */
  constructor(table) {
    this.table = table;
    this.last = null; // {hand, bets: Map seat -> chips, cards: how many are out}
  }

  get onScreen() {
    return Boolean(this.table.el?.isConnected);
  }

  /** What changed since the last drawing: sounds and the bets swept to the pot. */
  observe(view, showdown) {
    const bets = new Map();
    let cards = view.board?.length ?? 0;
    for (const s of view.seats) {
      if (s.bet && !showdown && view.phase === "playing") bets.set(s.seat, s.bet);
      cards += s.cards?.length ?? 0;
    }
    const now = { hand: view.hand_number, bets, cards };
    const last = this.last;
    this.last = now;
    if (!last || !this.onScreen) return;
    const sameHand = last.hand === now.hand;
    if (cards > last.cards || (!sameHand && cards)) sound("deal");
    const raised = [...bets].some(([seat, n]) => n > ((sameHand && last.bets.get(seat)) || 0));
    const swept = sameHand && last.bets.size > 0 && bets.size === 0;
    if (raised || swept) sound("chips");
    if (swept) this.toPot([...last.bets.keys()]);
  }

  /** The chips of these seats' bets fly to the pot (when the flights are on). */
  toPot(seats) {
    if (!pref("chipFx")) return;
    for (const seat of seats) {
      if (!this.table.seatEls.has(seat)) continue;
      this.fly(this.table.betPoint(seat), POT_POINT, "to-pot");
    }
  }

  /** A little stack of chips from ``from`` to ``to`` (in % of the stage), fading there. */
  fly(from, to, kind) {
    const el = h("div", { class: `flying-chips ${kind}` },
      h("span", { class: "chip" }), h("span", { class: "chip" }), h("span", { class: "chip" }));
    el.style.left = `${from.x}%`;
    el.style.top = `${from.y}%`;
    this.table.fxEl.append(el);
    requestAnimationFrame(() => requestAnimationFrame(() => {
      el.style.left = `${to.x}%`;
      el.style.top = `${to.y}%`;
      el.classList.add("arrived");
    }));
    setTimeout(() => el.remove(), 1600);
  }

  /** A pot is pushed to its winners: its sound; whether the chips are to fly. */
  won() {
    if (!this.onScreen) return false;
    sound("win");
    return pref("chipFx");
  }
}
