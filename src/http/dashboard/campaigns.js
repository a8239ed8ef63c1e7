// The campaigns view: every kept campaign, filtered and paginated (/campaigns), or one campaign and
// its status changes over time (/campaigns/ID). Reads /api/campaigns; draws with common.js.

const PHASE_TEXT = {
  waiting: "waiting for its window",
  calling: "calling",
  finished: "finished",
  stuck: "stuck",
};

function outcomes(byStatus) {
  return Object.entries(byStatus)
    .sort((a, b) => b[1] - a[1])
    .map(([s, n]) => statusChip(s, n));
}

function phaseBadge(c) {
  const text =
    c.phase === "waiting"
      ? `waiting until ${zoned(c.scheduledAt, c.zone)}${c.startReason ? ` (${c.startReason})` : ""}`
      : PHASE_TEXT[c.phase] || c.phase;
  return el(
    "span",
    { class: `badge ${c.phase === "calling" ? "active" : c.phase}`, "data-phase": c.phase },
    text,
  );
}

// What the check before its start repaired: a second campaign of its name emptied, duplicates,
// withdrawals; and late copies of it taken on, by the check or the looks after it, with the calls made
// twice (the row's `lateCopies`, worded as `vcw campaigns` words it).
function repairBadge(c) {
  const r = c.repaired;
  if (!r) return "";
  const fixed = r.campaignsRepaired
    ? `called by ${r.repairedInto || "a fresh campaign"}`
    : r.duplicatesRemoved + r.withdrawn > 0
      ? `${counted(r.duplicatesRemoved, "duplicate")} removed, ${num(r.withdrawn)} withdrawn`
      : "";
  const text = `repaired: ${[fixed, r.lateCopies].filter(Boolean).join(", ")}`;
  return el(
    "span",
    {
      class: `badge ${r.calledTwice ? "rejected" : "repaired"}`,
      "data-repaired": String(r.campaignsRepaired),
      "data-late-copies": String(r.copiesAdopted || 0),
      "data-called-twice": String(r.calledTwice || 0),
    },
    text,
  );
}

const resultsUrl = (c) => `/campaigns/${encodeURIComponent(c.id)}/results.csv`;
const reportUrl = (c) => `/reports/${encodeURIComponent(c.job)}?range=7d`;

function fillSelect(name, values) {
  const select = document.querySelector(`#filters [name=${name}]`);
  const chosen = select.value;
  select.replaceChildren(
    el("option", { value: "" }, "all"),
    ...values.map((v) => el("option", { value: v }, v)),
  );
  select.value = chosen;
}

async function showList() {
  document.getElementById("list").hidden = false;
  const params = new URLSearchParams(location.search);
  const form = document.getElementById("filters");
  for (const [k, v] of params) if (form.elements[k]) form.elements[k].value = v;
  const r = await fetch(`/api/campaigns?${params}`);
  const data = await r.json();
  if (!r.ok) {
    document.getElementById("count").textContent = data.error || `HTTP ${r.status}`;
    return;
  }
  fillSelect("job", data.facets.jobs);
  fillSelect("zone", data.facets.zones);
  for (const [k, v] of params) if (form.elements[k]) form.elements[k].value = v;
  const pages = Math.max(1, Math.ceil(data.total / data.per));
  document.getElementById("count").textContent = counted(data.total, "campaign");
  document.getElementById("page").textContent = `page ${data.page} of ${pages}`;
  const go = (page) => {
    params.set("page", String(page));
    location.search = params.toString();
  };
  document.getElementById("prev").disabled = data.page <= 1;
  document.getElementById("next").disabled = data.page >= pages;
  document.getElementById("prev").onclick = () => go(data.page - 1);
  document.getElementById("next").onclick = () => go(data.page + 1);
  fillTable(
    "campaign-list",
    data.campaigns.map((c) =>
      el(
        "tr",
        { "data-campaign": c.id, "data-phase": c.phase },
        el(
          "td",
          {},
          el("a", { href: `/campaigns/${encodeURIComponent(c.id)}` }, c.name),
          el("div", { class: "muted" }, c.id),
        ),
        el("td", {}, c.job),
        el("td", {}, zoned(c.scheduledAt, c.zone)),
        el("td", {}, phaseBadge(c), " ", repairBadge(c)),
        el("td", { class: "num" }, `${num(c.final)} / ${num(c.contacts)}`),
        el("td", { class: "num", "data-reach": c.reached }, c.reach),
        el("td", {}, outcomes(c.byStatus)),
        el(
          "td",
          {},
          el("a", { href: resultsUrl(c) }, "CSV"),
          " · ",
          el("a", { href: reportUrl(c) }, "report"),
        ),
      ),
    ),
    "no campaign matches",
  );
}

async function showOne(id) {
  document.getElementById("one").hidden = false;
  const r = await fetch(`/api/campaigns/${encodeURIComponent(id)}`);
  const data = await r.json();
  if (!r.ok) {
    document.getElementById("one-name").textContent = data.error || `HTTP ${r.status}`;
    return;
  }
  const c = data.campaign;
  document.title = `vcw: ${c.name}`;
  document.getElementById("one-name").replaceChildren(c.name, " ", phaseBadge(c), " ", repairBadge(c));
  document.getElementById("one-meta").textContent =
    `${c.id} · job ${c.job} · file ${c.file} · scheduled ${zoned(c.scheduledAt, c.zone)} · ${num(c.final)} of ${counted(c.contacts, "call")} final · reached ${c.reach}`;
  document.getElementById("one-bar").replaceChildren(...outcomes(c.byStatus));
  document.getElementById("one-results").href = resultsUrl(c);
  document.getElementById("one-report").href = reportUrl(c);
  fillTable(
    "timeline",
    data.timeline.map((p) =>
      el("tr", {}, el("td", {}, zoned(new Date(p.at).toISOString(), c.zone)), el("td", {}, outcomes(p.to))),
    ),
    "no status change observed yet",
  );
  const audit = data.audit;
  document.getElementById("audit-count").textContent =
    `${counted(c.contacts, "call")}, ${counted(audit.count, "audit record")} (vcw audit export for all of them and every fact)`;
  fillTable(
    "audit",
    audit.entries.map((e) =>
      el(
        "tr",
        {},
        el("td", {}, zoned(e.at, c.zone)),
        el("td", {}, e.number),
        el("td", {}, e.consent),
        el("td", {}, e.evidence),
        el("td", {}, e.rules),
        el("td", {}, e.window),
        el("td", {}, e.doNotCall),
      ),
    ),
    "no audit record yet",
  );
}

const match = /^\/campaigns\/([^/]+)$/.exec(location.pathname);
if (match) showOne(decodeURIComponent(match[1]));
else showList();
