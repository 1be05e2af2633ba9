// The seat's own controls: answer a request to post, sit out or come back, the player's
// settings (the ``options`` command, the straddle where the table allows it, D10), add
// chips, leave; what he owes to come back (D11) and the all-in protections he has left
// (D7). Observers see who they are.
import { clear, h, setText } from "./dom.js";
import { gameFacts } from "./games.js";
import { chips, plural, t } from "./i18n.js";
import { showError, toast } from "./toast.js";

export class SeatPanel {
  constructor(room, name, hooks) {
    this.room = room;
    this.name = name;
    this.hooks = hooks;
    this.key = null;
    this.el = h("div", { class: "seat-panel" });
    this.postClock = null;
    this.toldProtected = null; // the hand whose protection the player was told about
  }

  get ts() {
    return this.room.table(this.name);
  }

  relabel() {
    this.key = null;
    this.update();
  }

  update() {
    const ts = this.ts;
    const view = ts?.view;
    if (!view) return;
    const me = ts.mySeat();
    // all in by protection in this hand (D7): the view says so, or the event did (a hand
    // that ends at once, heads-up, is over before any view shows it)
    const protectedNow = Boolean(me && (me.protected
      || (ts.marks.number === view.hand_number && ts.marks.protected.has(me.seat))));
    const key = JSON.stringify([Boolean(this.room.player), me?.state, me?.in_hand, me?.leaving, me?.stack,
      view.options, view.post, view.phase, view.game, view.straddles, view.missed_blinds, me?.owes, protectedNow,
      view.protections_left, view.protection_limit, Math.round(view.time_bank ?? -1), view.orbits_left]);
    if (key === this.key) return;
    this.key = key;
    clear(this.el);
    this.postClock = null;
    if (!me) {
      this.el.append(h("p", { class: "muted observer-note" },
        this.room.player ? t("table.observer") : t("table.loginToPlay")));
      return;
    }
    const game = gameFacts(view.game_info);
    if (view.post) this.el.append(this.postPrompt(view.post));
    if (protectedNow && this.toldProtected !== view.hand_number) {
      this.toldProtected = view.hand_number;
      toast(`${t("protect.now")} ${this.protectionText(view)}`, "info", 6000);
    }

    const opts = view.options || {};
    const boxes = [];
    const holdem = !game.stud;
    if (holdem) boxes.push(["wait_for_big_blind", t("opt.waitBB")], ["auto_post_blinds", t("opt.autoBlinds")]);
    if (game.stud || game.ante) boxes.push(["auto_post_antes", t("opt.autoAntes")]);
    boxes.push(["auto_muck", t("opt.autoMuck")]);
    const straddle = view.straddles && holdem && !game.fixed ? 2 * (game.bb || 0) : 0; // D10
    if (straddle) boxes.push(["straddle", t("opt.straddle", { n: chips(straddle) }), t("opt.straddleHelp", { n: chips(straddle) })]);
    if (me.state !== "sitting_out") {
      boxes.push(["sit_out_next_hand", t("opt.sitOutNext")]);
      if (holdem) boxes.push(["sit_out_next_big_blind", t("opt.sitOutBB")]);
    }
    const list = h("div", { class: "options", role: "group", "aria-label": t("opt.title") });
    for (const [option, label, help] of boxes) {
      const input = h("input", { type: "checkbox", dataset: { option } });
      input.checked = Boolean(opts[option]);
      input.addEventListener("change", () => this.run(() => this.room.options(this.name, { [option]: input.checked })));
      list.append(h("label", { class: "check", title: help ?? null }, input, h("span", {}, label)));
    }

    // out of chips, or sitting out: say how long the seat is kept, and offer the chips
    // (issue 19: a busted player was told nothing and lost his seat three orbits later)
    const busted = me.stack === 0 && !me.in_hand;
    if (busted || (me.state === "sitting_out" && view.orbits_left !== null && view.orbits_left !== undefined)) {
      const kept = view.orbits_left ?? null;
      // ``orbits_left``: the passes of the big blind until the seat goes (1: the next one)
      const keptText = kept === null ? "" : kept > 1 ? plural("seat.keptFor", kept) : t("seat.keptLast");
      const prompt = h("div", { class: `seat-prompt${busted ? " busted" : ""}`, role: busted ? "alert" : "status",
        dataset: { orbits: kept === null ? "" : String(kept) } },
        h("p", {}, busted ? t("seat.busted") : t("seat.sittingOut"), keptText ? ` ${keptText}` : ""));
      if (busted) {
        prompt.append(h("button", { type: "button", class: "primary", dataset: { control: "rebuy" },
          onclick: () => this.hooks.topUp() }, t("seat.addChips")));
      }
      this.el.append(prompt);
    }

    const buttons = h("div", { class: "seat-buttons" });
    if (me.state === "sitting_out") {
      buttons.append(h("button", { type: "button", class: "primary", dataset: { control: "sit-in" },
        onclick: () => this.run(() => this.room.sitIn(this.name)) }, t("ctl.sitIn")));
    } else {
      buttons.append(h("button", { type: "button", class: "secondary", dataset: { control: "sit-out" },
        onclick: () => this.run(() => this.room.sitOut(this.name)) }, t("ctl.sitOut")));
    }
    const row = this.room.lobbyRow(this.name);
    const full = row && me.stack >= row.max_buy_in;
    buttons.append(h("button", { type: "button", class: "secondary", dataset: { control: "top-up" },
      disabled: me.in_hand || full, title: full ? t("topup.full") : "",
      onclick: () => this.hooks.topUp() }, t("ctl.topUp")));
    buttons.append(h("button", { type: "button", class: "secondary danger", dataset: { control: "leave" },
      disabled: me.leaving, onclick: () => this.hooks.leave() }, t("ctl.leave")));
    this.el.append(buttons, list);
    const notes = h("div", { class: "seat-notes" });
    const owes = this.owesText(view, me, game);
    if (owes) notes.append(h("p", { class: "owes", dataset: { owes: me.owes } }, owes));
    if (view.protections_left !== null && view.protections_left !== undefined) {
      const none = view.protections_left <= 0;
      notes.append(h("p", { class: `protections${none ? " none" : ""}${protectedNow ? " now" : ""}`, title: t("protect.help"),
        dataset: { left: String(view.protections_left) } },
        protectedNow ? `${t("table.allInProtected")} · ${this.protectionText(view)}` : this.protectionText(view)));
    }
    // the time bank left (issue 19: never shown): where the table has one, once he had some
    const bank = view.time_bank ?? 0;
    if (bank > 0) this.hadBank = true;
    if (bank > 0 || this.hadBank) {
      notes.append(h("p", { class: "time-bank", title: t("table.timeBankHelp"), dataset: { bank: String(Math.round(bank)) } },
        t("table.timeBank", { n: Math.round(bank) })));
    }
    if (notes.childElementCount) this.el.append(notes);
  }

  /** "All-in protection: 1 of 2 left" (the limit when the view says it), or that none is left. */
  protectionText(view) {
    const n = view.protections_left;
    if (n <= 0) return t("protect.none");
    const max = view.protection_limit ?? view.max_protections;
    return typeof max === "number" ? t("protect.leftOf", { n, max }) : t("protect.left", { n });
  }

  /** What a player who owes blinds posts to be dealt in before his big blind, as the table's
   *  missed-blind setting says (D11): the seeds' one big blind live, or the standard rule. */
  owesText(view, me, game) {
    if (!me.owes || me.owes === "nothing" || game.stud) return "";
    if (me.in_hand) return "";
    const params = { bb: chips(game.bb ?? 0), sb: chips(game.sb ?? 0) };
    const key = me.owes === "big_blind" && view.missed_blinds !== "standard" ? "owe.seeds" : `owe.${me.owes}`;
    return t(key, params);
  }

  postPrompt([blind, dead, ante]) {
    const parts = [];
    if (blind) parts.push(t("post.blind", { n: chips(blind) }));
    if (dead) parts.push(t("post.dead", { n: chips(dead) }));
    if (ante) parts.push(t("post.ante", { n: chips(ante) }));
    this.postClock = h("span", { class: "post-clock", role: "timer" });
    return h("div", { class: "post-prompt", role: "alertdialog", "aria-live": "assertive" },
      h("span", {}, t("post.ask", { what: parts.join(t("post.and")) })), this.postClock,
      h("button", { type: "button", class: "primary", dataset: { control: "post-yes" },
        onclick: () => this.run(() => this.room.post(this.name, true)) }, t("post.yes")),
      h("button", { type: "button", class: "secondary", dataset: { control: "post-no" },
        onclick: () => this.run(() => this.room.post(this.name, false)) }, t("post.no")));
  }

  async run(command) {
    try {
      await command();
    } catch (err) {
      showError(err);
      this.key = null;
      this.update();
    }
  }

  tick(now) {
    const ts = this.ts;
    if (!this.postClock || !ts?.postDeadline) return;
    setText(this.postClock, `${Math.max(0, Math.ceil(ts.postDeadline - now))}`);
  }
}
