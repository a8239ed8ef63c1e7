const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text made safe inside HTML, attribute values too. */
export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
