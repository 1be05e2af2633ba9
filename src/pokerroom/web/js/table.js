// One table on screen: the oval, the seats around it (the viewer's at the bottom), cards,
// bets, the dealer button, pots and board, the acting seat's clock, and the end of a hand
// (cards turned, the winning five highlighted, pots pushed to the winners). It draws the
// server's snapshot ``view``; the action bar, seat panel and chat are their own modules.
import { cardElement } from "./cards.js";
import { clear, h, setText, toggle } from "./dom.js";
import { gameFacts, gameLong, streetName, studDown } from "./games.js";
import { chips, handName, handNameInline, t } from "./i18n.js";
import { ActionBar } from "./controls.js";
import { SeatPanel } from "./seatpanel.js";
import { Feed } from "./chat.js";
import { POT_POINT, TableFx } from "./chipfx.js";

// Where things stand on the stage, in percent of its width (x) and height (y): ellipses
// of radii rx, ry around (50, cy). Bets stand in front of the seats; in the lower half
// nearer the middle (ryLow), so the viewer's bet is not under his own cards, which rise
// above his plate (issue 19). ``wide`` is the 5:3 stage; ``narrow`` a phone held upright
// (css: max-width 640px), a taller stage with the seats pulled in so that their bigger
// plates stay on it.
const GEOMETRY = {
  wide: {
    seat: { rx: 43, ry: 36, cy: 50 },
    bet: { rx: 28, ry: 22, ryLow: 15, cy: 49 },
    studBet: { rx: 21, ry: 17, ryLow: 12, cy: 49 }, // stud rows of cards reach further in
    button: { rx: 30, ry: 24, ryLow: 17, cy: 49 },
  },
  narrow: { seat: { rx: 36, ry: 38, cy: 52, k: 0.5 } },
};

/** Where a seat's bet stands on a phone: there the seats crowd the board, so the bet is
 *  put beside the plate, not on an ellipse: a seat at the side has it level with its plate
 *  on the inner side, the seat at the top below its plate, the viewer's above his cards,
 *  and one low on a diagonal (eight seats) above its cards. */
function narrowBet(degrees) {
  const p = at(GEOMETRY.narrow.seat, degrees);
  const a = (degrees * Math.PI) / 180;
  const cos = Math.cos(a), sin = Math.sin(a);
  const inward = -Math.sign(cos);
  if (Math.abs(cos) < 0.3) return sin < 0 ? { x: p.x, y: p.y + 8 } : { x: p.x, y: p.y - 20 };
  if (sin > 0.5) return { x: p.x + inward * 10, y: p.y - 19 }; // above its row of cards
  return { x: p.x + inward * 20, y: p.y };
}

/** The dealer button on a phone: right of the plate of a seat at the top or bottom, above
 *  the inner corner of the plate of a seat at the side (its cards keep to the outer side). */
function narrowButton(degrees) {
  const p = at(GEOMETRY.narrow.seat, degrees);
  const cos = Math.cos((degrees * Math.PI) / 180);
  if (Math.abs(cos) < 0.3) return { x: p.x + 16.5, y: p.y };
  return { x: p.x - Math.sign(cos) * 10, y: p.y - 7.5 };
}
const NARROW = window.matchMedia("(max-width: 640px)");
const SHOWDOWN_MS = 9000; // how long the end of a hand stays when no new hand follows

/** The point at ``degrees`` (90: straight down) on an ellipse of GEOMETRY; with ``k`` < 1
 *  its sides are flattened (the seats on a diagonal pushed out towards the sides). */
function at({ rx, ry, ryLow = ry, cy, k = 1 }, degrees) {
  const a = (degrees * Math.PI) / 180;
  const sin = Math.sin(a), cos = Math.cos(a);
  return { x: 50 + rx * Math.sign(cos) * Math.abs(cos) ** k, y: cy + (sin > 0 ? ryLow : ry) * sin };
}

export class TableView {
  /** hooks: {sit(seat), previousHand(), lobby(), topUp(), leave()} from main.js */
  constructor(room, name, hooks) {
    this.room = room;
    this.name = name;
    this.hooks = hooks;
    this.seatEls = new Map(); // seat number -> {root, ...parts}
    this.size = 0;
    this.rotation = null;
    this.cardKeys = new Map();
    this.boardKey = "";
    this.pushedFor = null; // the hand whose pots were pushed to the winners
    this.wasTurn = false;
    this.build();
    this.fx = new TableFx(this); // issue 19, item 9: the sounds of cards and chips, chips to the pot
    // a phone turned (or a window narrowed) past the breakpoint: the seats move
    NARROW.addEventListener("change", () => {
      this.size = 0; // laid out again for the new width at the next update
      if (this.el.isConnected) this.update();
    });
  }

  get geometry() {
    return NARROW.matches ? GEOMETRY.narrow : GEOMETRY.wide;
  }

  get ts() {
    return this.room.table(this.name);
  }

  build() {
    this.gameEl = h("span", { class: "game" });
    this.handEl = h("span", { class: "hand-no" });
    this.scheduleEl = h("span", { class: "schedule" });
    this.commitEl = h("span", { class: "commit" });
    this.prevButton = h("button", { type: "button", class: "secondary small", dataset: { control: "previous" },
      onclick: () => this.hooks.previousHand() });
    this.lobbyButton = h("button", { type: "button", class: "secondary small", dataset: { control: "lobby" },
      onclick: () => this.hooks.lobby() });
    // on a phone (upright or sideways) the log and the chat wait behind this button (css)
    this.chatButton = h("button", { type: "button", class: "secondary small chat-toggle", "aria-expanded": "false",
      dataset: { control: "chat" },
      onclick: () => this.showChat(!this.el.classList.contains("chat-open")) });
    const head = h("div", { class: "table-head" },
      h("h2", { class: "table-name" }, this.name), this.gameEl, this.handEl, this.scheduleEl, this.commitEl,
      h("div", { class: "head-buttons" }, this.prevButton, this.chatButton, this.lobbyButton));

    this.boardEl = h("div", { class: "board", role: "group" });
    this.potEl = h("div", { class: "pot", role: "status" });
    this.streetEl = h("div", { class: "street" });
    this.resultEl = h("div", { class: "result", role: "status", "aria-live": "polite" });
    this.statusEl = h("div", { class: "table-status", role: "status" });
    this.buttonEl = h("div", { class: "dealer-button", role: "img" }, "D");
    this.fxEl = h("div", { class: "fx" });
    this.seatsEl = h("div", { class: "seats" });
    this.betsEl = h("div", { class: "bets" });
    this.stage = h("div", { class: "stage" },
      h("div", { class: "rail" }, h("div", { class: "felt" }, h("div", { class: "felt-mark" }, "pokerroom"))),
      h("div", { class: "center" }, this.streetEl, this.boardEl, this.potEl),
      this.resultEl, this.betsEl, this.buttonEl, this.seatsEl, this.fxEl, this.statusEl);

    this.actions = new ActionBar(this.room, this.name);
    this.panel = new SeatPanel(this.room, this.name, this.hooks);
    this.feed = new Feed(this.room, this.name);
    this.feed.onClose = () => this.showChat(false);
    this.feed.onChat = () => toggle(this.chatButton, "unread", !this.el?.classList.contains("chat-open"));
    const dock = h("div", { class: "dock" }, this.panel.el, this.actions.el);
    this.el = h("div", { class: "table-screen", dataset: { table: this.name } },
      h("div", { class: "table-main" }, head, h("div", { class: "stage-wrap" }, this.stage), dock),
      this.feed.el);
    this.translateStatic();
  }

  /** Open or close the chat (a sheet over the table on a phone; always beside it on a desktop). */
  showChat(open) {
    toggle(this.el, "chat-open", open);
    this.chatButton.setAttribute("aria-expanded", String(open));
    if (open) this.chatButton.classList.remove("unread");
  }

  translateStatic() {
    this.chatButton.textContent = t("phone.chat");
    this.prevButton.textContent = t("table.previous");
    this.prevButton.setAttribute("aria-keyshortcuts", "H");
    this.lobbyButton.textContent = t("table.lobby");
    this.buttonEl.setAttribute("aria-label", t("table.dealer"));
    this.boardEl.setAttribute("aria-label", t("table.board"));
  }

  /** Everything changed language: redraw all text. */
  relabel() {
    this.translateStatic();
    this.cardKeys.clear();
    this.boardKey = "";
    this.size = 0; // the seats are made again, in the new language, by the next update
    this.feed.relabel();
    this.actions.relabel();
    this.panel.relabel();
    this.update();
  }

  // ------------------------------------------------------------------ geometry

  tableSize(view) {
    const row = this.room.lobbyRow(this.name);
    const most = Math.max(0, ...(view?.seats ?? []).map((s) => s.seat));
    return Math.max(row?.seats ?? 0, most, 2);
  }

  /** The seat drawn at the bottom: the viewer's, else seat 1. */
  bottomSeat(view) {
    return view?.seat ?? 1;
  }

  place(seat) {
    const index = (seat - this.rotation + this.size) % this.size;
    return 90 + (index * 360) / this.size;
  }

  /** Where a seat's bet stands: in front of it, towards the middle. */
  betPoint(seat) {
    const degrees = this.place(seat);
    if (NARROW.matches) return narrowBet(degrees);
    return at(this.stud ? GEOMETRY.wide.studBet : GEOMETRY.wide.bet, degrees);
  }

  // ------------------------------------------------------------------ drawing

  update() {
    const ts = this.ts;
    if (!ts) return;
    const view = ts.view;
    if (!view) {
      setText(this.statusEl, t("table.loading"));
      this.statusEl.hidden = false;
      return;
    }
    const game = gameFacts(view.game_info);
    const size = this.tableSize(view);
    const bottom = this.bottomSeat(view);
    if (size !== this.size || bottom !== this.rotation || game.stud !== this.stud) {
      this.size = size;
      this.rotation = bottom;
      this.stud = game.stud;
      this.layoutSeats();
    }
    const showdown = this.showdownToShow(ts, view);
    Object.assign(this.stage.dataset, {
      phase: showdown ? "showdown" : view.phase, street: view.street ?? "", hand: String(view.hand_number),
    });
    this.drawHead(view, ts);
    this.drawSeats(view, ts, game, showdown);
    this.fx.observe(view, showdown);
    this.drawCenter(view, game, showdown);
    this.drawButton(view, game);
    this.drawResult(showdown, view);
    this.drawStatus(view, showdown);
    this.actions.update();
    // the player's turn: a phone's chat sheet, which would cover the action bar, closes
    const turn = this.actions.myTurn();
    if (turn && !this.wasTurn) this.showChat(false);
    this.wasTurn = turn;
    this.panel.update();
    this.feed.update();
    this.tick();
  }

  /** The end of the last hand, while no new hand is being played. */
  showdownToShow(ts, view) {
    const sd = ts.showdown;
    if (!sd || !sd.finished) return null;
    if (view.phase === "playing" && view.hand_number !== sd.number) return null;
    if (Date.now() - sd.at > SHOWDOWN_MS) return null; // no next hand came: clear the table
    return sd;
  }

  drawHead(view, ts) {
    setText(this.gameEl, gameLong(view.game_info, view.game));
    setText(this.handEl, view.hand_number ? t("table.handNo", { n: view.hand_number }) : "");
    let schedule = "";
    if (view.hands_to_switch > 0 && JSON.stringify(view.next_game_info) !== JSON.stringify(view.game_info)) {
      schedule = view.hands_to_switch === 1
        ? t("table.nextOne", { game: gameLong(view.next_game_info, view.next_game) })
        : t("table.next", { game: gameLong(view.next_game_info, view.next_game), n: view.hands_to_switch });
    }
    setText(this.scheduleEl, schedule);
    this.scheduleEl.hidden = !schedule;
    if (ts.commitment) {
      setText(this.commitEl, `SHA-256 ${ts.commitment.slice(0, 10)}…`);
      this.commitEl.title = `${t("prev.commitment")}: ${ts.commitment}`;
    }
  }

  layoutSeats() {
    for (const parts of this.seatEls.values()) parts.root.remove();
    this.seatEls.clear();
    this.cardKeys.clear();
    clear(this.betsEl);
    this.stage.dataset.seats = String(this.size);
    for (let seat = 1; seat <= this.size; seat += 1) {
      const degrees = this.place(seat);
      const p = at(this.geometry.seat, degrees);
      const b = this.betPoint(seat);
      const side = p.x < 30 ? "left" : p.x > 70 ? "right" : "middle";
      const parts = this.makeSeat(seat, side);
      parts.root.style.left = `${p.x}%`;
      parts.root.style.top = `${p.y}%`;
      parts.bet.style.left = `${b.x}%`;
      parts.bet.style.top = `${b.y}%`;
      this.seatsEl.append(parts.root);
      this.betsEl.append(parts.bet);
      this.seatEls.set(seat, parts);
    }
  }

  makeSeat(seat, side) {
    const cards = h("div", { class: "hole", role: "group" });
    const name = h("div", { class: "name" });
    const stack = h("div", { class: "stack" });
    const clockText = h("div", { class: "clock-text", "aria-hidden": "true" });
    const bar = h("div", { class: "clock-bar" });
    const clock = h("div", { class: "clock", role: "timer" }, bar);
    const pos = h("span", { class: "pos" });
    const plate = h("div", { class: "plate" }, pos, name, stack, clock);
    const tag = h("div", { class: "tag" });
    const handLabel = h("div", { class: "hand-label" });
    const sit = h("button", { type: "button", class: "sit", onclick: () => this.hooks.sit(seat) });
    const emptyLabel = h("div", { class: "empty-label" });
    const root = h("div", { class: `seat side-${side}`, dataset: { seat: String(seat) } },
      cards, plate, clockText, tag, handLabel, sit, emptyLabel);
    const bet = h("div", { class: "bet", dataset: { seat: String(seat) } },
      h("span", { class: "chip", "aria-hidden": "true" }), h("span", { class: "amount" }));
    return { root, cards, name, stack, plate, pos, clock, bar, clockText, tag, handLabel, sit, emptyLabel, bet };
  }

  drawSeats(view, ts, game, showdown) {
    const bySeat = new Map(view.seats.map((s) => [s.seat, s]));
    const record = showdown?.record ?? null;
    const recordBy = new Map((record?.players ?? []).map((p) => [p.seat, p]));
    const winners = this.winningSeats(showdown);
    const canSit = Boolean(this.room.player) && (view.seat === null || view.seat === undefined);
    for (const [seat, parts] of this.seatEls) {
      const s = bySeat.get(seat);
      const root = parts.root;
      toggle(root, "empty", !s);
      if (!s) {
        root.classList.remove("me", "acting", "folded", "winner", "out", "all-in", "protected");
        parts.sit.hidden = !canSit;
        parts.sit.textContent = t("table.sitHere");
        parts.sit.setAttribute("aria-label", t("table.sitHereLabel", { n: seat }));
        parts.emptyLabel.hidden = canSit;
        setText(parts.emptyLabel, t("table.seat", { n: seat }));
        this.setCards(seat, parts, [], {});
        parts.bet.hidden = true;
        parts.tag.hidden = true;
        parts.handLabel.hidden = true;
        continue;
      }
      parts.sit.hidden = true;
      parts.emptyLabel.hidden = true;
      const me = s.seat === view.seat;
      toggle(root, "me", me);
      toggle(root, "acting", view.actor === seat && !showdown);
      toggle(root, "folded", s.folded && !showdown);
      toggle(root, "out", s.state === "sitting_out");
      toggle(root, "all-in", s.all_in && !showdown);
      toggle(root, "winner", winners.has(seat));
      setText(parts.name, s.player);
      parts.name.title = s.player;
      setText(parts.stack, chips(s.stack));
      parts.plate.setAttribute("aria-label",
        `${s.player}${me ? ` (${t("table.you")})` : ""}, ${t("table.stack", { n: chips(s.stack) })}`);

      // the blinds of the hand being played
      const marks = ts.marks.number === view.hand_number ? ts.marks : null;
      const blind = view.phase !== "playing" || showdown ? null
        : seat === view.big_blind ? "bb" : seat === view.small_blind ? "sb" : marks?.straddle === seat ? "straddle" : null;
      setText(parts.pos, blind ? t(`table.${blind}`) : "");
      parts.pos.hidden = !blind;
      parts.pos.title = blind ? t(`table.${blind}Long`) : "";

      // cards: the end of the last hand, or the hand being played
      const rec = recordBy.get(seat);
      let cards = s.cards;
      let best = null;
      let downs = null;
      if (showdown) {
        ({ cards, downs } = this.endCards(ts, showdown, seat, rec, me));
        if (rec && winners.has(seat) && rec.best?.length) best = new Set(rec.best);
      }
      this.setCards(seat, parts, cards, { stud: game.stud, me, best, downs, showdown: Boolean(showdown) });

      // what the seat is doing
      const protectedSeat = s.protected || Boolean(marks?.protected.has(seat)); // D7
      toggle(root, "protected", protectedSeat && s.all_in && !showdown);
      let tag = "";
      if (s.state === "sitting_out") tag = t("table.sittingOut");
      else if (s.leaving) tag = t("table.leaving");
      else if (!showdown && s.in_hand && s.all_in && protectedSeat) tag = t("table.allInProtected");
      else if (!showdown && s.in_hand && s.all_in) tag = t("table.allIn");
      else if (!showdown && s.in_hand && s.folded) tag = t("table.folded");
      else if (!s.in_hand && s.state === "entering" && view.phase === "playing") tag = t("table.waitingBB");
      setText(parts.tag, tag);
      parts.tag.hidden = !tag;

      const handText = showdown && rec?.hand && rec.reached_showdown ? handName(rec.value, rec.hand) : "";
      setText(parts.handLabel, handText);
      parts.handLabel.hidden = !handText;

      const bet = showdown ? 0 : s.bet;
      parts.bet.hidden = !bet;
      setText(parts.bet.querySelector(".amount"), chips(bet));
      parts.bet.setAttribute("aria-label", t("table.bet", { n: chips(bet) }));
    }
  }

  /** A seat's cards at the end of a hand: the record's (the showdown's, D6), with what
   *  the player showed after the hand face up (D12); the viewer's own unshown cards stay
   *  visible to him, marked as seen by him only. */
  endCards(ts, showdown, seat, rec, me) {
    let cards = rec ? [...rec.cards] : [...(showdown.shown[seat] ?? [])];
    const revealed = ts.revealed(showdown.number, seat);
    const own = me && ts.myHand?.number === showdown.number ? ts.myHand.cards : null;
    const folded = rec ? rec.folded && !rec.reached_showdown
      : Boolean(showdown.view?.seats.find((x) => x.seat === seat)?.folded);
    if (folded && !revealed.length) return { cards: [], downs: null };
    if (!cards.length && own && !folded) cards = new Array(own.length).fill(null);
    if (revealed.length) {
      if (!cards.length) cards = new Array(own?.length ?? revealed.length).fill(null);
      for (const code of revealed) {
        if (cards.includes(code)) continue;
        let k = own ? own.indexOf(code) : -1;
        if (k < 0 || cards[k]) k = cards.indexOf(null);
        if (k >= 0) cards[k] = code;
      }
    }
    let downs = null;
    if (own && !folded && own.length === cards.length) {
      downs = new Set();
      cards = cards.map((c, k) => {
        if (c) return c;
        downs.add(k);
        return own[k];
      });
    }
    return { cards, downs };
  }

  winningSeats(showdown) {
    const seats = new Set();
    if (!showdown) return seats;
    const pots = showdown.record?.pots ?? showdown.awards;
    for (const pot of pots) for (const w of pot.winners) seats.add(w);
    return seats;
  }

  setCards(seat, parts, cards, opts) {
    const best = opts.best;
    const downs = opts.downs ?? null;
    const key = JSON.stringify([cards, best ? [...best] : null, downs ? [...downs] : null, opts.me, opts.showdown]);
    if (this.cardKeys.get(seat) === key) return;
    const before = this.cardKeys.get(seat);
    this.cardKeys.set(seat, key);
    const oldCount = parts.cards.childElementCount;
    clear(parts.cards);
    toggle(parts.cards, "stud", opts.stud);
    toggle(parts.cards, "showdown", opts.showdown);
    parts.cards.setAttribute("aria-label", t("table.cards", { name: parts.name.textContent }));
    cards.forEach((code, i) => {
      const down = downs ? downs.has(i) : Boolean(opts.stud && opts.me && code && !opts.showdown && studDown(i));
      const el = cardElement(code, {
        down,
        best: best ? best.has(code) : false,
        dim: best ? !best.has(code) : false,
      });
      if (before !== undefined && i >= oldCount && !opts.showdown) el.classList.add("dealt");
      parts.cards.append(el);
    });
  }

  drawCenter(view, game, showdown) {
    const board = showdown?.record ? showdown.record.board : showdown ? (showdown.view?.board ?? []) : view.board;
    const best = new Set();
    if (showdown?.record) {
      const winners = this.winningSeats(showdown);
      for (const p of showdown.record.players) if (winners.has(p.seat)) for (const c of p.best ?? []) best.add(c);
    }
    const key = JSON.stringify([board, [...best]]);
    if (key !== this.boardKey) {
      const oldCount = this.boardEl.childElementCount;
      const wasEmpty = this.boardKey === "";
      this.boardKey = key;
      clear(this.boardEl);
      board.forEach((code, i) => {
        const el = cardElement(code, { best: best.size ? best.has(code) : false, dim: best.size ? !best.has(code) : false });
        if (!wasEmpty && i >= oldCount && !showdown) el.classList.add("dealt");
        this.boardEl.append(el);
      });
    }
    toggle(this.boardEl, "stud-board", game.stud);

    let potText = "";
    if (!showdown && view.phase === "playing") {
      if (view.pots.length > 1) {
        potText = view.pots
          .map((p, k) => (k === 0 ? t("table.mainPot", { n: chips(p.amount) }) : t("table.sidePot", { k, n: chips(p.amount) })))
          .join(" · ");
      } else if (view.pot) {
        potText = t("table.pot", { n: chips(view.pot) });
      }
    }
    setText(this.potEl, potText);
    this.potEl.hidden = !potText;
    const street = showdown ? "" : view.phase === "playing" ? streetName(view.street) : "";
    setText(this.streetEl, street);
    this.streetEl.hidden = !street;
  }

  drawButton(view, game) {
    const show = view.button !== null && view.button !== undefined && !game.stud && this.seatEls.has(view.button);
    this.buttonEl.hidden = !show;
    if (!show) return;
    const p = NARROW.matches ? narrowButton(this.place(view.button))
      : at(GEOMETRY.wide.button, this.place(view.button) + Math.min(14, 360 / this.size / 2.5));
    this.buttonEl.style.left = `${p.x}%`;
    this.buttonEl.style.top = `${p.y}%`;
  }

  drawResult(showdown, view) {
    if (!showdown) {
      this.resultEl.hidden = true;
      clear(this.resultEl);
      return;
    }
    const names = {};
    for (const s of showdown.view?.seats ?? view.seats) names[s.seat] = s.player;
    for (const p of showdown.record?.players ?? []) names[p.seat] = p.player;
    const lines = [];
    const pots = showdown.record?.pots ?? showdown.awards.map((a) => ({ ...a, hand: null }));
    // with more than one pot, each line says which: the main pot (pot 0) first, then the
    // side pots (they are awarded the other way round, the last side pot first)
    const ordered = [...pots].sort((a, b) => a.pot - b.pot);
    ordered.forEach((pot) => {
      const label = pots.length < 2 ? "" : pot.pot === 0 ? t("prev.potMain") : t("prev.potSide", { k: pot.pot });
      pot.winners.forEach((seat, k) => {
        const params = { name: names[seat] ?? t("log.seatN", { n: seat }), n: chips(pot.shares[k]) };
        let hand = pot.hand ? pot : null;
        if (!hand && showdown.record) hand = showdown.record.players.find((p) => p.seat === seat && p.reached_showdown && p.hand);
        const line = hand ? t("table.winsWith", { ...params, hand: handNameInline(hand.value, hand.hand) }) : t("table.wins", params);
        lines.push(label ? t("table.potLine", { pot: label, line }) : line);
      });
    });
    const key = JSON.stringify(lines);
    if (this.resultEl.dataset.key !== key) {
      this.resultEl.dataset.key = key;
      clear(this.resultEl);
      for (const line of lines) this.resultEl.append(h("div", {}, line));
    }
    this.resultEl.hidden = !lines.length;
    if (this.pushedFor !== showdown.number) {
      this.pushedFor = showdown.number;
      this.pushPots(pots);
    }
  }

  /** Chips slide from the middle to each winner, to where his bets stand (not onto his
   *  name and stack: issue 19), and fade there. */
  pushPots(pots) {
    if (!this.fx.won()) return; // off screen, or the flights switched off (chipfx.js)
    for (const pot of pots) {
      pot.winners.forEach((seat) => {
        if (this.seatEls.has(seat)) this.fx.fly(POT_POINT, this.betPoint(seat), "to-winner");
      });
    }
  }

  drawStatus(view, showdown) {
    let text = "";
    if (view.phase !== "playing" && !showdown) {
      const ready = view.seats.filter((s) => s.state !== "sitting_out" && s.stack > 0).length;
      text = ready >= 2 ? t("table.waitingNext") : t("table.waiting");
    }
    setText(this.statusEl, text);
    this.statusEl.hidden = !text;
  }

  /** The clocks: the acting seat's countdown, and the post prompt's. Called often. */
  tick() {
    const ts = this.ts;
    const view = ts?.view;
    if (!view) return;
    const now = this.room.now();
    if (!this.resultEl.hidden && !this.showdownToShow(ts, view)) this.update();
    for (const [seat, parts] of this.seatEls) {
      const acting = view.actor === seat && view.deadline && view.phase === "playing";
      parts.clock.hidden = !acting;
      parts.clockText.hidden = !acting;
      if (!acting) continue;
      const left = Math.max(0, view.deadline - now);
      const clock = ts.clock && ts.clock.seat === seat && Math.abs(ts.clock.deadline - view.deadline) < 0.01 ? ts.clock : null;
      const bank = clock ? clock.time_bank : 0;
      const actionTime = this.room.lobbyRow(this.name)?.action_time ?? 15;
      const total = clock ? Math.max(0.1, clock.deadline - clock.started - bank) : actionTime;
      const inBank = bank > 0 && left <= bank;
      const fraction = inBank ? left / bank : Math.min(1, (left - bank) / total);
      parts.bar.style.width = `${(fraction * 100).toFixed(1)}%`;
      toggle(parts.clock, "bank", inBank);
      toggle(parts.clock, "hurry", !inBank && left - bank < 5);
      const seconds = Math.ceil(inBank ? left : left - bank);
      setText(parts.clockText, inBank ? `⌛ ${seconds}` : String(seconds));
      toggle(parts.clockText, "bank", inBank);
      parts.clockText.title = inBank ? t("table.timeBankLeft", { n: seconds }) : "";
      parts.clock.setAttribute("aria-label", inBank ? t("table.timeBankLeft", { n: seconds }) : t("table.secondsLeft", { n: seconds }));
    }
    this.panel.tick(now);
  }
}
