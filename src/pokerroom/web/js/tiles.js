// Tiled tables (issue 19, item 7). On a wide window (WIDE: at least 1600 px) with two or
// more tables open, every open table is on screen at once, each a full TableView in a tile
// of a grid: two side by side, 2x2 for three or four, three columns beyond (two rows on
// screen, the rest below, scrolled to). Narrower windows keep one table behind the tabs,
// and a phone its own layout. The table that needs the player first (his turn, the
// earliest deadline) is marked, scrolled into view when not every tile is on screen, and
// takes the keyboard. "Tabs / Tile" is a choice kept in this browser: tile unless he
// chose tabs (a window under 1600 px shows tabs whatever he chose).
import { toggle } from "./dom.js";
import { pref, setPref } from "./prefs.js";

export const WIDE = window.matchMedia("(min-width: 1600px)");
const ROWS_ON_SCREEN = 2;

/** "tile" or "tabs": the player's choice, tile when he has not chosen. */
export function tileChoice() {
  return pref("layout") === "tabs" ? "tabs" : "tile";
}

export function setTileChoice(choice) {
  setPref("layout", choice === "tabs" ? "tabs" : "tile");
}

/** Tiled now, with ``count`` tables open: the choice, a wide window and two tables or more. */
export function tiling(count) {
  return tileChoice() === "tile" && WIDE.matches && count >= 2;
}

/** The open table where the player must act first: his turn, the earliest deadline (one
 *  without a clock last); null when it is his turn nowhere. */
export function firstNeed(room) {
  let first = null;
  let when = Infinity;
  for (const [name, ts] of room.tables) {
    const view = ts.view;
    if (!view?.legal || view.seat === null || view.seat === undefined || view.actor !== view.seat) continue;
    const deadline = view.deadline ?? Infinity;
    if (first === null || deadline < when) {
      first = name;
      when = deadline;
    }
  }
  return first;
}

/** Columns for ``n`` tiles: 2 up to four tables (side by side, then 2x2), 3 beyond. */
export function columns(n) {
  return n <= 1 ? 1 : n <= 4 ? 2 : 3;
}

/** Put ``views`` (TableViews, in the order of the tabs) into ``holder`` as tiles; ``active``
 *  is the table the player last chose, ``urgent`` the one that needs him first. The views
 *  already in place stay (not taken out and put back: a click on one is not lost). */
export function layTiles(holder, views, active, urgent) {
  holder.classList.add("tiled");
  const cols = columns(views.length);
  holder.style.setProperty("--tile-cols", String(cols));
  holder.style.setProperty("--tile-rows", String(Math.min(ROWS_ON_SCREEN, Math.ceil(views.length / cols))));
  const keep = new Set(views.map((v) => v.el));
  for (const child of [...holder.children]) if (!keep.has(child)) child.remove();
  views.forEach((view, i) => {
    if (holder.children[i] !== view.el) holder.insertBefore(view.el, holder.children[i] ?? null);
  });
  mark(views, active, urgent);
}

/** The marks on the tiles: the chosen one, and the one that needs the player (gold). */
export function mark(views, active, urgent) {
  for (const view of views) {
    toggle(view.el, "tile-active", view.name === active);
    toggle(view.el, "needs-you", view.name === urgent);
  }
}

/** Back to one table on screen: the tiles' marks and grid go. */
export function untile(holder) {
  holder.classList.remove("tiled");
  holder.style.removeProperty("--tile-cols");
  holder.style.removeProperty("--tile-rows");
  for (const child of holder.children) child.classList.remove("tile-active", "needs-you");
}

/** Bring the tile of ``view`` into view when the grid scrolls (more than two rows). */
export function reveal(holder, view) {
  if (!view || holder.scrollHeight <= holder.clientHeight + 1) return;
  view.el.scrollIntoView({ block: "nearest", behavior: "smooth" });
}
