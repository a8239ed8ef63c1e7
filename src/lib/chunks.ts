/** Numbers a Redis command or a round of concurrent calls takes at most: no spread overflows the stack. */
export const PHONE_BATCH = 1_000;

/** `items` in consecutive slices of at most `size`. */
export function* chunksOf<T>(items: readonly T[], size = PHONE_BATCH): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
