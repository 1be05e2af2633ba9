// Short messages in the corner: refusals from the server (translated), confirmations.
import { h } from "./dom.js";
import { errorText, t } from "./i18n.js";

const box = () => document.getElementById("toasts");

export function toast(text, kind = "info", ms = 4500) {
  const el = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  box().append(el);
  setTimeout(() => {
    el.classList.add("leaving");
    setTimeout(() => el.remove(), 400);
  }, ms);
  return el;
}

/** A server refusal ({code, message}) in the player's language. */
export function showError(err) {
  const code = err?.code;
  const el = toast(errorText(code, err?.message), "error", 6000);
  el.dataset.code = code || "";
  el.setAttribute("aria-label", `${t("error.title")}: ${el.textContent}`);
  return el;
}
