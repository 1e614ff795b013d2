// Preloaded with `node --require` into a measured process: reports its peak resident memory at
// exit. CommonJS, so that measuring starts nothing the measured command does not (a module
// preloaded with --import starts Node's ES module loader, 4-6 MiB more at peak).
const { writeFileSync } = require("node:fs");

const out = process.env.REDUCK_BENCH_RSS_FILE;
if (out) {
  process.on("exit", () => writeFileSync(out, String(process.resourceUsage().maxRSS * 1024)));
}
