/**
 * The report's HTML styles. INLINE is the layout, on each element (mail clients keep style
 * attributes, Outlook drops `<style>`); STYLE is what only a browser uses: a phone's stacked rows,
 * scaled charts, print.
 */
const FONT = `system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',Arial,sans-serif`;
const CELL = "text-align:left;padding:6px;border-bottom:1px solid #dee2e6;vertical-align:top";

export const INLINE = {
  body: `margin:0;background:#f8f9fa;color:#212529;font:15px/1.45 ${FONT}`,
  main: "max-width:760px;margin:0 auto;padding:16px",
  h1: "font-size:22px;margin:4px 0",
  h2: "font-size:17px;margin:22px 0 8px",
  muted: "color:#555;font-size:14px",
  note: "color:#555;font-size:13px;margin:6px 0",
  link: "color:#1c5fc7",
  // The cells' spacing outside the first and last card is taken back: the cards line up with the text.
  cards: "width:100%;width:calc(100% + 16px);margin:8px -8px 0;border-collapse:separate",
  card: "background:#ffffff;border:1px solid #dee2e6;border-radius:8px;padding:10px",
  cardLabel: "font-size:13px;color:#555",
  cardValue: "font-size:18px;font-weight:600",
  cardChange: "font-size:12px;color:#555",
  figure: "margin:0 0 12px;background:#ffffff;border:1px solid #dee2e6;border-radius:8px;padding:8px",
  caption: "font-size:14px;font-weight:600;margin-bottom:4px",
  table: "width:100%;border-collapse:collapse;background:#ffffff;font-size:14px",
  th: CELL,
  td: CELL,
  thNum: `${CELL};text-align:right`,
  tdNum: `${CELL};text-align:right`,
  problem: "color:#c92a2a",
} as const;

/** `!important` where it overrides an inline style (which wins over any rule without it). */
export const STYLE = `
.figure svg,.figure img{max-width:100%;height:auto;display:block}
@media (max-width:600px){
.cards td.card{display:block;width:auto;margin-bottom:8px}
table.campaigns thead{display:none}
table.campaigns tr{display:block;border-bottom:2px solid #dee2e6;padding:4px 0}
table.campaigns td{display:block;border:0!important;padding:3px 6px!important;text-align:right!important}
table.campaigns td::before{content:attr(data-label);float:left;margin-right:12px;font-weight:600;color:#555}
}
@media print{.vcw-header{display:none!important}body{background:none!important;font-size:11pt}.main{max-width:none!important;padding:0!important}
.card,.figure,table{break-inside:avoid}a{color:inherit!important;text-decoration:none}}
`;
