// "Show previous hand" (H16, D6) and the player's hand histories: the last hand's board,
// every hand that reached the showdown, results and actions; the list of his hands with
// PHH and text downloads, in pages (older, newer), by game, and all of them at once (one
// PokerStars file or one .phhs); the provably fair deal checked in the browser. Each hand,
// and the previous hand, has a Replay button, and the list an "Import PHH" (replay.js).
import { api } from "./api.js";
import { cardElement } from "./cards.js";
import { cardsInline, describe } from "./chat.js";
import { $, clear, h } from "./dom.js";
import { gameLong, recordEventType, recordIsStud, streetByIndex, streetName } from "./games.js";
import { chips, dateTime, handName, t } from "./i18n.js";
import { verifyHand } from "./fair.js";
import { importInput, replayButton, replayer } from "./replay.js";
import { showError } from "./toast.js";

const PAGE = 50; // hands on a page of my hands

export class HandsWindow {
  constructor(room) {
    this.room = room;
    this.dialog = $("#dlg-hands");
    this.body = $("#hands-body");
    this.tab = "previous";
    this.table = null;
    this.list = { game: "", before: null, newer: [] }; // my hands: the page shown
    this.games = null; // the games of my hands (the filter's choices), once a dialog
    $("#hands-close").addEventListener("click", () => this.dialog.close());
    $("#hands-tab-previous").addEventListener("click", () => this.show("previous"));
    $("#hands-tab-mine").addEventListener("click", () => this.show("mine"));
    room.on("table", ({ table, previous }) => {
      if (previous && this.dialog.open && this.tab === "previous" && table === this.table) this.render();
    });
  }

  /** Open on a tab: "previous" (of ``table``) or "mine". */
  open(tab, table) {
    this.table = table ?? this.table;
    if (!this.dialog.open) {
      this.list = { game: "", before: null, newer: [] };
      this.games = null;
      this.dialog.showModal();
    }
    this.show(tab);
  }

  show(tab) {
    this.tab = tab;
    $("#hands-tab-previous").setAttribute("aria-selected", String(tab === "previous"));
    $("#hands-tab-mine").setAttribute("aria-selected", String(tab === "mine"));
    this.render();
  }

  relabel() {
    if (this.dialog.open) this.render();
  }

  render() {
    if (this.tab === "previous") this.renderPrevious();
    else this.renderMine();
  }

  // ------------------------------------------------------------------ previous hand

  async renderPrevious() {
    clear(this.body);
    const ts = this.table ? this.room.table(this.table) : null;
    if (!ts) {
      this.body.append(h("p", { class: "muted" }, t("prev.noTable")));
      return;
    }
    const record = ts.previous;
    if (!record) {
      this.body.append(h("p", { class: "muted" }, t("prev.none")));
      return;
    }
    const fair = h("section", { class: "fair" });
    // the replay (issue 19): from the record, what everyone at the table saw of the hand
    const tools = h("div", { class: "replay-tools" }, replayButton(() => {
      const seats = this.room.lobbyRow(ts.name)?.seats ?? ts.view?.max_seats;
      this.dialog.close();
      replayer.onClose = () => {
        replayer.onClose = null;
        this.open("previous", ts.name);
      };
      replayer.openRecord(record, ts.name, seats);
    }));
    this.body.append(tools, h("div", { class: "prev", dataset: { hand: String(record.number) } },
      recordView(record, ts.name)), fair);
    if (!this.room.player || !record.players.some((p) => p.player === this.room.player)) {
      fair.append(h("p", { class: "muted" }, t("prev.onlyPlayers")));
      return;
    }
    try {
      const { hands } = await api.hands();
      const row = hands.find((x) => x.table_name === ts.name && x.number === record.number);
      if (!row) return;
      if (tools.isConnected) tools.replaceChildren(replayButton(() => this.replay(row.id)));
      const detail = await api.hand(row.id);
      if (this.tab !== "previous" || !fair.isConnected) return;
      const view = await fairView(detail, row.id, ts.name, this.room.announced(ts.name, record.number));
      if (this.tab !== "previous" || !fair.isConnected) return;
      fair.replaceWith(view);
    } catch (err) {
      showError(err);
    }
  }

  // ------------------------------------------------------------------ my hands

  async renderMine() {
    clear(this.body);
    if (!this.room.player) {
      this.body.append(h("p", { class: "muted" }, t("hist.loginFirst")));
      return;
    }
    const list = this.list;
    let hands, next, games;
    try {
      [{ hands, next }, { games }] = await Promise.all([
        api.hands({ before: list.before, game: list.game, limit: PAGE }),
        this.games ? { games: this.games } : api.handGames(),
      ]);
    } catch (err) {
      showError(err);
      return;
    }
    this.games = games;
    if (this.tab !== "mine" || list !== this.list) return;
    clear(this.body);
    if (!hands.length && !list.game && !list.before) {
      this.body.append(h("p", { class: "muted" }, t("hist.empty")), h("div", { class: "replay-tools" }, importInput()));
      return;
    }
    this.body.append(this.listTools(games, hands.length, next));
    const rows = hands.map((x) => h("tr", { dataset: { id: String(x.id) } },
      h("td", {}, x.ended_at ? dateTime(x.ended_at) : ""),
      h("td", {}, x.table_name),
      h("td", { class: "num" }, `#${x.number}`),
      h("td", {}, gameLong(x.game_info, x.game)),
      h("td", { class: `num ${x.net > 0 ? "plus" : x.net < 0 ? "minus" : ""}` }, signed(x.net)),
      h("td", {}, h("div", { class: "row-buttons" },
        h("button", { type: "button", class: "secondary small", dataset: { control: "details" }, onclick: () => this.detail(x) }, t("hist.details")),
        replayButton(() => this.replay(x.id)),
        downloads(x.id, x.table_name, x.number)))));
    this.body.append(h("table", { class: "hands-list" },
      h("thead", {}, h("tr", {},
        h("th", {}, t("hist.when")), h("th", {}, t("hist.table")), h("th", { class: "num" }, t("hist.hand")),
        h("th", {}, t("hist.game")), h("th", { class: "num" }, t("hist.net")), h("th", {}, ""))),
      h("tbody", {}, rows)));
  }

  /** Show another page of the list (``list``: its game, cursor and the newer pages' cursors). */
  page(list) {
    this.list = list;
    this.renderMine();
  }

  /** Above the list: its game filter, the pages (newer, which hands, older: ``count``
   *  shown, ``next`` the older page's cursor or null) and the downloads of every hand
   *  (of that game). */
  listTools(games, count, next) {
    const list = this.list;
    const first = list.newer.length * PAGE + 1;
    const pager = h("span", { class: "downloads hands-pager" },
      h("button", { type: "button", class: "secondary small", id: "hands-newer", disabled: !list.newer.length,
        onclick: () => this.page({ ...list, before: list.newer.at(-1), newer: list.newer.slice(0, -1) }) },
      `← ${t("hist.newer")}`),
      h("span", { class: "muted", id: "hands-range" },
        count ? t("hist.range", { from: first, to: first + count - 1 }) : t("hist.none")),
      h("button", { type: "button", class: "secondary small", id: "hands-older", disabled: next === null,
        onclick: () => this.page({ ...list, before: next, newer: [...list.newer, list.before] }) },
      `${t("hist.older")} →`));
    const select = h("select", { id: "hands-game", onchange: () => this.page({ game: select.value, before: null, newer: [] }) },
      h("option", { value: "" }, t("hist.allGames")),
      games.map((g) => h("option", { value: g.game, selected: g.game === list.game },
        `${gameLong(g.game_info, g.game)} (${g.hands})`)));
    const query = { game: list.game };
    const all = (format, label) => h("a", { href: api.archiveUrl(format, query), download: "", class: "button-like small",
      dataset: { archive: format } }, `⤓ ${label}`);
    return h("div", { class: "filters hands-tools" },
      h("label", {}, t("hist.game"), select), pager,
      h("span", { class: "downloads" }, h("span", { class: "muted" }, `${t(list.game ? "hist.downloadGame" : "hist.downloadAll")}:`),
        all("pokerstars", t("hist.pokerstars")), all("phh", t("prev.phh"))),
      importInput());
  }

  /** Replay a hand of mine (issue 19); this dialog comes back when the replay closes. */
  replay(id) {
    const tab = this.tab;
    this.dialog.close();
    replayer.onClose = () => {
      replayer.onClose = null;
      if (location.hash.startsWith("#/replay/")) history.replaceState(null, "", "#/lobby");
      else this.open(tab, this.table);
    };
    replayer.openHand(id);
  }

  async detail(row) {
    let data;
    try {
      data = await api.hand(row.id);
    } catch (err) {
      showError(err);
      return;
    }
    const fair = await fairView(data, row.id, data.table, this.room.announced(data.table, data.number));
    clear(this.body);
    this.body.append(
      h("button", { type: "button", class: "link", onclick: () => this.renderMine() }, `← ${t("hist.back")}`),
      h("div", { class: "replay-tools" }, replayButton(() => this.replay(row.id))),
      h("div", { class: "prev", dataset: { hand: String(data.number) } },
        recordView(data.record, data.table, { seat: data.your_seat, cards: data.your_cards })),
      fair);
  }
}

function signed(n) {
  return n > 0 ? `+${chips(n)}` : chips(n);
}

function downloads(id, table, number) {
  const base = `${table.replace(/[^\w-]+/g, "_")}-${number}`;
  return h("span", { class: "downloads" },
    h("a", { href: api.handUrl(id, "phh"), download: `${base}.phh`, class: "button-like small", dataset: { format: "phh" },
      "aria-label": `${t("prev.download")} ${t("prev.phh")}` }, `⤓ ${t("prev.phh")}`),
    h("a", { href: api.handUrl(id, "txt"), download: `${base}.txt`, class: "button-like small", dataset: { format: "txt" },
      "aria-label": `${t("prev.download")} ${t("prev.txt")}` }, `⤓ ${t("prev.txt")}`));
}

/** A finished hand as every player may see it (the previous-hand record); with ``own``
 *  (his seat and cards: a hand of his history), the reader's own cards too, folded or not. */
export function recordView(record, table, own = null) {
  const winners = new Set(record.pots.flatMap((p) => p.winners));
  const names = Object.fromEntries(record.players.map((p) => [p.seat, p.player]));
  const bestOfWinners = new Set(record.players.filter((p) => winners.has(p.seat)).flatMap((p) => p.best ?? []));
  const cardList = (cards, best) => h("span", { class: "cards" },
    cards.map((c) => cardElement(c, { best: Boolean(best && c && best.has(c)), dim: Boolean(best && c && !best.has(c)) })));

  const players = [...record.players].sort((a, b) => a.seat - b.seat).map((p) => {
    let handText = "";
    if (p.reached_showdown && p.hand) handText = handName(p.value, p.hand);
    else if (p.folded) handText = t("prev.folded");
    const mine = own && p.seat === own.seat && !p.cards.some((c) => c) && own.cards?.length ? own.cards : null;
    const cards = mine ?? p.cards;
    const visible = cards.some((c) => c);
    const best = winners.has(p.seat) && p.best?.length ? new Set(p.best) : null;
    return h("tr", { class: winners.has(p.seat) ? "winner" : "", dataset: { seat: String(p.seat), player: p.player } },
      h("td", {}, h("span", { class: "seat-no" }, p.seat), " ", p.player),
      h("td", { class: mine ? "own" : null }, visible ? cardList(cards, best) : h("span", { class: "muted" }, t("prev.notShown")),
        p.mucked ? h("span", { class: "muted" }, ` (${t("prev.mucked")})`) : null,
        p.revealed?.length ? h("span", { class: "revealed" }, t("prev.revealed")) : null),
      h("td", { class: "hand-name" }, handText),
      h("td", { class: `num ${p.net > 0 ? "plus" : p.net < 0 ? "minus" : ""}` }, signed(p.net)));
  });

  const potLines = [...record.pots].sort((a, b) => a.pot - b.pot).map((pot) => {
    const k = pot.pot; // 0 the main pot, then the side pots (awarded the last first)
    const title = record.pots.length === 1 ? t("prev.potOnly") : k === 0 ? t("prev.potMain") : t("prev.potSide", { k });
    const who = pot.winners.map((w, i) => `${names[w] ?? w} (${chips(pot.shares[i])})`).join(", ");
    return h("li", {}, t("prev.potWon", { pot: title, n: chips(pot.amount), names: who }),
      pot.hand ? ` — ${handName(pot.value, pot.hand)}` : "");
  });

  return [
    h("h3", {}, t("prev.heading", { n: record.number, game: gameLong(record.game_info, record.game) }), table ? h("span", { class: "muted" }, ` · ${table}`) : null),
    record.board.length ? h("div", { class: "prev-board" }, h("span", { class: "label" }, t("prev.board")),
      cardList(record.board, bestOfWinners.size ? bestOfWinners : null)) : null,
    h("table", { class: "prev-players" },
      h("thead", {}, h("tr", {}, h("th", {}, t("prev.player")), h("th", {}, t("prev.cards")),
        h("th", {}, t("prev.hand")), h("th", { class: "num" }, t("prev.result")))),
      h("tbody", {}, players)),
    h("h4", {}, t("prev.pots")), h("ul", { class: "prev-pots" }, potLines),
    h("h4", {}, t("prev.actions")), actionList(record, names),
  ];
}

function actionList(record, names) {
  const stud = recordIsStud(record);
  const streets = [];
  let current = { title: streetName(streetByIndex(0, stud)), items: [] };
  streets.push(current);
  for (const raw of record.events) {
    const type = recordEventType(raw);
    const event = { ...raw, type };
    if (type === "StreetEnded") {
      current = { title: streetName(streetByIndex(raw.street + 1, stud) || "showdown"), items: [] };
      streets.push(current);
      continue;
    }
    if (type === "HoleDealt") {
      if (raw.face_up && raw.card) current.items.push([t("log.dealtUp", { p: names[raw.player] ?? "?", cards: "" }), cardsInline([raw.card])]);
      continue;
    }
    const line = describe({ event, who: names[raw.player] ?? null, winners: (raw.winners ?? []).map((w) => names[w]), stud });
    if (line) current.items.push(line.nodes);
  }
  return h("div", { class: "prev-actions" }, streets.filter((s) => s.items.length).map((s) =>
    h("div", { class: "prev-street" }, h("h5", {}, s.title), h("ul", {}, s.items.map((nodes) => h("li", {}, nodes))))));
}

/** The deal's commitment, the check (against what this browser saw announced at the deal,
 *  when it saw it: fair.js), the seeds mixed in, the proven cards, and the downloads. */
async function fairView(data, id, table, announced) {
  const verdict = await verifyHand(data, announced);
  const seeds = data.deal?.seeds ?? [];
  const notes = [];
  if (verdict.ok && !announced?.commitment) notes.push(t("prev.unannounced"));
  if (verdict.scheme === 1) notes.push(t("prev.oldScheme"));
  return h("section", { class: "fair" },
    h("h4", {}, t("prev.fair")),
    h("p", { class: `verdict ${verdict.ok ? "ok" : "bad"}`, dataset: { verified: String(verdict.ok) } },
      verdict.ok ? `✔ ${t("prev.verified")}` : `✘ ${t("prev.notVerified")} ${verdict.reason}`),
    notes.map((note) => h("p", { class: "muted fair-note" }, note)),
    h("dl", {},
      h("dt", {}, t("prev.commitment")), h("dd", { class: "hash" }, data.commitment),
      verdict.scheme === 1 ? null : [h("dt", {}, t("prev.seedsTitle")), h("dd", { class: "seeds" },
        seeds.length ? t("prev.seeds", { seats: seeds.map(([seat]) => seat).join(", ") }) : t("prev.noSeeds"))],
      h("dt", {}, t("prev.openings", { n: data.openings.length })),
      h("dd", { class: "openings" }, [...data.openings].sort((a, b) => a.position - b.position).map((o) =>
        h("span", { class: "opening", title: `salt ${o.salt}` }, `${t("prev.position", { n: o.position + 1 })}: `, cardsInline([o.card]))))),
    h("p", {}, h("span", { class: "label" }, `${t("prev.download")}: `), downloads(id, table, data.number)));
}
