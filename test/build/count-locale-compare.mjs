// Loaded with `node --import`: counts the calls of String.prototype.localeCompare and, at exit,
// writes the count to the file named by REDUCK_TEST_CALLS_FILE.
import { writeFileSync } from "node:fs";

const localeCompare = String.prototype.localeCompare;
let calls = 0;
String.prototype.localeCompare = function (...args) {
  calls++;
  return localeCompare.apply(this, args);
};
process.on("exit", () => writeFileSync(process.env.REDUCK_TEST_CALLS_FILE, String(calls)));
