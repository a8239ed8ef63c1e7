/**
 * The web platform's types the client's declarations need, read off `globalThis` instead of named:
 * a consumer whose libs declare them (the DOM lib, @types/node) gets the real ones, and one whose
 * libs declare neither (`"lib": ["esnext"]`, no @types/node) still checks the package's declarations,
 * strict and without skipLibCheck. Naming `fetch` or `AbortSignal` there failed (TS7017, TS2304).
 */
type Global<K extends string> = typeof globalThis extends Record<K, infer T> ? T : never;
type Instance<K extends string> = Global<K> extends { prototype: infer P } ? P : never;

/** `typeof fetch`. */
export type Fetch = Global<"fetch">;
/** `AbortSignal`. */
export type Signal = Instance<"AbortSignal">;
/** `Response`. */
export type FetchResponse = Instance<"Response">;
/** `RequestInit`. */
export type FetchInit = Fetch extends (input: never, init?: infer I) => unknown ? I : never;
/** `RequestInfo | URL`. */
export type FetchInput = Fetch extends (input: infer I, init?: never) => unknown ? I : never;

declare global {
  /**
   * zod's declarations, reachable from the schemas this package exports, name `URL` as a type; a
   * consumer without the DOM lib or @types/node has none. An empty interface merges with theirs
   * when they have one, and gives zod's a type when they don't.
   */
  // Merged with the DOM's or Node's URL when present.
  interface URL {}
}
