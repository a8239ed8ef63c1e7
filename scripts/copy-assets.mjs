// Copies what the compiled build needs beside its JavaScript: the dashboard's page, script and style
// (src/http/dashboard/, served as they are: no build toolchain).
import { cpSync } from "node:fs";

cpSync("src/http/dashboard", "dist/src/http/dashboard", { recursive: true });
