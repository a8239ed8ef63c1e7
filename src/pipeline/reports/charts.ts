import { setImmediate as nextTurn } from "node:timers/promises";
import { parse, View } from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import type { BucketUnit } from "./buckets.ts";
import type { ReportModel } from "./model.ts";

/** Calls are whole: no "0.5 calls" tick on a small day. */
const COUNT_AXIS = { format: "d", tickMinStep: 1 } as const;

/** The font charts are drawn in: shipped as a TTF (dejavu-fonts-ttf) for PNGs made without a system font. */
export const CHART_FONT = "DejaVu Sans";

export interface Chart {
  /** Stable id: the e-mail's image Content-ID and the page's element id. */
  id: string;
  title: string;
  svg: string;
}

const WIDTH = 520;
const config = {
  font: CHART_FONT,
  background: "white",
  view: { stroke: null },
  axis: { labelFontSize: 11, titleFontSize: 11, grid: true, gridColor: "#eee" },
  legend: { orient: "bottom", labelFontSize: 11, titleFontSize: 11 },
  title: { fontSize: 13, anchor: "start" },
} as const;

const REACHED = "#2b8a3e";
const NOT_REACHED = "#adb5bd";

const LABEL_FORMATS = {
  day: { day: "numeric", month: "short" },
  month: { month: "short", year: "numeric" },
} as const;

/**
 * The time axis's labels: a day or month as "25 Nov" or "Nov 2026"; an hour as its clock, "09:00",
 * with the date where a day begins (and on the first bar), so eight labels fit a week's or a day's axis.
 */
function timeLabels(buckets: readonly { hour: string }[], unit: BucketUnit): string[] {
  const format = (f: Intl.DateTimeFormatOptions, wall: string) =>
    new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", ...f }).format(new Date(`${wall}Z`));
  if (unit !== "hour") return buckets.map((h) => format(LABEL_FORMATS[unit], h.hour));
  return buckets.map((h, i) => {
    const clock = h.hour.slice(11, 16);
    if (clock === "00:00") return format(LABEL_FORMATS.day, h.hour);
    return i === 0 ? `${format(LABEL_FORMATS.day, h.hour)} ${clock}` : clock;
  });
}

/** At most this many labels on the time axis. */
const TIME_LABELS = 8;

/**
 * Calls over the period, one bar per bucket in order: the x axis is the bucket's index, labelled
 * with its wall-clock start (computed here, in the report's zone), so the two 01:00 hours of a
 * DST fall-back are two bars and Vega never converts a time through the server's zone.
 */
function callsOverTime(r: ReportModel): TopLevelSpec {
  const values = r.callsByHour.flatMap((h, i) => [
    { i, outcome: "reached", calls: h.reached },
    { i, outcome: "not reached", calls: h.calls - h.reached },
  ]);
  const unit = r.bucket ?? "hour";
  const labels = timeLabels(r.callsByHour, unit);
  const step = Math.max(1, Math.ceil(labels.length / TIME_LABELS));
  return {
    width: WIDTH,
    height: 160,
    data: { values },
    mark: { type: "bar" },
    encoding: {
      x: {
        field: "i",
        type: "ordinal",
        title: `${unit} (${r.period.timezone})`,
        axis: {
          values: labels.map((_, i) => i).filter((i) => i % step === 0),
          labelExpr: `${JSON.stringify(labels)}[datum.value]`,
          labelAngle: 0,
        },
      },
      y: { field: "calls", type: "quantitative", aggregate: "sum", title: "calls ended", axis: COUNT_AXIS },
      color: {
        field: "outcome",
        type: "nominal",
        scale: { domain: ["reached", "not reached"], range: [REACHED, NOT_REACHED] },
        title: null,
      },
    },
    config,
  } as TopLevelSpec;
}

function reachByLocalHour(r: ReportModel): TopLevelSpec {
  const values = r.reachByLocalHour.map((h) => ({ hour: h.hour, rate: h.reachRate, calls: h.calls }));
  return {
    width: WIDTH,
    height: 160,
    data: { values },
    mark: { type: "bar", color: REACHED },
    encoding: {
      x: { field: "hour", type: "ordinal", title: "callee's local hour", axis: { labelAngle: 0 } },
      y: {
        field: "rate",
        type: "quantitative",
        title: "reach rate",
        axis: { format: "%" },
        scale: { domain: [0, 1] },
      },
      opacity: { condition: { test: "datum.calls > 0", value: 1 }, value: 0 },
    },
    config,
  } as TopLevelSpec;
}

function outcomes(r: ReportModel): TopLevelSpec {
  const t = r.totals;
  const values = [
    { step: "calls ended", n: t.calls },
    { step: "reached", n: t.reached },
    { step: "meetings", n: t.meetings },
    { step: "transfers", n: t.transfers },
    { step: "opted out", n: t.optedOut },
  ];
  return {
    width: WIDTH,
    height: 130,
    data: { values },
    layer: [
      {
        mark: { type: "bar", color: "#1c7ed6" },
        encoding: {
          y: { field: "step", type: "nominal", sort: null, title: null },
          x: { field: "n", type: "quantitative", title: "calls", axis: COUNT_AXIS },
        },
      },
      {
        mark: { type: "text", align: "left", dx: 4 },
        encoding: {
          y: { field: "step", type: "nominal", sort: null },
          x: { field: "n", type: "quantitative" },
          text: { field: "n", type: "quantitative" },
        },
      },
    ],
    config,
  } as TopLevelSpec;
}

/**
 * SVG of a Vega-Lite spec, rendered on the server without a browser. Each step runs in its own turn
 * of the event loop (a few ms each): a daemon drawing a report keeps answering meanwhile.
 */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const compiled = compile(spec).spec;
  await nextTurn();
  const parsed = parse(compiled);
  await nextTurn();
  const view = new View(parsed, { renderer: "none" });
  await nextTurn();
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** The report's charts as SVG: calls over the period, reach by the callee's hour, the outcome funnel. */
export async function reportCharts(r: ReportModel): Promise<Chart[]> {
  const specs: [string, string, TopLevelSpec][] = [
    ["calls-by-hour", `Calls over the period, by ${r.bucket ?? "hour"}`, callsOverTime(r)],
    ["reach-by-local-hour", "Reach rate by the callee's local hour", reachByLocalHour(r)],
    ["outcomes", "Outcomes", outcomes(r)],
  ];
  const charts: Chart[] = [];
  // One after the other: drawn together, their steps would share turns of the event loop.
  for (const [id, title, spec] of specs) charts.push({ id, title, svg: await renderSvg(spec) });
  return charts;
}
