/**
 * A full name ("name", "Full Name", a batch-calling list's lone `name` column) split in two. Pure.
 * "Lima, Ana" (family name first, as lists sorted by it write) is last, first. Otherwise the first
 * word is the first name and the rest the last name: "Ana Maria Lima" -> Ana / Maria Lima, and
 * family names of several words stay whole ("Ludwig van Beethoven" -> Ludwig / van Beethoven,
 * "Gabriel García Márquez" -> Gabriel / García Márquez). A single word is a first name ("Cher").
 */
export function splitFullName(full: string): { first_name?: string; last_name?: string } {
  const name = full.trim();
  const comma = name.indexOf(",");
  if (comma > 0 && comma === name.lastIndexOf(",")) {
    const last = name.slice(0, comma).trim();
    const first = name.slice(comma + 1).trim();
    // "Lima, Ana"; not "Ana Lima, MD" (a suffix after the comma: a single short word with a dot or in capitals).
    if (first && last && !/^(?:[A-Z]{2,4}|[A-Za-z]{1,4}\.)$/.test(first))
      return { first_name: first, last_name: last };
  }
  const space = name.search(/\s/);
  if (space < 0) return name ? { first_name: name } : {};
  return { first_name: name.slice(0, space), last_name: name.slice(space).trim() };
}
