import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { ASSET_DIR } from "./dashboard.ts";

/** Where every page's icon is: browsers ask for /favicon.ico whatever the page says. */
export const FAVICON_PATH = "/favicon.ico";

/** The `<link>` every page carries: the icon is an SVG (served at the path browsers ask for). */
export const FAVICON_LINK = `<link rel="icon" type="image/svg+xml" href="${FAVICON_PATH}">`;

/** The icon, open to all (the sign-in page shows it too); it says nothing of the worker. */
export function installFavicon(app: FastifyInstance): void {
  const svg = readFileSync(`${ASSET_DIR}favicon.svg`);
  app.get(FAVICON_PATH, async (_req, reply) =>
    reply
      .headers({ "x-content-type-options": "nosniff", "cache-control": "public, max-age=86400" })
      .type("image/svg+xml")
      .send(svg),
  );
}
