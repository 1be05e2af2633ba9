// The lobby: the room's tables (game, stakes, seats taken, players, average pot,
// hands per hour) from the ``lobby`` message, filtered by game and stakes; play (take a
// free seat) or watch.
import { api } from "./api.js";
import { $, clear, h } from "./dom.js";
import { gameFacts, gameLong, gameTitle, lobbyKind } from "./games.js";
import { chips, t } from "./i18n.js";
import { showError, toast } from "./toast.js";

export class Lobby {
  /** hooks: {play(name), watch(name), wait(row): a full table's waiting-list button or null} */
  constructor(room, hooks) {
    this.room = room;
    this.hooks = hooks;
    this.game = $("#filter-game");
    this.stakes = $("#filter-stakes");
    this.rows = $("#lobby-rows");
    this.game.addEventListener("change", () => this.render());
    this.stakes.addEventListener("change", () => this.render());
    $("#btn-free-chips").addEventListener("click", () => this.freeChips());
    room.on("lobby", () => this.render());
    room.on("identity", () => this.render());
    room.on("waiting", () => this.render());
  }

  filters() {
    const tables = this.room.lobby;
    const kinds = [...new Set(tables.map(lobbyKind))];
    const bigger = new Map(tables.map((r) => [gameFacts(r.game_info).stakes, r.game_info?.stakes[1] ?? 0]));
    const stakes = [...bigger.keys()].filter(Boolean).sort((a, b) => bigger.get(a) - bigger.get(b));
    fill(this.game, [["", t("lobby.all")], ...kinds.map((k) => [k, k === "Other" ? k : t(`game.${k}`)])]);
    fill(this.stakes, [["", t("lobby.all")], ...stakes.map((s) => [s, s])]);
  }

  render() {
    this.filters();
    const game = this.game.value;
    const stakes = this.stakes.value;
    const me = this.room.player;
    const rows = this.room.lobby.filter((r) =>
      (!game || lobbyKind(r) === game) && (!stakes || gameFacts(r.game_info).stakes === stakes));
    clear(this.rows);
    for (const r of rows) {
      const g = gameFacts(r.game_info);
      const seated = Boolean(me && r.players.includes(me));
      const full = r.taken >= r.seats;
      const kind = lobbyKind(r);
      const gameText = kind === "Mixed" ? t("game.mixedOf", { games: `${gameTitle(r.game_info, r.game)} → ${gameTitle(r.next_game_info, r.next_game)}` })
        : gameLong(r.game_info, r.game);
      const play = h("button", {
        type: "button", class: "primary small", dataset: { action: "play" }, disabled: full && !seated,
        "aria-label": t("lobby.playTitle", { table: r.name }),
        onclick: () => this.hooks.play(r.name),
      }, seated ? t("lobby.open") : full ? t("lobby.full") : t("lobby.play"));
      const watch = h("button", {
        type: "button", class: "secondary small", dataset: { action: "watch" },
        "aria-label": t("lobby.watchTitle", { table: r.name }),
        onclick: () => this.hooks.watch(r.name),
      }, t("lobby.watch"));
      this.rows.append(h("tr", { dataset: { table: r.name }, class: seated ? "seated" : "" },
        h("td", { class: "tname" }, r.name, seated ? h("span", { class: "badge" }, t("lobby.seated")) : null),
        h("td", { class: "game" }, gameText),
        h("td", { class: "stakes", dataset: { label: t("lobby.stakes") } }, g.stakes),
        h("td", { class: "num seats" }, h("span", { class: "seatbar", style: { "--fill": `${(100 * r.taken) / r.seats}%` } }), `${r.taken}/${r.seats}`),
        h("td", { class: "players" }, r.players.length ? r.players.join(", ") : t("lobby.nobody")),
        // the labels are for a narrow screen, where each table is a card (css: max-width 1100px)
        h("td", { class: "num", dataset: { label: t("lobby.avgPot") } }, chips(r.average_pot)),
        h("td", { class: "num", dataset: { label: t("lobby.handsHour") } }, chips(r.hands_per_hour)),
        h("td", { class: "num", dataset: { label: t("lobby.buyIn") } }, `${chips(r.min_buy_in)}–${chips(r.max_buy_in)}`),
        h("td", { class: "buttons-cell" }, h("div", { class: "row-buttons" }, this.hooks.wait?.(r) ?? play, watch))));
    }
    $("#lobby-empty").hidden = rows.length > 0 || !this.room.lobbyLoaded;
    $("#btn-free-chips").hidden = !me || (this.room.balance ?? 0) >= 2000;
  }

  async freeChips() {
    try {
      const { balance } = await api.freeChips();
      const before = this.room.balance ?? 0;
      this.room.setBalance(balance);
      toast(t("lobby.freeChipsDone", { amount: chips(balance - before) }), "ok");
    } catch (err) {
      showError(err);
    }
  }
}

function fill(select, options) {
  const value = select.value;
  const key = JSON.stringify(options);
  if (select.dataset.key === key) return;
  select.dataset.key = key;
  clear(select);
  for (const [v, text] of options) select.append(h("option", { value: v }, text));
  select.value = options.some(([v]) => v === value) ? value : "";
}
