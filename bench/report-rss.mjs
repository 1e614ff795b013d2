// Preloaded with `node --import` into a measured process: reports its peak resident memory.
import { writeFileSync } from "node:fs";

const out = process.env.REDUCK_BENCH_RSS_FILE;
if (out) {
  process.on("exit", () => writeFileSync(out, String(process.resourceUsage().maxRSS * 1024)));
}
