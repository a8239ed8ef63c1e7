import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A data file a module reads from a dev dependency: the build copies the few files it uses beside
 * the compiled module (`scripts/copy-assets.mjs`), so a consumer installs those and not the whole
 * package; a checkout reads them from the dev dependency itself. `copied` is relative to the module
 * (`import.meta.url`); `inPackage` is a path in the dependency ("pkg/dir/file"), found the way Node
 * finds packages (its `exports` may hide data files from `require.resolve`).
 */
export function packageAsset(moduleUrl: string, copied: string, inPackage: string): string {
  const built = fileURLToPath(new URL(copied, moduleUrl));
  if (existsSync(built)) return built;
  const parts = inPackage.split("/");
  const name = parts[0]!.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
  const roots = createRequire(moduleUrl).resolve.paths(name) ?? [];
  const root = roots.find((dir) => existsSync(join(dir, name, "package.json")));
  if (!root)
    throw new Error(`${inPackage}: neither ${built} (the build's copy) nor the package ${name} is here`);
  return join(root, inPackage);
}
