import { access } from "node:fs/promises";

/** Whether something is at `path` (a missing folder on the way counts as nothing). */
export const fileExists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );
