import { homedir } from "node:os";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { formatBucketAddress, isBucketAddress, parseBucketAddress } from "./bucket/bucket-address.ts";

/** Folders of the system: an inbox is never one of them nor inside one. */
const SYSTEM_TREES = [
  "/etc",
  "/bin",
  "/sbin",
  "/usr",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/boot",
  "/dev",
  "/proc",
  "/sys",
  "/run",
];
/** Shared folders: an inbox may live inside them, never be one of them. */
const SHARED_FOLDERS = [
  "/",
  "/var",
  "/var/lib",
  "/var/log",
  "/var/tmp",
  "/opt",
  "/srv",
  "/mnt",
  "/media",
  "/home",
  "/root",
  "/tmp",
];

const inside = (child: string, parent: string) => {
  const r = relative(parent, child);
  return r === "" || (!r.startsWith("..") && !isAbsolute(r));
};

/**
 * Why `inbox` can't be a drop folder, or undefined when it can. The daemon moves every file it
 * admits out of its inbox, so an inbox must be a folder of its own: never `/`, a system folder, a
 * shared top folder, the home folder, the working directory or one of its parents.
 */
export function inboxProblem(
  inbox: string,
  at: { cwd: string; home?: string; others?: readonly string[] } = { cwd: process.cwd() },
): string | undefined {
  if (isBucketAddress(inbox)) return bucketProblem(inbox, at.others?.filter(isBucketAddress) ?? []);
  const path = resolve(at.cwd, inbox);
  const home = resolve(at.home ?? homedir());
  const system = SYSTEM_TREES.find((tree) => inside(path, tree));
  if (system)
    return `${path} is a system folder (${system}): give the job a folder of its own, such as inbox/<job>`;
  if (SHARED_FOLDERS.includes(path))
    return `${path} is a shared folder: give the job a folder of its own inside it`;
  if (path === home)
    return `${path} is the home folder: give the job a folder of its own, such as ${home}${sep}inbox`;
  if (inside(resolve(at.cwd), path))
    return `${path} is the working directory or one of its parents: give the job a folder of its own, such as inbox/<job>`;
  const shared = at.others
    ?.filter((other) => !isBucketAddress(other))
    .find((other) => inside(path, resolve(at.cwd, other)) || inside(resolve(at.cwd, other), path));
  if (shared)
    return `${path} overlaps the inbox of another job (${shared}): each job needs a folder of its own`;
  return undefined;
}

/**
 * Why a bucket prefix can't be a job's inbox: not an s3:// address, or one overlapping another
 * job's (one inside the other: each would take the other's files, or its done/ objects).
 */
function bucketProblem(inbox: string, others: readonly string[]): string | undefined {
  const a = parseBucketAddress(inbox);
  if ("problem" in a) return `${inbox}: ${a.problem}`;
  const shared = others.find((other) => {
    const b = parseBucketAddress(other);
    return (
      !("problem" in b) &&
      b.bucket === a.bucket &&
      (b.prefix.startsWith(a.prefix) || a.prefix.startsWith(b.prefix))
    );
  });
  if (shared)
    return `${formatBucketAddress(a)} overlaps the inbox of another job (${shared}): each job needs a prefix of its own`;
  return undefined;
}
