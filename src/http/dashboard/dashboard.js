// The vcw dashboard: plain JS, no build. It listens to /api/events (server-sent events) and redraws
// from each overview it is sent. Every value goes in as text (never as HTML).

/** A job's variants: each open, stopped (why, on hover) or promoted. */
function experimentBadges(j) {
  return el(
    "div",
    { class: "experiment" },
    ...j.experiment.variants.map((v) =>
      el(
        "span",
        {
          class: `badge ${v.state === "stopped" ? "rejected" : v.state === "promoted" ? "ok" : ""}`,
          title: v.reason ?? "",
        },
        `variant ${v.name}: ${v.state}`,
      ),
    ),
  );
}

/** Stop or promote each variant still open (the same actions as `vcw experiment stop|promote`). */
function experimentButtons(j) {
  const open = j.experiment.variants.filter((v) => v.state === "open");
  if (open.length < 2) return [];
  return open.flatMap((v) => [
    actionButton(
      `stop variant ${v.name}`,
      { kind: "experiment-stop", job: j.name, variant: v.name },
      `Stop variant ${v.name} of job ${j.name}? It gets no new contacts; those it has keep it.`,
    ),
    actionButton(
      `promote variant ${v.name}`,
      { kind: "experiment-promote", job: j.name, variant: v.name },
      `Promote variant ${v.name} of job ${j.name}? Every new contact goes to it; the others are stopped.`,
    ),
  ]);
}

/** A button that runs an operator action once confirmed (see act()); shown only to a signed-in operator. */
function actionButton(label, action, confirmText) {
  if (!window.canAct) return null;
  return el(
    "button",
    { type: "button", class: "act", "data-action": JSON.stringify(action), "data-confirm": confirmText },
    label,
  );
}

/** What a campaign is doing, in words: a campaign before its start waits, it does not "run". */
function campaignPhase(c) {
  if (c.state !== "active") return { text: c.state, kind: c.state };
  if (Date.parse(c.scheduledAt) > Date.now()) {
    const at = zoned(c.scheduledAt, c.zone);
    const today = zoned(new Date().toISOString(), c.zone).slice(0, 10);
    const why = c.startReason ? ` (${c.startReason})` : "";
    return { text: `waiting until ${at.startsWith(today) ? at.slice(11) : at}${why}`, kind: "waiting" };
  }
  return { text: "calling", kind: "active" };
}

/** What comes next: the soonest waiting start and the next report, each in its zone. */
function renderNext(next) {
  const box = document.getElementById("next");
  const parts = [
    next?.start ? `next start: ${next.start.name} at ${zoned(next.start.at, next.start.zone)}` : null,
    next?.reports?.[0]
      ? `next report: ${next.reports[0].job} at ${zoned(next.reports[0].at, next.reports[0].zone)}`
      : null,
  ].filter(Boolean);
  box.hidden = parts.length === 0;
  box.textContent = parts.join(" · ");
}

function renderHeader(o) {
  const redis = document.getElementById("redis");
  redis.textContent = o.redis.ok ? "Redis ok" : `Redis unreachable: ${o.redis.error || "?"}`;
  redis.className = `pill ${o.redis.ok ? "ok" : "bad"}`;
  document.getElementById("rate").textContent =
    o.rate === null ? "shared rate: not measured yet" : `shared rate ${o.rate.toFixed(1)} req/s`;
  renderNext(o.next);
  const phones = document.getElementById("phones");
  phones.disabled = !o.canReveal;
  phones.checked = o.phones === "shown";
  document.getElementById("footer").textContent =
    `updated ${time(o.generatedAt)}${o.redis.ok ? "" : ` · showing data read at ${time(o.redis.readAt)}`} · phone numbers ${o.phones}`;
}

/** A job whose active campaigns no running daemon polls: nobody stops them. Its reason and fix are the server's words. */
function unpolledJobRow(j) {
  return el(
    "tr",
    { "data-job": j.job, "data-unpolled": j.active },
    el("td", {}, el("b", {}, j.job), el("div", { class: "muted" }, j.reason)),
    el(
      "td",
      {},
      badge(`${counted(j.active, "active campaign")} not polled`, "bad"),
      el("div", { class: "muted" }, "no results, no stop at the window's close, no opt-out taken out"),
    ),
    el("td", {}, "–"),
    el("td", { class: "num" }, "–"),
    el("td", { class: "num" }, "–"),
    el("td", {}, j.fix),
  );
}

function renderJobs(o) {
  fillTable(
    "jobs",
    o.jobs
      .map((j) =>
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
            j.polls?.behind ? badge(`polls behind ${num(Math.round(j.polls.lagSeconds))} s`, "bad") : null,
            j.experiment ? experimentBadges(j) : null,
          ),
          el(
            "td",
            {},
            j.inbox,
            // A bucket out of reach: its files can't be counted, and the reason is what to fix.
            j.problem ? el("div", { title: j.problem }, badge("can't be read", "bad")) : null,
          ),
          el("td", { class: "num" }, num(j.waiting)),
          el("td", { class: "num" }, num(j.processing)),
          el(
            "td",
            {},
            j.paused
              ? actionButton(
                  "resume",
                  { kind: "resume", job: j.name },
                  `Resume job ${j.name}? Its waiting files are imported and their campaigns created.`,
                )
              : actionButton(
                  "pause",
                  { kind: "pause", job: j.name },
                  `Pause job ${j.name}? No contact is sent and no campaign created until it is resumed; campaigns already created go on.`,
                ),
            ...(j.experiment ? experimentButtons(j) : []),
            o.recentFiles.some((f) => f.job === j.name && f.outcome === "rejected")
              ? actionButton(
                  "re-run rejected files",
                  { kind: "retry-all", queue: "imports", job: j.name },
                  `Drop every rejected file of job ${j.name} into its inbox again?`,
                )
              : null,
          ),
        ),
      )
      .concat((o.unpolledJobs || []).map(unpolledJobRow)),
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
        c.failed && q.name !== "imports"
          ? actionButton(
              "retry failed",
              { kind: "retry-all", queue: q.name },
              `Send every failed ${q.name} job back to the queue?`,
            )
          : null,
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
        el(
          "td",
          {},
          badge(f.outcome, f.campaignsNotMade ? "stuck" : f.outcome),
          f.campaignsNotMade
            ? el(
                "span",
                { class: "badge failed", "data-not-made": f.campaignsNotMade },
                `${counted(f.campaignsNotMade, "campaign")} not made`,
              )
            : null,
          f.reason ? el("div", { class: "reason" }, f.reason) : null,
        ),
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
        el(
          "td",
          {},
          f.outcome === "rejected" && f.id
            ? actionButton(
                "re-run",
                { kind: "retry", queue: "imports", id: f.id },
                `Drop ${f.file} into the inbox of ${f.job} again?`,
              )
            : null,
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
      const phase = campaignPhase(c);
      return el(
        "div",
        { class: "campaign", "data-campaign": c.id, "data-state": c.state },
        el(
          "div",
          { class: "title" },
          el("a", { class: "name", href: `/campaigns/${encodeURIComponent(c.id)}` }, c.name),
          el("span", { class: `badge ${phase.kind}`, "data-phase": phase.kind }, phase.text),
          c.stop
            ? el(
                "span",
                {
                  class: `badge ${c.stop.ranPastWindow || c.stop.honoured === "no" ? "rejected" : "paused"}`,
                  "data-stop": c.stop.ranPastWindow ? "ran-past-window" : "stopped",
                },
                c.stop.ranPastWindow
                  ? "ran past its window"
                  : `stopped (${(c.stop.reasons || []).join(", ")}): ${c.stop.withdrawn || c.stop.flagged} taken out${c.stop.honoured === "no" ? ", not honoured" : ""}`,
              )
            : null,
          el(
            "span",
            { class: "meta" },
            `${c.id} · job ${c.job} · file ${c.file}${c.attempt ? ` · follow-up ${c.attempt}` : ""} · starts ${zoned(c.scheduledAt, c.zone)}`,
          ),
          c.state === "active"
            ? actionButton("stop", { kind: "stop", campaign: c.id }, `Stop campaign ${c.name}?`)
            : null,
        ),
        bar(
          c.final,
          c.contacts,
          c.contacts
            ? `${num(c.final)} / ${num(c.contacts)} calls final`
            : phase.kind === "waiting"
              ? "no call before its start"
              : "waiting for the first poll",
        ),
        el(
          "div",
          { class: "outcomes" },
          statuses.map(([s, n]) => statusChip(s, n)),
          c.meetings ? el("span", { class: "chip" }, `meetings ${num(c.meetings)}`) : null,
          c.transfers ? el("span", { class: "chip" }, `transfers ${num(c.transfers)}`) : null,
          c.contacts
            ? el("span", { class: "chip reach", "data-reach": c.reached }, `reached ${c.reach}`)
            : null,
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

/** Campaigns asked for and never made: failed for good (the service refused them), or refused as too late. */
function renderCampaignsNotMade(o) {
  fillTable(
    "campaigns-not-made",
    (o.campaignsNotMade || []).map((c) =>
      el(
        "tr",
        { "data-not-made": c.id },
        el("td", {}, time(c.at)),
        el("td", {}, c.job),
        el("td", {}, c.file),
        el("td", {}, c.name, c.variant ? el("div", { class: "muted" }, `variant ${c.variant}`) : null),
        el("td", {}, badge(c.outcome === "failed" ? "failed" : "refused", "failed")),
        el("td", { class: "num" }, c.contacts === null ? "–" : num(c.contacts)),
        el("td", { class: "reason" }, c.reason),
        el(
          "td",
          {},
          c.outcome === "failed" && c.id
            ? actionButton(
                "retry",
                { kind: "retry", queue: "campaigns", id: c.id },
                `Try to create campaign ${c.name} again? Correct what its reason names first.`,
              )
            : null,
        ),
      ),
    ),
    "none: every campaign asked for was made",
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
        el(
          "td",
          {},
          d.id
            ? actionButton(
                "retry",
                { kind: "retry", queue: "deliveries", id: d.id },
                `Deliver this ${d.kind} summary to ${d.sink} again?`,
              )
            : null,
        ),
      ),
    ),
    (o.retryingDeliveries || []).length
      ? "none failed for good (some are retrying, below)"
      : "none: every summary was delivered",
  );
  const sinks = [...new Set(o.failedDeliveries.map((d) => d.sink))].sort();
  document
    .getElementById("delivery-bulk")
    .replaceChildren(
      ...sinks.map((sink) =>
        actionButton(
          `retry all failed to ${sink}`,
          { kind: "retry-all", queue: "deliveries", sink },
          `Send every failed delivery to ${sink} again?`,
        ),
      ),
    );
}

/** Deliveries that failed an attempt and wait for the next: trouble, though not yet failed for good. */
function renderRetryingDeliveries(o) {
  fillTable(
    "retrying-deliveries",
    (o.retryingDeliveries || []).map((d) =>
      el(
        "tr",
        {},
        el("td", {}, d.nextAttemptAt ? time(d.nextAttemptAt) : "soon"),
        el("td", {}, d.sink),
        el("td", {}, d.kind),
        el("td", {}, d.campaign || "–"),
        el("td", { class: "num" }, num(d.attempts)),
        el("td", { class: "reason" }, d.reason),
      ),
    ),
    "none",
  );
}

/** Each job's last test call of its assistant (a job's `preflight`). */
function renderPreflights(o) {
  fillTable(
    "preflights",
    (o.preflights || []).map((p) =>
      el(
        "tr",
        {},
        el("td", {}, p.job),
        el("td", {}, time(p.at)),
        el("td", {}, p.to.join(", ")),
        el("td", {}, p.ok ? badge("placed", "ok") : badge("failed", "bad")),
        el("td", { class: "reason" }, p.ok ? p.callId || "" : p.error || ""),
      ),
    ),
    "no test call yet",
  );
}

/** Each pool number's calls against its budgets, and its rest with the figures that decided it. */
function renderPoolNumbers(o) {
  const pct = (x) => `${Math.round(x * 100)}%`;
  const of = (n, max) => (max === null ? String(n) : `${n} of ${max}`);
  fillTable(
    "pool-numbers",
    (o.numbers || []).map((n) =>
      el(
        "tr",
        {},
        el("td", {}, n.job),
        el("td", {}, n.dialer),
        el("td", {}, n.number || "not applied"),
        el("td", {}, of(n.today, n.perDay)),
        el("td", {}, of(n.thisHour, n.perHour)),
        el(
          "td",
          { class: "reason" },
          n.resting
            ? `resting until ${time(new Date(n.resting.until).toISOString())}: answered ${pct(n.resting.answerRate)} against the pool's ${pct(n.resting.poolAnswerRate)} (z ${n.resting.z.toFixed(1)}, ${n.resting.calls} calls, ${pct(n.resting.shortRate)} short)`
            : "ok",
        ),
      ),
    ),
    "no dialer pool",
  );
}

function renderPendingCampaigns(o) {
  fillTable(
    "pending-campaigns",
    (o.pendingCampaigns || []).map((c) =>
      el(
        "tr",
        { "data-pending": c.id },
        el("td", {}, c.job),
        el("td", {}, c.file),
        el("td", {}, c.name),
        el("td", {}, c.notBefore ? zoned(c.notBefore, "UTC") : "as soon as a worker takes it"),
        el(
          "td",
          {},
          c.id
            ? actionButton(
                "cancel",
                { kind: "cancel", campaign: c.id },
                `Cancel campaign ${c.name} before it is created?`,
              )
            : null,
        ),
      ),
    ),
    "none",
  );
}

function render(o) {
  window.canAct = o.canReveal === true;
  document.getElementById("signout").hidden = !window.canAct;
  renderHeader(o);
  renderJobs(o);
  renderInFlight(o);
  renderRecentFiles(o);
  renderCampaigns(o);
  renderCampaignsNotMade(o);
  renderFailedDeliveries(o);
  renderRetryingDeliveries(o);
  renderPreflights(o);
  renderPoolNumbers(o);
  renderPendingCampaigns(o);
  document.body.dataset.updated = o.generatedAt;
}

/** The CSRF token the server put in a cookie for this page; sent back with every action. */
const csrfToken = () =>
  decodeURIComponent((document.cookie.match(/(?:^|; )XSRF-TOKEN=([^;]*)/) || [])[1] || "");

/** Asks, in the page's own dialog, whether to go on. */
function confirmAction(text) {
  const dialog = document.getElementById("confirm");
  document.getElementById("confirm-text").textContent = text;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}

/** Runs an action once confirmed and shows what became of it. */
async function act(action, text) {
  if (!(await confirmAction(text))) return;
  const out = document.getElementById("action-result");
  out.hidden = false;
  out.className = "pill";
  out.textContent = "working…";
  try {
    const r = await fetch("/api/actions", {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrf-token": csrfToken() },
      body: JSON.stringify({ ...action, confirmed: true }),
    });
    const result = await r.json().catch(() => ({ ok: false, message: `HTTP ${r.status}` }));
    out.textContent = result.message || result.error || `HTTP ${r.status}`;
    out.className = `pill ${result.ok ? "ok" : "bad"}`;
    out.dataset.ok = String(result.ok === true);
  } catch (error) {
    out.textContent = `not sent: ${error.message}`;
    out.className = "pill bad";
  }
}

document.addEventListener("click", (e) => {
  const button = e.target.closest("button[data-action]");
  if (!button) return;
  act(JSON.parse(button.dataset.action), button.dataset.confirm);
});
document.getElementById("signout").addEventListener("submit", (e) => {
  e.target.elements._csrf.value = csrfToken();
});

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
  // EventSource reconnects by itself; say so meanwhile. Refused (too many open dashboards): try later.
  source.addEventListener("error", () => {
    live.textContent = "reconnecting…";
    live.className = "pill bad";
    if (source.readyState !== EventSource.CLOSED) return;
    // Refused (too many open dashboards): show the overview once, try the stream again later.
    live.textContent = "not live: too many dashboards open";
    fetch(`/api/overview${show ? "?phones=show" : ""}`)
      .then((r) => (r.ok ? r.json() : undefined))
      .then((o) => o && render(o))
      .catch(() => undefined);
    setTimeout(connect, 30_000);
  });
}

document.getElementById("phones").addEventListener("change", connect);
connect();
