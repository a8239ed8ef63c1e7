/**
 * Characters a terminal obeys rather than shows: C0 and C1 controls (ESC starts colours and window
 * titles, CR and LF break lines), DEL, the line and paragraph separators and the bidirectional
 * overrides that reorder what is read.
 */
const CONTROL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\u001b": "\\e" };

/** A text from outside (a file name) made safe to print: each control written visibly, `\e`, `\r`, `\x07`, `\u202e`. */
export const visible = (text: string): string =>
  text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return (
      NAMED[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`)
    );
  });
