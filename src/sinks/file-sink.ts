/** The file sink's old path, still read by cli/commands/report.ts (changed elsewhere now): the sink is in file/. */
export { writeResultsCsv } from "./file/file-sink.ts";
