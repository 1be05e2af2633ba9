// Cards as SVG: crisp at any size, suits from the page's sprite (index.html), colours
// from CSS (two or four colours). A card is <span class="card" data-card="As"> face up,
// or <span class="card back"> face down (no data-card: the client never has that card).
import { cardName, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

/** One card. ``code`` is "As", "Td"...; null or undefined draws the back.
 *  Options: down (an own stud down card, face up for its owner), best (one of the five
 *  cards of a winning hand), dim, small. */
export function cardElement(code, options = {}) {
  const wrap = document.createElement("span");
  wrap.className = "card";
  wrap.setAttribute("role", "img");
  const box = svg("svg", { viewBox: "0 0 100 140", "aria-hidden": "true", focusable: "false" });
  if (!code) {
    wrap.classList.add("back");
    wrap.setAttribute("aria-label", t("table.hiddenCard"));
    box.append(
      svg("rect", { x: 1, y: 1, width: 98, height: 138, rx: 9, class: "back-edge" }),
      svg("rect", { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: "url(#back-lattice)", class: "back-field" }),
      svg("rect", { x: 7, y: 7, width: 86, height: 126, rx: 5, class: "back-frame" }),
    );
    wrap.append(box);
    return wrap;
  }
  const rank = code[0];
  const suit = code[1];
  wrap.dataset.card = code;
  wrap.classList.add(`suit-${suit}`);
  if (options.down) wrap.classList.add("down");
  if (options.best) wrap.classList.add("best");
  if (options.dim) wrap.classList.add("dim");
  wrap.setAttribute("aria-label", options.down ? `${cardName(code)} ${t("card.down")}` : cardName(code));
  const face = svg("rect", { x: 1, y: 1, width: 98, height: 138, rx: 9, class: "face" });
  const label = rank === "T" ? "10" : rank;
  const text = svg("text", { x: label.length > 1 ? 5 : 9, y: 44, class: "rank" });
  if (label.length > 1) text.setAttribute("textLength", "46");
  text.textContent = label;
  const small = svg("use", { href: `#suit-${suit}`, x: 10, y: 52, width: 28, height: 28 });
  const big = svg("use", { href: `#suit-${suit}`, x: 40, y: 76, width: 54, height: 54 });
  box.append(face, text, small, big);
  wrap.append(box);
  return wrap;
}
