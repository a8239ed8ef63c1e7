/**
 * Fields a job file may still write where they used to be (decision 0049): read in their new place,
 * with a warning naming both, so no job file breaks. Pure.
 */
export const MOVED_FIELDS = [
  { from: "campaign.start.window.fallbackTimezone", to: "calling.location.fallbackTimezone" },
  { from: "contacts.recallAfterDays", to: "calling.caps.recallAfterDays" },
  // One caps block (decision 0074): custom's caps were a second spelling of the job's caps.
  { from: "calling.custom.per24h", to: "calling.caps.per24h" },
  { from: "calling.custom.per7d", to: "calling.caps.per7d" },
] as const;

export interface OldSpelling {
  from: string;
  to: string;
}

type Raw = Record<string, unknown>;

/** A YAML mapping, as a job file's raw value holds it. */
export const isMap = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

/** The value at a dotted path through maps only, and whether it is there. */
function at(raw: unknown, path: string): { found: boolean; value?: unknown } {
  let node = raw;
  for (const key of path.split(".")) {
    if (!isMap(node) || !(key in node)) return { found: false };
    node = node[key];
  }
  return { found: true, value: node };
}

/** Every node on the way to `path` is a map or absent: a value can be set there. */
function placeable(raw: Raw, path: string): boolean {
  const keys = path.split(".").slice(0, -1);
  return keys.every((_, i) => {
    const node = at(raw, keys.slice(0, i + 1).join("."));
    return !node.found || isMap(node.value);
  });
}

/** `raw` with `value` set at `path` (absent maps made), every map on the way copied. */
function withValue(raw: Raw, [key, ...rest]: string[], value: unknown): Raw {
  if (key === undefined) return raw;
  if (rest.length === 0) return { ...raw, [key]: value };
  const child = isMap(raw[key]) ? raw[key] : {};
  return { ...raw, [key]: withValue(child, rest, value) };
}

/** `raw` without the field at `path`, every map on the way copied. */
function without(raw: Raw, [key, ...rest]: string[]): Raw {
  if (key === undefined || !(key in raw)) return raw;
  if (rest.length === 0) {
    const { [key]: _, ...kept } = raw;
    return kept;
  }
  const child = raw[key];
  return isMap(child) ? { ...raw, [key]: without(child, rest) } : raw;
}

/** The old spellings a raw job file uses (each a warning when it is read). */
export function oldSpellingsIn(raw: unknown): OldSpelling[] {
  return MOVED_FIELDS.filter((m) => at(raw, m.from).found).map(({ from, to }) => ({ from, to }));
}

/**
 * The raw job file with each old spelling moved to its new place. Both spellings given with
 * different values: `conflict` is told, and the new one is kept.
 */
export function readOldSpellings(raw: unknown, conflict: (m: OldSpelling) => void = () => {}): unknown {
  if (!isMap(raw)) return raw;
  let out = raw;
  for (const m of MOVED_FIELDS) {
    const old = at(out, m.from);
    // Where the new place can't hold it (calling: is not a map), the schema says what is wrong.
    if (!old.found || !placeable(out, m.to)) continue;
    const current = at(out, m.to);
    if (current.found && current.value !== old.value) conflict(m);
    out = without(out, m.from.split("."));
    if (!current.found) out = withValue(out, m.to.split("."), old.value);
  }
  return out;
}
