import { renderAsync } from "@resvg/resvg-js";
import { packageAsset } from "../../lib/package-asset.ts";
import { CHART_FONT } from "./charts.ts";

/** A font shipped with vcw, so text renders on a bare machine (resvg reads TTF/OTF, not WOFF). */
const FONT_FILES = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"].map((f) =>
  packageAsset(import.meta.url, `fonts/${f}`, `dejavu-fonts-ttf/ttf/${f}`),
);

/**
 * A PNG of an SVG at twice its size (sharp on high-density screens), for mail clients that show no
 * SVG. Rendered on libuv's thread pool: a report's charts don't stall the daemon's cron ticks.
 */
export async function svgToPng(svg: string, scale = 2): Promise<Buffer> {
  const image = await renderAsync(svg, {
    font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: CHART_FONT },
    fitTo: { mode: "zoom", value: scale },
    background: "white",
  });
  return image.asPng();
}
