// A tiny element builder: h("button", {class: "x", onclick: f}, "text", child).
// Text is always set as text (never parsed as HTML), so names and chat are safe.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") {
      for (const [name, v] of Object.entries(value)) el.style.setProperty(name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), v);
    }
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, value);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

/** Set text only when it changed (keeps the DOM quiet between snapshots). */
export function setText(el, text) {
  const value = String(text ?? "");
  if (el.textContent !== value) el.textContent = value;
}

export function toggle(el, name, on) {
  el.classList.toggle(name, Boolean(on));
}
