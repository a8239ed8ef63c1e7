// biome-ignore-all lint/correctness/noUnusedVariables: these are the globals the pages' own scripts use
// What the vcw pages share: plain JS, no build, loaded before each page's own script. Every value
// goes in as text (never as HTML).

const STATUS_COLORS = {
  completed: "#1f9d55",
  "no-answer": "#d97706",
  busy: "#b7791f",
  voicemail: "#805ad5",
  failed: "#d64545",
  "opted-out": "#718096",
  queued: "#a0aec0",
  ringing: "#63b3ed",
  "in-progress": "#2f6fde",
};

/** A status and its count, as a chip; its colour is its own (a status named "constructor" has none). */
function statusChip(status, n) {
  const color = Object.hasOwn(STATUS_COLORS, status) ? STATUS_COLORS[status] : "#a0aec0";
  return el(
    "span",
    { class: "chip", "data-status": status },
    el("i", { style: `background:${color}` }),
    `${status} ${num(n)}`,
  );
}

/** An element with attributes and children (strings become text nodes). */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "style") node.style.cssText = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** A time in a zone, with its date: "2026-11-24 08:00 America/Los_Angeles". */
function zoned(iso, zone) {
  if (!iso) return "–";
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${zone}`;
}

const num = (n) => (n === null || n === undefined ? "–" : Number(n).toLocaleString("en-US"));
const pluralRules = new Intl.PluralRules("en-US");
/** `n` and its noun, "1 campaign", "2 campaigns": src/lib/plural.ts for the pages' regular nouns. */
const counted = (n, noun) => `${num(n)} ${pluralRules.select(Number(n)) === "one" ? noun : `${noun}s`}`;
/** A time in the viewer's own zone, with its date and the zone named. */
const time = (iso) => zoned(iso, Intl.DateTimeFormat().resolvedOptions().timeZone);
const badge = (text, kind) => el("span", { class: `badge ${kind || text}` }, text);

/**
 * A table's rows, each cell labelled with its column's heading (data-label): on a phone a table of
 * class "stack" shows each row as a card of label and value (dashboard.css), not a strip to scroll.
 */
function fillTable(id, rows, empty, columns) {
  const body = document.querySelector(`#${id} tbody`);
  const heads = [...document.querySelectorAll(`#${id} thead th`)].map((th) => th.textContent);
  const cols = heads.length || columns;
  for (const row of rows)
    [...row.children].forEach((cell, i) => {
      if (heads[i]) cell.setAttribute("data-label", heads[i]);
    });
  body.replaceChildren(
    ...(rows.length ? rows : [el("tr", { class: "empty" }, el("td", { colspan: cols }, empty))]),
  );
}

/** A progress bar with role=progressbar, so a screen reader (and a test) can read where it stands. */
function bar(value, total, label) {
  const known = total > 0;
  const share = known ? Math.min(1, value / total) : 0;
  return el(
    "div",
    {
      class: `bar${known && value >= total ? " done" : ""}${known ? "" : " indeterminate"}`,
      role: "progressbar",
      "aria-valuemin": 0,
      "aria-valuemax": known ? total : undefined,
      "aria-valuenow": known ? value : undefined,
      "aria-label": label,
    },
    el("div", { class: "fill", style: known ? `width:${(share * 100).toFixed(1)}%` : undefined }),
    el("div", { class: "label" }, label),
  );
}
