// Notes and colour tags on other players (issue 19, item 6), private to their author and
// kept on the server (/api/notes). Every other player's seat gets a small dot: hollow
// without a note, filled with the tag's colour, and a click on it opens the note's editor.
// In the lobby, the names in a table's player list that carry a note get their dot too.
//
// It draws beside the table and the lobby, not in them: a MutationObserver sees their
// seats and rows change (table.js and lobby.js know nothing of notes) and adds or updates
// the dots a frame later; it changes nothing when nothing changed, so it never feeds
// itself. Who is logged in is read from the header (#who-name), so the notes follow the
// player through log-ins and log-outs.
import { api } from "./api.js";
import { $, h, setText } from "./dom.js";
import { errorText, onLanguage, t } from "./i18n.js";
import { showError } from "./toast.js";

const PALETTE = ["red", "orange", "yellow", "green", "teal", "blue", "purple", "grey"];
const MAX_TEXT = 1000;

class Notes {
  constructor() {
    this.player = null; // who is logged in ("" or null: nobody)
    this.notes = new Map(); // the other player's name, lower case -> {name, text, colour}
    this.version = 0; // rises with every change of this.notes (the lobby's cells key on it)
    this.scheduled = false;
    this.dialog = null;
    document.head.append(h("link", { rel: "stylesheet", href: "css/notes.css" }));
    new MutationObserver(() => this.schedule()).observe(document.body,
      { childList: true, subtree: true, characterData: true });
    onLanguage(() => this.schedule());
    this.schedule();
  }

  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.decorate();
    });
  }

  note(name) {
    return name ? this.notes.get(name.toLowerCase()) ?? null : null;
  }

  async load(player) {
    this.player = player;
    this.notes = new Map();
    this.version += 1;
    if (!player) return;
    try {
      const { notes } = await api.notes();
      if (this.player !== player) return;
      for (const n of notes) this.notes.set(n.name.toLowerCase(), n);
      this.version += 1;
      this.schedule();
    } catch (err) {
      showError(err);
    }
  }

  decorate() {
    const who = $("#who-name")?.textContent ?? "";
    if (who !== (this.player ?? "")) this.load(who);
    for (const seat of document.querySelectorAll(".table-screen .seat")) this.decorateSeat(seat);
    for (const cell of document.querySelectorAll("#lobby-rows td.players")) this.decorateCell(cell);
  }

  decorateSeat(seat) {
    const plate = seat.querySelector(".plate");
    if (!plate) return;
    let dot = plate.querySelector(":scope > .note-dot");
    if (!dot) {
      dot = h("button", { type: "button", class: "note-dot", onclick: (e) => {
        e.stopPropagation();
        this.edit(dot.dataset.player);
      } });
      plate.append(dot);
    }
    const name = plate.querySelector(".name")?.textContent ?? "";
    const off = !this.player || !name || seat.classList.contains("empty") || seat.classList.contains("me");
    if (dot.hidden !== off) dot.hidden = off;
    if (off) return;
    const note = this.note(name);
    const colour = note?.colour ?? "";
    const title = note ? [note.text, note.colour && t(`notes.colour.${note.colour}`)].filter(Boolean).join(" · ")
      : t("notes.add", { name });
    if (dot.dataset.player !== name) dot.dataset.player = name;
    if (dot.dataset.colour !== colour) dot.dataset.colour = colour;
    if (dot.dataset.noted !== String(Boolean(note))) dot.dataset.noted = String(Boolean(note));
    if (dot.title !== title) dot.title = title;
    const label = note ? t("notes.editLabel", { name }) : t("notes.add", { name });
    if (dot.getAttribute("aria-label") !== label) dot.setAttribute("aria-label", label);
  }

  decorateCell(cell) {
    const key = `${this.version}:${cell.textContent}`;
    if (cell.dataset.notes === key) return;
    const names = cell.textContent.split(", ");
    if (!names.some((n) => this.note(n))) {
      if (cell.querySelector(".note-name")) cell.replaceChildren(cell.textContent); // notes gone
    } else {
      const parts = names.map((n, i) => {
        const note = this.note(n);
        const item = note ? h("span", { class: "note-name", title: note.text || t(`notes.colour.${note.colour}`) },
          h("span", { class: "note-mark", dataset: { colour: note.colour ?? "" }, "aria-hidden": "true" }), n) : n;
        return i ? [", ", item] : [item];
      });
      cell.replaceChildren(...parts.flat());
    }
    cell.dataset.notes = `${this.version}:${cell.textContent}`;
  }

  // ------------------------------------------------------------------ the editor

  build() {
    const text = h("textarea", { id: "note-text", rows: "5", maxlength: String(MAX_TEXT) });
    const count = h("span", { class: "muted note-count", id: "note-count" });
    text.addEventListener("input", () => setText(count, `${text.value.length}/${MAX_TEXT}`));
    const colours = h("div", { class: "note-colours", role: "radiogroup", id: "note-colours" },
      ["", ...PALETTE].map((c) => h("button", { type: "button", role: "radio", class: "note-swatch",
        dataset: { colour: c }, onclick: () => this.pick(c) })));
    const title = h("h2", { id: "dlg-note-title" });
    const error = h("p", { class: "form-error", id: "note-error", role: "alert" });
    const del = h("button", { type: "button", class: "secondary", id: "note-delete", onclick: () => this.remove() });
    const cancel = h("button", { type: "button", class: "secondary", id: "note-cancel", onclick: () => this.dialog.close() });
    const save = h("button", { type: "submit", class: "primary", id: "note-save" });
    const form = h("form", { method: "dialog", novalidate: true }, title,
      h("label", { class: "note-label", for: "note-text" }), text, count, h("p", { class: "note-colour-label" }), colours,
      error, h("div", { class: "dialog-buttons" }, del, cancel, save));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.save();
    });
    this.dialog = h("dialog", { id: "dlg-note", "aria-labelledby": "dlg-note-title" }, form);
    document.body.append(this.dialog);
    this.parts = { text, count, colours, title, error, del, cancel, save, form };
  }

  edit(name) {
    if (!name || !this.player) return;
    if (!this.dialog) this.build();
    const note = this.note(name);
    const p = this.parts;
    this.editing = name;
    setText(p.title, t("notes.title", { name }));
    setText(p.form.querySelector(".note-label"), t("notes.text"));
    setText(p.form.querySelector(".note-colour-label"), t("notes.colour"));
    for (const b of p.colours.children) {
      const c = b.dataset.colour;
      const label = c ? t(`notes.colour.${c}`) : t("notes.noColour");
      b.title = label;
      b.setAttribute("aria-label", label);
    }
    setText(p.del, t("notes.delete"));
    setText(p.cancel, t("dialog.cancel"));
    setText(p.save, t("notes.save"));
    p.del.hidden = !note;
    p.text.value = note?.text ?? "";
    setText(p.count, `${p.text.value.length}/${MAX_TEXT}`);
    setText(p.error, "");
    this.pick(note?.colour ?? "");
    if (!this.dialog.open) this.dialog.showModal();
    p.text.focus();
  }

  pick(colour) {
    this.colour = colour;
    for (const b of this.parts.colours.children) b.setAttribute("aria-checked", String(b.dataset.colour === colour));
  }

  async save() {
    const name = this.editing;
    const text = this.parts.text.value;
    const colour = this.colour || null;
    try {
      if (!text.trim() && !colour) {
        if (this.note(name)) await api.deleteNote(name);
        this.notes.delete(name.toLowerCase());
      } else {
        const note = await api.putNote(name, { text, colour });
        this.notes.set(note.name.toLowerCase(), note);
      }
    } catch (err) {
      setText(this.parts.error, errorText(err?.code, err?.message));
      return;
    }
    this.version += 1;
    this.dialog.close();
    this.schedule();
  }

  async remove() {
    const name = this.editing;
    try {
      await api.deleteNote(name);
    } catch (err) {
      showError(err);
      return;
    }
    this.notes.delete(name.toLowerCase());
    this.version += 1;
    this.dialog.close();
    this.schedule();
  }
}

export const notes = new Notes();
