// The seat's own controls: answer a request to post, sit out or come back, the player's
// settings (the ``options`` command), add chips, leave. Observers see who they are.
import { clear, h, setText } from "./dom.js";
import { parseGame } from "./games.js";
import { chips, t } from "./i18n.js";
import { showError } from "./toast.js";

export class SeatPanel {
  constructor(room, name, hooks) {
    this.room = room;
    this.name = name;
    this.hooks = hooks;
    this.key = null;
    this.el = h("div", { class: "seat-panel" });
    this.postClock = null;
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
    const key = JSON.stringify([Boolean(this.room.player), me?.state, me?.in_hand, me?.leaving, me?.stack,
      view.options, view.post, view.phase, view.game]);
    if (key === this.key) return;
    this.key = key;
    clear(this.el);
    this.postClock = null;
    if (!me) {
      this.el.append(h("p", { class: "muted observer-note" },
        this.room.player ? t("table.observer") : t("table.loginToPlay")));
      return;
    }
    const game = parseGame(view.game);
    if (view.post) this.el.append(this.postPrompt(view.post));

    const opts = view.options || {};
    const boxes = [];
    const holdem = !game.stud;
    if (holdem) boxes.push(["wait_for_big_blind", t("opt.waitBB")], ["auto_post_blinds", t("opt.autoBlinds")]);
    if (game.stud || game.ante) boxes.push(["auto_post_antes", t("opt.autoAntes")]);
    boxes.push(["auto_muck", t("opt.autoMuck")]);
    if (me.state !== "sitting_out") {
      boxes.push(["sit_out_next_hand", t("opt.sitOutNext")]);
      if (holdem) boxes.push(["sit_out_next_big_blind", t("opt.sitOutBB")]);
    }
    const list = h("div", { class: "options", role: "group", "aria-label": t("opt.title") });
    for (const [option, label] of boxes) {
      const input = h("input", { type: "checkbox", dataset: { option } });
      input.checked = Boolean(opts[option]);
      input.addEventListener("change", () => this.run(() => this.room.options(this.name, { [option]: input.checked })));
      list.append(h("label", { class: "check" }, input, h("span", {}, label)));
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
