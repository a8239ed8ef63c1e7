import { main } from "./main.ts";

// `vcw ... | head`: stop quietly when the reader of our output goes away.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

await main(process.argv);
