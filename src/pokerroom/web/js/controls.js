// The action bar: what the server says the player may do now (``legal``), as buttons
// with the exact amounts; the bet/raise size with a slider, a number box and presets;
// pre-action boxes while others act (cleared when the bet changes); after a hand, the
// buttons that show one's cards to everyone (D12); keyboard shortcuts. The presets are
// the player's own when he has set some (presets.js, issue 19 item 9), all-in always.
import { cardsInline } from "./chat.js";
import { clear, h, setText } from "./dom.js";
import { gameFacts } from "./games.js";
import { cardName, chips, t } from "./i18n.js";
import { onPresets, ownButtons, presetsOf } from "./presets.js";
import { showError } from "./toast.js";

const PRE_KINDS = ["check_fold", "check", "call_any", "fold"];

export class ActionBar {
  constructor(room, name) {
    this.room = room;
    this.name = name;
    this.key = null;
    this.preKey = null;
    this.amount = null; // the chosen bet/raise total
    this.el = h("div", { class: "actions", "aria-label": "", role: "region" });
    this.turnEl = h("div", { class: "turn-area", hidden: true });
    this.preEl = h("div", { class: "pre", role: "group", hidden: true });
    this.revealEl = h("div", { class: "reveal", role: "group", hidden: true });
    this.revealKey = null;
    this.el.append(this.turnEl, this.preEl, this.revealEl);
    this.buttons = {};
    // his own presets came from the server (presetsOf, in update): the turn is drawn again
    onPresets(() => {
      this.key = null;
      this.update();
    });
  }

  get ts() {
    return this.room.table(this.name);
  }

  relabel() {
    this.key = null;
    this.preKey = null;
    this.revealKey = null;
    this.update();
  }

  // ------------------------------------------------------------------ reading the view

  /** What the table looks like for sizing: the highest bet on the street, my seat. */
  situation() {
    const view = this.ts.view;
    const me = this.ts.mySeat();
    const level = Math.max(0, ...view.seats.filter((s) => s.in_hand).map((s) => s.bet));
    return { view, me, level, game: gameFacts(view.game_info) };
  }

  myTurn() {
    const ts = this.ts;
    const v = ts?.view;
    return Boolean(v && v.legal && v.phase === "playing" && v.actor === v.seat && !ts.sending);
  }

  // ------------------------------------------------------------------ drawing

  update() {
    const ts = this.ts;
    const view = ts?.view;
    if (!view) return;
    presetsOf(this.room.player); // read once he is known, long before his turn
    this.el.setAttribute("aria-label", t("table.yourTurn"));
    this.drawReveal();
    if (this.myTurn()) {
      this.preEl.hidden = true;
      this.preKey = null;
      if (ts.pre && this.runPreAction()) return;
      const key = JSON.stringify([view.hand_number, view.street, view.legal, view.pot]);
      if (key !== this.key) {
        this.key = key;
        this.drawTurn();
      }
      this.turnEl.hidden = false;
      return;
    }
    this.key = null;
    this.turnEl.hidden = true;
    clear(this.turnEl);
    this.drawPre();
  }

  drawTurn() {
    const { view, me, level, game } = this.situation();
    const legal = view.legal;
    const stackTotal = (me?.stack ?? 0) + (me?.bet ?? 0);
    clear(this.turnEl);
    this.buttons = {};
    this.presets = null;
    this.setAmount = null;
    this.turnEl.classList.remove("sending");
    const row = h("div", { class: "buttons" });

    if (legal.show || legal.muck) {
      if (legal.muck) row.append(this.button("muck", t("act.muck"), "M", () => this.send("muck"), "muck"));
      if (legal.show) row.append(this.button("show", t("act.show"), "S", () => this.send("show"), "show"));
      this.turnEl.append(row);
      return;
    }

    if (legal.fold) row.append(this.button("fold", t("act.fold"), "F", () => this.send("fold"), "fold"));
    if (legal.bring_in) {
      row.append(this.button("call", t("act.bringIn", { n: chips(legal.bring_in) }), "C", () => this.send("bring_in"), "bring_in"));
      if (legal.min_to !== null) {
        row.append(this.button("raise", t("act.complete", { n: chips(legal.min_to) }), "R",
          () => this.send("complete", legal.min_to), "complete"));
      }
      this.turnEl.append(row);
      return;
    }
    if (legal.check) {
      row.append(this.button("call", t("act.check"), "C", () => this.send("check"), "check"));
    } else if (legal.call > 0) {
      const allIn = me && legal.call >= me.stack;
      const label = allIn ? t("act.callAllIn", { n: chips(legal.call) }) : t("act.callN", { n: chips(legal.call) });
      row.append(this.button("call", label, "C", () => this.send("call"), "call"));
    }

    if (legal.min_to !== null && legal.max_to !== null) {
      const completing = game.stud && view.street === "third street" && game.smallBet && level < game.smallBet;
      const verb = completing ? "complete" : level > 0 ? "raise" : "bet";
      const label = (amount) => {
        if (amount >= stackTotal) return t("act.allInN", { n: chips(amount) });
        if (verb === "complete") return t("act.complete", { n: chips(amount) });
        return verb === "raise" ? t("act.raiseTo", { n: chips(amount) }) : t("act.betN", { n: chips(amount) });
      };
      if (game.fixed || legal.min_to === legal.max_to) {
        row.append(this.button("raise", label(legal.min_to), "R", () => this.send(verb, legal.min_to), verb));
        if (legal.max_to !== legal.min_to) {
          row.append(this.button("raise-max", label(legal.max_to), "", () => this.send(verb, legal.max_to), verb));
        }
      } else {
        this.amount = legal.min_to;
        const raise = this.button("raise", label(this.amount), "R", () => this.send(verb, this.amount), verb);
        this.turnEl.append(this.sizing(view, legal, level, game, (amount) => {
          this.amount = amount;
          setText(raise.querySelector(".act-label"), label(amount));
        }, stackTotal));
        row.append(raise);
      }
    }
    this.turnEl.append(row);
  }

  button(kind, label, key, onclick, verb) {
    const el = h("button", { type: "button", class: `act act-${kind}`, dataset: { action: kind, verb }, onclick },
      h("span", { class: "act-label" }, label),
      key ? h("kbd", { "aria-hidden": "true" }, key) : null);
    if (key) el.setAttribute("aria-keyshortcuts", key);
    this.buttons[kind] = el;
    return el;
  }

  /** The presets, slider and number box for a no-limit or pot-limit bet. */
  sizing(view, legal, level, game, changed, stackTotal) {
    const lo = legal.min_to, hi = legal.max_to;
    const clamp = (n) => Math.max(lo, Math.min(hi, Math.round(n)));
    const afterCall = view.pot + legal.call; // the pot once the player has called
    const own = ownButtons({ street: view.street, level, afterCall, bb: game.bb || 1, clamp });
    const presets = own ?? [["min", t("preset.min"), lo], ["half", t("preset.half"), clamp(level + afterCall / 2)]];
    if (own) {
      presets.push(["allin", hi >= stackTotal ? t("preset.allIn") : t("preset.max"), hi]);
    } else if (game.kind === "PL") {
      presets.push(["pot", t("preset.pot"), hi]); // pot limit: the server's max is the pot
    } else {
      presets.push(["pot", t("preset.pot"), clamp(level + afterCall)]);
      presets.push(["allin", hi >= stackTotal ? t("preset.allIn") : t("preset.max"), hi]);
    }
    const slider = h("input", { type: "range", min: lo, max: hi, step: 1, value: lo, class: "slider" });
    const box = h("input", { type: "number", min: lo, max: hi, step: 1, value: lo, class: "amount", inputmode: "numeric" });
    const label = t("act.amountLabel", { min: chips(lo), max: chips(hi) });
    slider.setAttribute("aria-label", label);
    box.setAttribute("aria-label", label);
    const set = (n, from) => {
      const v = clamp(n);
      if (from !== slider) slider.value = String(v);
      if (from !== box) box.value = String(v);
      changed(v);
    };
    slider.addEventListener("input", () => set(Number(slider.value), slider));
    box.addEventListener("input", () => {
      const n = Number(box.value);
      if (Number.isFinite(n) && n >= lo && n <= hi) set(n, box);
    });
    box.addEventListener("change", () => set(Number(box.value) || lo));
    box.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        set(Number(box.value) || lo);
        this.buttons.raise?.click();
      }
    });
    this.setAmount = (n) => set(n);
    this.step = game.bb || 1;
    this.presets = presets;
    const presetRow = h("div", { class: "presets" },
      presets.map(([kind, text, amount], i) => h("button", {
        type: "button", class: "preset", dataset: { preset: kind }, "aria-keyshortcuts": String(i + 1),
        title: `${text}: ${chips(amount)} (${t("act.key", { key: i + 1 })})`,
        onclick: () => set(amount),
      }, text)));
    return h("div", { class: "sizing" }, presetRow, slider, box);
  }

  async send(action, amount) {
    if (!this.myTurn()) return;
    for (const b of this.turnEl.querySelectorAll("button")) b.disabled = true;
    this.turnEl.classList.add("sending");
    try {
      await this.room.act(this.name, action, amount);
    } catch (err) {
      showError(err);
      this.key = null;
      this.turnEl.classList.remove("sending"); // the room cleared ts.sending (Room.act)
      this.update();
    }
  }

  // ------------------------------------------------------------------ showing after the hand

  /** After a hand, before the next deal: "Show cards" and one button per card the player
   *  may show (the server's ``revealable``, indices into his hole cards; D12). */
  drawReveal() {
    const ts = this.ts;
    const view = ts.view;
    const indices = view.phase === "playing" ? [] : (view.revealable ?? []);
    const own = ts.myHand && ts.myHand.number === view.hand_number ? ts.myHand.cards : null;
    const key = JSON.stringify([indices, own, view.hand_number]);
    this.revealEl.hidden = !indices.length;
    if (key === this.revealKey) return;
    this.revealKey = key;
    clear(this.revealEl);
    if (!indices.length) return;
    this.revealEl.setAttribute("aria-label", t("reveal.title"));
    const send = (cards) => async () => {
      for (const b of this.revealEl.querySelectorAll("button")) b.disabled = true;
      try {
        await this.room.showCards(this.name, cards);
      } catch (err) {
        showError(err);
        this.revealKey = null;
        this.drawReveal();
      }
    };
    if (indices.length > 1) {
      this.revealEl.append(h("button", { type: "button", class: "secondary reveal-all", dataset: { show: "all" },
        onclick: send([...indices]) }, t("reveal.all")));
    }
    for (const k of indices) {
      const code = own?.[k];
      const [before, after] = t("reveal.one", { card: "\u0000" }).split("\u0000");
      const label = code ? [before, cardsInline([code]), after] : t("reveal.nth", { n: k + 1 });
      this.revealEl.append(h("button", {
        type: "button", class: "secondary reveal-one", dataset: code ? { show: String(k), code } : { show: String(k) },
        "aria-label": code ? t("reveal.cardLabel", { card: cardName(code) }) : null, onclick: send([k]),
      }, label));
    }
  }

  // ------------------------------------------------------------------ pre-actions

  drawPre() {
    const ts = this.ts;
    const { view, me, level } = this.situation();
    const playing = view.phase === "playing" && me && me.in_hand && !me.folded && !me.all_in;
    if (!playing || (view.legal && view.actor === view.seat)) {
      this.preEl.hidden = true;
      this.preKey = null;
      if (!playing) this.room.setPre(this.name, null);
      return;
    }
    // the bet changed (or the street, or the hand): the boxes clear
    if (ts.pre && (ts.pre.level !== level || ts.pre.street !== view.street || ts.pre.hand !== view.hand_number)) {
      this.room.setPre(this.name, null);
    }
    const toCall = Math.max(0, level - me.bet);
    const key = JSON.stringify([ts.pre?.kind ?? null, toCall, me.stack]);
    this.preEl.hidden = false;
    if (key === this.preKey) return;
    this.preKey = key;
    clear(this.preEl);
    this.preEl.setAttribute("aria-label", t("pre.title"));
    const labels = {
      check_fold: t("pre.checkFold"),
      check: toCall ? t("act.callN", { n: chips(Math.min(toCall, me.stack)) }) : t("pre.check"),
      call_any: t("pre.callAny"),
      fold: t("pre.fold"),
    };
    for (const kind of PRE_KINDS) {
      const input = h("input", { type: "checkbox", dataset: { pre: kind } });
      input.checked = ts.pre?.kind === kind;
      input.addEventListener("change", () => {
        this.room.setPre(this.name, input.checked ? { kind, level, street: view.street, hand: view.hand_number, toCall } : null);
        this.preKey = null;
        this.update();
      });
      this.preEl.append(h("label", { class: `pre-box${input.checked ? " on" : ""}` }, input, h("span", {}, labels[kind])));
    }
  }

  /** It is the player's turn and he chose in advance: do it. True if something was sent. */
  runPreAction() {
    const ts = this.ts;
    const pre = ts.pre;
    this.room.setPre(this.name, null);
    const legal = ts.view.legal;
    if (legal.bring_in || legal.show || legal.muck) return false;
    const { level, view } = this.situation();
    if (pre.level !== level || pre.street !== view.street || pre.hand !== view.hand_number) return false;
    let action = null;
    if (pre.kind === "check_fold") action = legal.check ? "check" : "fold";
    else if (pre.kind === "check") action = legal.check ? "check" : legal.call === pre.toCall ? "call" : null;
    else if (pre.kind === "call_any") action = legal.check ? "check" : "call";
    else if (pre.kind === "fold") action = legal.fold ? "fold" : "check";
    if (!action) return false;
    this.send(action);
    return true;
  }

  // ------------------------------------------------------------------ keys

  /** A key pressed while this table is on screen. True if it was used. */
  handleKey(e) {
    const key = e.key.toLowerCase();
    if (!this.myTurn()) return false;
    const press = (kind) => {
      const b = this.buttons[kind];
      if (!b || b.disabled) return false;
      b.click();
      return true;
    };
    if (key === "f") return press("fold") || press("muck");
    if (key === "c" || key === "k") return press("call");
    if (key === "r" || key === "b") return press("raise");
    if (key === "s") return press("show");
    if (key === "m") return press("muck");
    if (this.presets && this.setAmount && /^[1-5]$/.test(key)) {
      const preset = this.presets[Number(key) - 1];
      if (!preset) return false;
      this.setAmount(preset[2]);
      return true;
    }
    if (this.setAmount && (e.key === "ArrowUp" || e.key === "ArrowDown")) {
      this.setAmount((this.amount ?? 0) + (e.key === "ArrowUp" ? this.step : -this.step));
      return true;
    }
    return false;
  }
}
