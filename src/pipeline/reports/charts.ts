import { parse, View } from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
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

function callsByHour(r: ReportModel): TopLevelSpec {
  const values = r.callsByHour.flatMap((h) => [
    { hour: h.hour, outcome: "reached", calls: h.reached },
    { hour: h.hour, outcome: "not reached", calls: h.calls - h.reached },
  ]);
  return {
    width: WIDTH,
    height: 160,
    data: { values },
    mark: { type: "bar" },
    encoding: {
      x: {
        field: "hour",
        type: "temporal",
        timeUnit: "utcyearmonthdatehours",
        title: `hour (${r.period.timezone})`,
        axis: { format: "%d %b %H:00", labelAngle: 0, tickCount: 6 },
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

/** SVG of a Vega-Lite spec, rendered on the server without a browser. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** The report's charts as SVG: calls over the period, reach by the callee's hour, the outcome funnel. */
export async function reportCharts(r: ReportModel): Promise<Chart[]> {
  const specs: [string, string, TopLevelSpec][] = [
    ["calls-by-hour", "Calls over the period, by hour", callsByHour(r)],
    ["reach-by-local-hour", "Reach rate by the callee's local hour", reachByLocalHour(r)],
    ["outcomes", "Outcomes", outcomes(r)],
  ];
  return Promise.all(specs.map(async ([id, title, spec]) => ({ id, title, svg: await renderSvg(spec) })));
}
