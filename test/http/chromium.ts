import { resolve } from "node:path";

export { CHROMIUM, launchChromium as launch } from "../support/browser.ts";

/** `VCW_UPDATE_SCREENSHOT=1` also writes the README's picture, docs/dashboard.png. */
export const SCREENSHOT = resolve(import.meta.dirname, "../../docs/dashboard.png");
