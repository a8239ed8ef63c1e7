/**
 * One process taking the embedded simulator of a home: `embedded-simulator-child.ts HOME [keys]`
 * (`keys`: one that honours idempotency keys).
 * Prints "started <url>" or "joined <url>", then holds it until stdin closes.
 */
import { embeddedSimulator } from "../../src/daemon/embedded-simulator.ts";

const [home, keys] = process.argv.slice(2);
const sim = await embeddedSimulator(home!, {
  apiKey: "race-key",
  stateFile: `${home}/simulator.json`,
  idempotencyKeys: keys === "keys",
});
console.log(`${sim.joinedPid === undefined ? "started" : "joined"} ${sim.url}`);
process.stdin.resume();
process.stdin.on("end", () => void sim.close().then(() => process.exit(0)));
