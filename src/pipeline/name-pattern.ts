/** What a name pattern may use: `{job}`, `{date}` (UTC, YYYY-MM-DD), `{file}`, `{sha}` (8 hex digits of the content). */
export interface PatternValues {
  job: string;
  file: string;
  sha256: string;
  /** Epoch ms the file was admitted: the same for every attempt. */
  at: number;
}

/** Fills a name pattern. Pure. */
export function fillPattern(pattern: string, v: PatternValues): string {
  return pattern
    .replaceAll("{job}", v.job)
    .replaceAll("{date}", new Date(v.at).toISOString().slice(0, 10))
    .replaceAll("{file}", v.file)
    .replaceAll("{sha}", v.sha256.slice(0, 8));
}
