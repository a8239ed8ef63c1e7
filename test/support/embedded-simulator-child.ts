/**
 * One process taking the embedded simulator of a home: `embedded-simulator-child.ts HOME`.
 * Prints "started <url>" or "joined <url>", then holds it until stdin closes.
 */
import { embeddedSimulator } from "../../src/daemon/embedded-simulator.ts";

const [home] = process.argv.slice(2);
const sim = await embeddedSimulator(home!, { apiKey: "race-key", stateFile: `${home}/simulator.json` });
console.log(`${sim.joinedPid === undefined ? "started" : "joined"} ${sim.url}`);
process.stdin.resume();
process.stdin.on("end", () => void sim.close().then(() => process.exit(0)));
