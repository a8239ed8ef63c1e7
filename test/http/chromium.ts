import { resolve } from "node:path";

export { CHROMIUM, launchChromium as launch } from "../support/browser.ts";

/** `VCW_UPDATE_SCREENSHOT=1` also writes the pictures in docs/screenshots/ (the README shows them). */
export const shotPath = (name: string) => resolve(import.meta.dirname, "../../docs/screenshots", name);
export const SCREENSHOT = shotPath("dashboard-1366.png");
export const updateShots = process.env.VCW_UPDATE_SCREENSHOT === "1";
