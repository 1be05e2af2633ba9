// Two languages, chosen from navigator.language and switchable. t(key, params) for every
// word the interface shows; the server's English hand names and error codes translated.
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

const RANK_WORDS = {
  deuce: "2", deuces: "2", trey: "3", treys: "3", four: "4", fours: "4", five: "5", fives: "5",
  six: "6", sixes: "6", seven: "7", sevens: "7", eight: "8", eights: "8", nine: "9", nines: "9",
  ten: "T", tens: "T", jack: "J", jacks: "J", queen: "Q", queens: "Q", king: "K", kings: "K",
  ace: "A", aces: "A",
};
const RANK_ORDER = "23456789TJQKA";
// Russian forms by rank: nominative singular, genitive singular, nominative plural,
// genitive plural, prepositional plural.
const RU_FORMS = [
  ["двойка", "двойки", "двойки", "двоек", "двойках"],
  ["тройка", "тройки", "тройки", "троек", "тройках"],
  ["четвёрка", "четвёрки", "четвёрки", "четвёрок", "четвёрках"],
  ["пятёрка", "пятёрки", "пятёрки", "пятёрок", "пятёрках"],
  ["шестёрка", "шестёрки", "шестёрки", "шестёрок", "шестёрках"],
  ["семёрка", "семёрки", "семёрки", "семёрок", "семёрках"],
  ["восьмёрка", "восьмёрки", "восьмёрки", "восьмёрок", "восьмёрках"],
  ["девятка", "девятки", "девятки", "девяток", "девятках"],
  ["десятка", "десятки", "десятки", "десяток", "десятках"],
  ["валет", "валета", "валеты", "валетов", "валетах"],
  ["дама", "дамы", "дамы", "дам", "дамах"],
  ["король", "короля", "короли", "королей", "королях"],
  ["туз", "туза", "тузы", "тузов", "тузах"],
];
const NOM = 0, GEN = 1, NOM_PL = 2, GEN_PL = 3, PREP_PL = 4;

function ruForm(word, form) {
  const rank = RANK_WORDS[word];
  return rank === undefined ? word : RU_FORMS[RANK_ORDER.indexOf(rank)][form];
}

/** The server's English hand description ("Two pair, aces and kings") in the current
 *  language ("Две пары: тузы и короли"). Unknown shapes are returned as they came. */
export function handName(english) {
  if (!english) return "";
  if (lang === "en") return english;
  const text = english.trim();
  const lower = text.toLowerCase();
  if (lower === "royal flush") return "Роял-флеш";
  const [head, ...rest] = lower.split(", ");
  const tail = rest.join(", ");
  let m;
  switch (head) {
    case "high card":
      return `Старшая карта: ${ruForm(tail, NOM)}`;
    case "one pair":
      return `Пара ${ruForm(tail, GEN_PL)}`;
    case "two pair":
      m = tail.match(/^(\w+) and (\w+)$/);
      return m ? `Две пары: ${ruForm(m[1], NOM_PL)} и ${ruForm(m[2], NOM_PL)}` : text;
    case "three of a kind":
      return `Тройка ${ruForm(tail, GEN_PL)}`;
    case "straight":
      m = tail.match(/^(\w+) high$/);
      return m ? `Стрит до ${ruForm(m[1], GEN)}` : text;
    case "flush":
      m = tail.match(/^(\w+) high$/);
      return m ? `Флеш, старшая карта — ${ruForm(m[1], NOM)}` : text;
    case "full house":
      m = tail.match(/^(\w+) full of (\w+)$/);
      return m ? `Фулл-хаус: ${ruForm(m[1], NOM_PL)} на ${ruForm(m[2], PREP_PL)}` : text;
    case "four of a kind":
      return `Каре ${ruForm(tail, GEN_PL)}`;
    case "straight flush":
      m = tail.match(/^(\w+) high$/);
      return m ? `Стрит-флеш до ${ruForm(m[1], GEN)}` : text;
    default:
      return text;
  }
}

/** A hand name in the middle of a sentence ("wins 10 with one pair, fours"). */
export function handNameInline(english) {
  const name = handName(english);
  return lang === "en" ? name.charAt(0).toLowerCase() + name.slice(1) : name;
}

document.documentElement.lang = lang;
