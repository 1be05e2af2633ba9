// Issue 19: statistics. The header's "Statistics" opens your own page (figures per game,
// the graph of chips won over your hands with and without the showdowns, drawn here as
// SVG, and your results by game and by stakes); a click on a player's name plate at a
// table opens a small card with his figures. Everything comes from
// GET /api/players/{name}/stats (gateway/stats.py); the figures are what his tables
// saw, never his hidden cards. Hooked by event delegation on the document: table.js and
// main.js know nothing of it (main.js imports it, one line).
import { $, clear, h } from "./dom.js";
import { chips, errorText, language, onLanguage, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const GAMES = { NLHE: "game.NL", PLHE: "game.PL", FLHE: "game.FL", Stud: "game.Stud" };
const FIGURES = [ // [figure, its label's key, its explanation's key]
  ["hands", "stats.hands", "stats.handsHelp"], ["vpip", "stats.vpip", "stats.vpipHelp"],
  ["pfr", "stats.pfr", "stats.pfrHelp"], ["three_bet", "stats.threeBet", "stats.threeBetHelp"],
  ["af", "stats.af", "stats.afHelp"], ["wtsd", "stats.wtsd", "stats.wtsdHelp"],
  ["wsd", "stats.wsd", "stats.wsdHelp"], ["bb100", "stats.bb100", "stats.bb100Help"],
];
const PERCENT = new Set(["vpip", "pfr", "three_bet", "wtsd", "wsd"]);

let shown = null; // what the dialog or the card shows: {kind, name, data, anchor}

async function fetchStats(name) {
  const response = await fetch(`/api/players/${encodeURIComponent(name)}/stats`, { credentials: "same-origin" });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new Error(data?.error?.code || "http");
  return data;
}

async function myName() {
  const response = await fetch("/api/me", { credentials: "same-origin" });
  if (!response.ok) throw new Error("login_required");
  return (await response.json()).name;
}

function number(value, digits) {
  return new Intl.NumberFormat(language() === "ru" ? "ru-RU" : "en-US",
    { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/** A figure as shown: "23.5%", "1.50", "+3.25", "—" where there is nothing to count. */
export function figure(key, value) {
  if (value === null || value === undefined) return "—";
  if (key === "hands") return chips(value);
  if (PERCENT.has(key)) return `${number(value, 1)}%`;
  if (key === "bb100") return `${value > 0 ? "+" : ""}${number(value, 2)}`;
  return number(value, 2);
}

function gameName(game) {
  return GAMES[game] ? t(GAMES[game]) : game;
}

function signed(n) {
  return `${n > 0 ? "+" : ""}${chips(n)}`;
}

function head(keys) {
  return h("thead", {}, h("tr", {}, keys.map(([key, label, title]) =>
    h("th", { class: key === "game" || key === "stakes" ? "" : "num", title: title ? t(title) : null }, t(label)))));
}

function scroll(table) {
  return h("div", { class: "stats-scroll" }, table);
}

/** The figures per game: a table, and the same as a list per game for narrow screens
 *  (the stylesheet shows one of them). */
function figuresTable(games) {
  const columns = [["game", "stats.game"], ...FIGURES];
  const table = h("table", { class: "stats-table stats-figures" }, head(columns),
    h("tbody", {}, games.map((g) => h("tr", { dataset: { game: g.game } },
      h("th", { scope: "row" }, gameName(g.game)),
      FIGURES.map(([key]) => h("td", { class: "num", dataset: { figure: key } }, figure(key, g[key])))))));
  return [scroll(table), h("div", { class: "stats-narrow" }, games.map(gameBlock))];
}

function gameBlock(g) {
  return h("div", { class: "stats-card-game", dataset: { game: g.game } },
    h("h4", {}, gameName(g.game)),
    h("dl", {}, FIGURES.map(([key, label, help]) => [
      h("dt", { title: t(help) }, t(label)), h("dd", { dataset: { figure: key } }, figure(key, g[key]))])));
}

// ------------------------------------------------------------------ the graph

/** The session graph as SVG: chips won (green) and chips won without the showdowns (red)
 *  over the hands, one path each with a point per sample the server kept. */
export function graphSvg(points, width = 900) {
  const W = Math.round(Math.max(300, Math.min(900, width))), H = W < 600 ? 220 : 280, L = 64, R = 16, T = 14, B = 30;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "stats-graph");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("stats.graph"));
  const el = (tag, attrs, text) => {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    svg.append(node);
    return node;
  };
  const last = points[points.length - 1][0] || 1;
  const values = points.flatMap((p) => [p[1], p[2]]).concat([0]);
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi === lo) { hi += 1; lo -= 1; }
  const x = (n) => L + ((W - L - R) * n) / last;
  const y = (v) => T + ((H - T - B) * (hi - v)) / (hi - lo);
  el("rect", { x: L, y: T, width: W - L - R, height: H - T - B, class: "stats-plot" });
  for (const v of [hi, 0, lo]) {
    el("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0 ? "stats-zero" : "stats-grid" });
    el("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "stats-label" }, signed(v));
  }
  el("text", { x: L, y: H - 8, class: "stats-label" }, "0");
  el("text", { x: W - R, y: H - 8, "text-anchor": "end", class: "stats-label" },
    `${chips(last)} ${t("stats.handsAxis")}`);
  const path = (index, cls) => {
    const d = points.map((p, i) => `${i ? "L" : "M"}${x(p[0]).toFixed(1)} ${y(p[index]).toFixed(1)}`).join(" ");
    el("path", { d, class: cls, "data-points": points.length });
  };
  path(2, "stats-line stats-nonsd");
  path(1, "stats-line stats-net");
  return svg;
}

function legend(last) {
  return h("p", { class: "stats-legend" },
    h("span", { class: "stats-legend-item" }, h("span", { class: "stats-key stats-key-net" }),
      `${t("stats.graphNet")}: ${signed(last[1])}`),
    h("span", { class: "stats-legend-item" }, h("span", { class: "stats-key stats-key-nonsd" }),
      `${t("stats.graphNonSd")}: ${signed(last[2])}`));
}

function stakesText(label) {
  return (String(label).match(/\d+\/\d+/) || [label])[0];
}

function resultsTables(data) {
  const byGame = h("table", { class: "stats-table stats-by-game" },
    head([["game", "stats.game"], ["hands", "stats.hands"], ["net", "stats.net"], ["bb100", "stats.bb100"]]),
    h("tbody", {}, data.games.map((g) => h("tr", {},
      h("th", { scope: "row" }, gameName(g.game)), h("td", { class: "num" }, chips(g.hands)),
      h("td", { class: `num ${g.net < 0 ? "neg" : "pos"}` }, signed(g.net)),
      h("td", { class: "num" }, figure("bb100", g.bb100))))));
  const byStakes = h("table", { class: "stats-table stats-by-stakes" },
    head([["stakes", "stats.stakes"], ["hands", "stats.hands"], ["net", "stats.net"], ["bb100", "stats.bb100"]]),
    h("tbody", {}, data.stakes.map((s) => h("tr", {},
      h("th", { scope: "row" }, `${gameName(s.game)} ${stakesText(s.stakes)}`),
      h("td", { class: "num" }, chips(s.hands)), h("td", { class: `num ${s.net < 0 ? "neg" : "pos"}` }, signed(s.net)),
      h("td", { class: "num" }, figure("bb100", s.bb100))))));
  return [h("section", {}, h("h3", {}, t("stats.byGame")), scroll(byGame)),
    h("section", {}, h("h3", {}, t("stats.byStakes")), scroll(byStakes))];
}

// ------------------------------------------------------------------ your own page

function dialog() {
  let dlg = $("#dlg-stats");
  if (dlg) return dlg;
  dlg = h("dialog", { id: "dlg-stats", class: "wide stats", "aria-labelledby": "dlg-stats-title" },
    h("div", { class: "dialog-head" }, h("h2", { id: "dlg-stats-title" }),
      h("button", { type: "button", class: "close", id: "stats-close", onclick: () => dlg.close() }, "×")),
    h("div", { class: "dialog-body", id: "stats-body" }));
  dlg.addEventListener("close", () => { if (shown?.kind === "page") shown = null; });
  document.body.append(dlg);
  return dlg;
}

function renderPage() {
  const dlg = dialog();
  $("#dlg-stats-title").textContent = t("stats.mine");
  $("#stats-close").setAttribute("aria-label", t("dialog.close"));
  const body = clear($("#stats-body"));
  const { data, error } = shown;
  if (error) return body.append(h("p", { class: "form-error" }, errorText(error)));
  if (!data) return body.append(h("p", { class: "muted" }, t("stats.loading")));
  if (!data.games.length) return body.append(h("p", { class: "muted stats-empty" }, t("stats.none")));
  const points = data.graph.points;
  const pad = getComputedStyle(body);
  const width = body.clientWidth - parseFloat(pad.paddingLeft) - parseFloat(pad.paddingRight);
  body.append(
    ...figuresTable(data.games),
    h("section", { class: "stats-graph-box" }, h("h3", {}, t("stats.graph")), graphSvg(points, width),
      legend(points[points.length - 1])),
    h("div", { class: "stats-results" }, resultsTables(data)),
    h("p", { class: "muted stats-note" }, t(data.complete ? "stats.note" : "stats.behind")));
  return dlg;
}

export async function openOwnStats() {
  closeCard();
  shown = { kind: "page", name: null, data: null, error: null };
  const dlg = dialog();
  renderPage();
  if (!dlg.open) dlg.showModal();
  const mine = shown;
  try {
    mine.name = await myName();
    mine.data = await fetchStats(mine.name);
  } catch (e) {
    mine.error = e.message === "login_required" ? "login_required" : e.message;
  }
  if (shown === mine) renderPage();
}

// ------------------------------------------------------------------ a seat's card

function closeCard() {
  document.querySelector(".stats-card")?.remove();
  if (shown?.kind === "card") shown = null;
}

function renderCard() {
  const { name, data, error, anchor } = shown;
  const old = document.querySelector(".stats-card");
  let body;
  if (error) body = h("p", { class: "form-error" }, errorText(error));
  else if (!data) body = h("p", { class: "muted" }, t("stats.loading"));
  else if (!data.games.length) body = h("p", { class: "muted stats-empty" }, t("stats.noneOf"));
  else body = data.games.map(gameBlock);
  const card = h("div", { class: "stats-card", role: "dialog", "aria-label": t("stats.of", { name }) },
    h("div", { class: "stats-card-head" }, h("strong", {}, name),
      h("button", { type: "button", class: "close", "aria-label": t("dialog.close"), onclick: closeCard }, "×")),
    body);
  if (old) old.replaceWith(card);
  else document.body.append(card);
  place(card, anchor);
}

function place(card, anchor) {
  const box = anchor.getBoundingClientRect();
  const width = card.offsetWidth, height = card.offsetHeight;
  const left = Math.min(Math.max(8, box.left + box.width / 2 - width / 2), window.innerWidth - width - 8);
  let top = box.bottom + 8;
  if (top + height > window.innerHeight - 8) top = Math.max(8, box.top - height - 8);
  card.style.left = `${Math.max(8, left)}px`;
  card.style.top = `${top}px`;
}

async function openCard(name, anchor) {
  shown = { kind: "card", name, data: null, error: null, anchor };
  const mine = shown;
  renderCard();
  try {
    mine.data = await fetchStats(name);
  } catch (e) {
    mine.error = e.message === "not_found" ? "no_player" : e.message;
  }
  if (shown === mine && anchor.isConnected) renderCard();
}

// ------------------------------------------------------------------ hooks

document.addEventListener("click", (e) => {
  const target = e.target instanceof Element ? e.target : null;
  if (!target) return;
  const plate = target.closest("#view-table .seat:not(.empty) .plate");
  if (plate) {
    const name = plate.querySelector(".name")?.textContent?.trim();
    if (name && !plate.closest(".seat")?.querySelector(".sit:not([hidden])")) {
      openCard(name, plate);
      return;
    }
  }
  if (!target.closest(".stats-card")) closeCard();
});

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") closeCard();
});

let resizing = 0;
window.addEventListener("resize", () => { // the graph drawn again to the new width
  clearTimeout(resizing);
  resizing = setTimeout(() => { if (shown?.kind === "page" && shown.data) renderPage(); }, 150);
});

onLanguage(() => {
  if (shown?.kind === "page") renderPage();
  else if (shown?.kind === "card") renderCard();
  const button = $("#btn-stats");
  if (button) button.textContent = t("stats.nav");
});

function hookButton() {
  const button = $("#btn-stats");
  const history = $("#btn-history");
  if (!button || !history) return;
  button.textContent = t("stats.nav");
  button.addEventListener("click", openOwnStats);
  // shown when a player is logged in: when "My hands" is (main.js keeps that one)
  const follow = () => { button.hidden = history.hidden; };
  new MutationObserver(follow).observe(history, { attributes: true, attributeFilter: ["hidden"] });
  follow();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", hookButton);
else hookButton();
