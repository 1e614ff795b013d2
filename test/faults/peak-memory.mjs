// Loaded with `node --import` into a spawned CLI: writes its peak resident memory (bytes) to the
// file REDUCK_TEST_PEAK_FILE names when it exits.
import { writeFileSync } from "node:fs";

const out = process.env.REDUCK_TEST_PEAK_FILE;
if (out) process.on("exit", () => writeFileSync(out, String(process.resourceUsage().maxRSS * 1024)));
