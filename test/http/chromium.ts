import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

/** Debian's chromium (installed by .ci/run), else one on PATH; CHROMIUM_PATH points elsewhere. Nothing is downloaded. */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  ["/usr/bin", ...(process.env.PATH ?? "").split(":")]
    .map((dir) => join(dir, "chromium"))
    .find((path) => existsSync(path)) ??
  "/usr/bin/chromium";
/** `VCW_UPDATE_SCREENSHOT=1` also writes the README's picture, docs/dashboard.png. */
export const SCREENSHOT = resolve(import.meta.dirname, "../../docs/dashboard.png");

/** A fresh profile, no network chatter of the browser's own, no GPU: headless on a bare CI machine. */
export async function launch(
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no browser at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  const profile = mkdtempSync(join(tmpdir(), "vcw-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    timeout: 20_000,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
