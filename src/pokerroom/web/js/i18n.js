// Two languages, chosen from navigator.language and switchable. t(key, params) for every
// word the interface shows; the server's error codes, and the games and hands it sends as
// data, named in either language.
import en from "./i18n/en.js";
import ru from "./i18n/ru.js";

const DICTS = { en, ru };
const listeners = new Set();

function initialLanguage() {
  const saved = localStorage.getItem("pokerroom.lang");
  if (saved && DICTS[saved]) return saved;
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  for (const tag of wanted) {
    const base = String(tag || "").toLowerCase().split("-")[0];
    if (DICTS[base]) return base;
  }
  return "en";
}

let lang = initialLanguage();

export function language() {
  return lang;
}

export function setLanguage(next) {
  if (!DICTS[next] || next === lang) return;
  lang = next;
  localStorage.setItem("pokerroom.lang", next);
  document.documentElement.lang = next;
  applyStatic(document);
  for (const fn of listeners) fn(next);
}

export function onLanguage(fn) {
  listeners.add(fn);
}

/** The text of ``key`` in the current language, with {name} parameters filled in. */
export function t(key, params = {}) {
  let text = DICTS[lang][key];
  if (text === undefined) text = en[key];
  if (text === undefined) {
    console.warn(`i18n: no text for ${key}`);
    return key;
  }
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

const pluralRules = {};
/** ``key`` in the plural form the language uses for ``n`` (``key.one``, ``key.few``,
 *  ``key.many``, ``key.other``: Russian has all four, English one and other). */
export function plural(key, n, params = {}) {
  pluralRules[lang] ??= new Intl.PluralRules(lang === "ru" ? "ru-RU" : "en-US");
  const form = pluralRules[lang].select(n);
  const wanted = `${key}.${form}`;
  return t(has(wanted) ? wanted : `${key}.other`, { n, ...params });
}

export function has(key) {
  return key in DICTS[lang] || key in en;
}

/** Translate the static markup: data-i18n (text), data-i18n-aria, -title, -placeholder. */
export function applyStatic(root) {
  document.documentElement.lang = lang;
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}

const numberFormats = {};
/** Chips as the language writes numbers (10,000 / 10 000). */
export function chips(n) {
  if (n === null || n === undefined) return "";
  numberFormats[lang] ??= new Intl.NumberFormat(lang === "ru" ? "ru-RU" : "en-US");
  return numberFormats[lang].format(n);
}

export function dateTime(seconds) {
  return new Date(seconds * 1000).toLocaleString(lang === "ru" ? "ru-RU" : "en-GB", {
    day: "2-digit", month: "short", hour: "2-digit", minute: "2-digit", second: "2-digit",
  });
}

/** A time of day, 14:32, from seconds since the epoch. */
export function clockTime(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString(lang === "ru" ? "ru-RU" : "en-GB", { hour: "2-digit", minute: "2-digit" });
}

// ------------------------------------------------------------------ errors

/** A server error (code and English message) in the current language. */
export function errorText(code, message) {
  const key = `error.${code}`;
  if (code && has(key)) return t(key);
  return t("error.unknown", { message: message || code || "?" });
}

// ------------------------------------------------------------------ cards

export function cardName(code) {
  const rank = t(`card.rank.${code[0]}`);
  const suit = t(`card.suit.${code[1]}`);
  const name = t("card.name", { rank, suit });
  return name.charAt(0).toUpperCase() + name.slice(1);
}

// ------------------------------------------------------------------ hand names

// The forms of a rank's name the hand names use (``rank.<form>.<rank>``): nominative,
// genitive, nominative plural, genitive plural, prepositional plural (Russian needs them
// all; English has a singular and a plural).
const RANK_FORMS = ["nom", "gen", "nomPl", "genPl", "prepPl"];
// where the second rank a name says stands among the best five (two pair, full house)
const SECOND = { two_pair: 2, full_house: 3 };

/** A hand's value as the server sends it (``{category, ranks}``: the best five's ranks,
 *  most important first) named in the current language: "Two pair, aces and kings", "Две
 *  пары: тузы и короли". ``english``, the server's name for logs, is shown as it is only
 *  for a hand stored without its value (before protocol 3). */
export function handName(value, english = "") {
  if (!value) return english || "";
  const first = value.ranks[0];
  if (value.category === "straight_flush" && first === "A") return t("hand.royal_flush");
  const second = value.ranks[SECOND[value.category] ?? 1];
  const params = {};
  for (const form of RANK_FORMS) {
    params[`${form}1`] = t(`rank.${form}.${first}`);
    params[`${form}2`] = second ? t(`rank.${form}.${second}`) : "";
  }
  return t(`hand.${value.category}`, params);
}

/** A hand name in the middle of a sentence ("wins 10 with one pair, fours"). */
export function handNameInline(value, english = "") {
  const name = handName(value, english);
  return lang === "en" ? name.charAt(0).toLowerCase() + name.slice(1) : name;
}

document.documentElement.lang = lang;
