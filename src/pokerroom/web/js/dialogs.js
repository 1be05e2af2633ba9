// The chips dialog (buy in, add chips): a slider and a number box between the table's
// minimum and maximum, and a note saying why the minimum is higher when it is (D13);
// resolves with the amount, or null when cancelled.
import { $ } from "./dom.js";
import { chips, t } from "./i18n.js";

export function askChips({ title, range, ok, min, max, initial, note = "" }) {
  const dialog = $("#dlg-chips");
  const slider = $("#chips-slider");
  const box = $("#chips-amount");
  const error = $("#chips-error");
  $("#dlg-chips-title").textContent = title;
  $("#chips-range").textContent = range;
  $("#chips-note").textContent = note;
  $("#chips-note").hidden = !note;
  $("#chips-ok").textContent = ok;
  for (const input of [slider, box]) {
    input.min = String(min);
    input.max = String(max);
    input.step = "1";
    input.value = String(initial);
  }
  error.textContent = "";
  const sync = (from, to) => () => {
    to.value = from.value;
    error.textContent = "";
  };
  slider.oninput = sync(slider, box);
  box.oninput = () => {
    const n = Number(box.value);
    if (Number.isInteger(n) && n >= min && n <= max) slider.value = box.value;
    error.textContent = "";
  };
  return new Promise((resolve) => {
    const form = $("#chips-form");
    const finish = (value) => {
      form.onsubmit = null;
      $("#chips-cancel").onclick = null;
      dialog.onclose = null;
      if (dialog.open) dialog.close();
      resolve(value);
    };
    form.onsubmit = (e) => {
      e.preventDefault();
      const n = Number(box.value);
      if (!Number.isInteger(n) || n < min || n > max) {
        error.textContent = t("chips.outOfRange", { min: chips(min), max: chips(max) });
        box.focus();
        return;
      }
      finish(n);
    };
    $("#chips-cancel").onclick = () => finish(null);
    dialog.onclose = () => finish(null);
    dialog.showModal();
    box.select();
  });
}
