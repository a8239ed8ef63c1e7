import { FAVICON_LINK } from "./favicon.ts";

/** The links every page's header carries, as the dashboard's pages have them. */
const LINKS: [string, string][] = [
  ["/", "dashboard"],
  ["/campaigns", "campaigns"],
  ["/reports", "reports"],
  ["/admin/queues", "queues (Bull Board)"],
];

/**
 * The dashboard's header for the pages the server writes (the Reports view): the same bar and
 * links, styled inline, since a report page is self-contained (no stylesheet of ours loads in it).
 * Its name is a link, not a heading: the page's one h1 is its own title.
 */
export function pageHeader(): string {
  const links = LINKS.map(([href, text]) => `<a href="${href}" style="color:#cfe0ff">${text}</a>`).join(
    " · ",
  );
  return `<header class="vcw-header" style="display:flex;flex-wrap:wrap;gap:10px;align-items:center;padding:11px 19px;background:#1d232b;color:#fff;font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif"><a href="/" style="margin:0 10px 0 0;font-size:19px;font-weight:700;letter-spacing:.04em;color:#fff;text-decoration:none">vcw</a><nav style="margin-left:auto">${links}</nav></header>`;
}

/** What a server-written page's `<head>` adds: its icon. */
export const HEAD_EXTRAS = FAVICON_LINK;
