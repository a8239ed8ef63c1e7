export { VcwError } from "../../lib/vcw-error.ts";
