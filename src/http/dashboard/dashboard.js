// The vcw dashboard: plain JS, no build. It listens to /api/events (server-sent events) and redraws
// from each overview it is sent. Every value goes in as text (never as HTML).

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

const num = (n) => (n === null || n === undefined ? "–" : Number(n).toLocaleString("en-US"));
const time = (iso) => (iso ? new Date(iso).toLocaleTimeString() : "–");
const badge = (text, kind) => el("span", { class: `badge ${kind || text}` }, text);

function fillTable(id, rows, empty, columns) {
  const body = document.querySelector(`#${id} tbody`);
  const cols = document.querySelectorAll(`#${id} thead th`).length || columns;
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

function renderHeader(o) {
  const redis = document.getElementById("redis");
  redis.textContent = o.redis.ok ? "Redis ok" : `Redis unreachable: ${o.redis.error || "?"}`;
  redis.className = `pill ${o.redis.ok ? "ok" : "bad"}`;
  document.getElementById("rate").textContent =
    o.rate === null ? "shared rate: not measured yet" : `shared rate ${o.rate.toFixed(1)} req/s`;
  const phones = document.getElementById("phones");
  phones.disabled = !o.canReveal;
  phones.checked = o.phones === "shown";
  document.getElementById("footer").textContent =
    `updated ${time(o.generatedAt)}${o.redis.ok ? "" : ` · showing data read at ${time(o.redis.readAt)}`} · phone numbers ${o.phones}`;
}

function renderJobs(o) {
  fillTable(
    "jobs",
    o.jobs.map((j) =>
      el(
        "tr",
        { "data-job": j.name },
        el(
          "td",
          {},
          el("b", {}, j.name),
          j.description ? el("div", { class: "muted" }, j.description) : null,
        ),
        el(
          "td",
          {},
          j.paused ? badge("paused") : j.watched ? badge("running") : badge("not watched here", ""),
        ),
        el("td", {}, j.inbox),
        el("td", { class: "num" }, num(j.waiting)),
        el("td", { class: "num" }, num(j.processing)),
      ),
    ),
    "no job loaded",
  );
  document.getElementById("queues").replaceChildren(
    ...o.queues.map((q) => {
      const c = q.counts;
      return el(
        "div",
        { class: "card", "data-queue": q.name },
        el("h3", {}, q.name, " ", q.paused ? badge("paused") : null),
        el(
          "div",
          { class: "counts" },
          el("b", {}, num(c.active)),
          " active · ",
          el("b", {}, num((c.waiting || 0) + (c.prioritized || 0))),
          " waiting · ",
          el("b", {}, num(c.delayed)),
          " delayed · ",
          el("b", { class: c.failed ? "failed" : "" }, num(c.failed)),
          " failed",
        ),
      );
    }),
  );
}

function renderInFlight(o) {
  fillTable(
    "in-flight",
    o.inFlight.map((f) =>
      el(
        "tr",
        {},
        el("td", {}, f.job),
        el("td", {}, f.file),
        el("td", {}, badge(f.state, f.state === "active" ? "active" : f.state)),
        el("td", { class: "num" }, num(f.attempts)),
        el(
          "td",
          {},
          f.rowsRead === null
            ? "not started"
            : `${num(f.rowsRead)} rows read, ${num(f.created)} created, ${num(f.known)} known`,
        ),
      ),
    ),
    "no file is being imported",
  );
}

function renderRecentFiles(o) {
  fillTable(
    "recent-files",
    o.recentFiles.map((f) =>
      el(
        "tr",
        { "data-file": f.file },
        el("td", {}, time(f.finishedAt)),
        el("td", {}, f.job),
        el("td", {}, f.file),
        el("td", {}, badge(f.outcome), f.reason ? el("div", { class: "reason" }, f.reason) : null),
        el(
          "td",
          { class: "num" },
          f.rows
            ? `${num(f.rows.total)} = ${num(f.rows.valid)} valid + ${num(f.rows.rejected)} rejected + ${num(f.rows.duplicates)} dup. + ${num(f.rows.skipped)} skipped`
            : "–",
        ),
        el(
          "td",
          { class: "num" },
          f.created === null ? "–" : `${num(f.created)} created, ${num(f.known)} known`,
        ),
        el(
          "td",
          {},
          f.report
            ? el(
                "a",
                { href: f.report, target: "_blank", rel: "noopener" },
                f.report.endsWith(".csv") ? "error report" : "summary",
              )
            : "–",
        ),
      ),
    ),
    "no file finished yet",
  );
}

function renderCampaigns(o) {
  const box = document.getElementById("campaigns");
  if (!o.campaigns.length) {
    box.replaceChildren(el("p", { class: "empty" }, "no campaign yet"));
    return;
  }
  box.replaceChildren(
    ...o.campaigns.map((c) => {
      const statuses = Object.entries(c.byStatus).sort((a, b) => b[1] - a[1]);
      return el(
        "div",
        { class: "campaign", "data-campaign": c.id, "data-state": c.state },
        el(
          "div",
          { class: "title" },
          el("span", { class: "name" }, c.name),
          badge(c.state),
          el(
            "span",
            { class: "meta" },
            `job ${c.job} · file ${c.file}${c.attempt ? ` · follow-up ${c.attempt}` : ""} · started ${time(new Date(c.createdAt).toISOString())}`,
          ),
        ),
        bar(
          c.final,
          c.contacts,
          c.contacts ? `${num(c.final)} / ${num(c.contacts)} calls final` : "waiting for the first poll",
        ),
        el(
          "div",
          { class: "outcomes" },
          statuses.map(([s, n]) =>
            el(
              "span",
              { class: "chip", "data-status": s },
              el("i", { style: `background:${STATUS_COLORS[s] || "#a0aec0"}` }),
              `${s} ${num(n)}`,
            ),
          ),
          c.meetings ? el("span", { class: "chip" }, `meetings ${num(c.meetings)}`) : null,
          c.transfers ? el("span", { class: "chip" }, `transfers ${num(c.transfers)}`) : null,
        ),
        c.recent.length
          ? el(
              "div",
              { class: "recent" },
              c.recent.map((t) => el("div", {}, `${t.phone}  ${t.from || "new"} → ${t.to}`)),
            )
          : null,
      );
    }),
  );
}

function renderFailedDeliveries(o) {
  fillTable(
    "failed-deliveries",
    o.failedDeliveries.map((d) =>
      el(
        "tr",
        {},
        el("td", {}, time(d.failedAt)),
        el("td", {}, d.sink),
        el("td", {}, d.kind),
        el("td", {}, d.campaign || "–"),
        el("td", { class: "num" }, num(d.attempts)),
        el("td", { class: "reason" }, d.reason),
      ),
    ),
    "none: every summary was delivered",
  );
}

function render(o) {
  renderHeader(o);
  renderJobs(o);
  renderInFlight(o);
  renderRecentFiles(o);
  renderCampaigns(o);
  renderFailedDeliveries(o);
  document.body.dataset.updated = o.generatedAt;
}

let source;
function connect() {
  const live = document.getElementById("live");
  const show = document.getElementById("phones").checked;
  source?.close();
  source = new EventSource(`/api/events${show ? "?phones=show" : ""}`);
  source.addEventListener("overview", (e) => {
    live.textContent = "live";
    live.className = "pill ok";
    render(JSON.parse(e.data));
  });
  // EventSource reconnects by itself; say so meanwhile.
  source.addEventListener("error", () => {
    live.textContent = "reconnecting…";
    live.className = "pill bad";
  });
}

document.getElementById("phones").addEventListener("change", connect);
connect();
