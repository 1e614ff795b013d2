// `oclif manifest` for `npm run build`, without oclif's own "update available" notice: the build
// pins oclif 4 (5+ needs Node 22), so the notice only tells a contributor about a version this
// project cannot take. OCLIF_SKIP_NEW_VERSION_CHECK is the switch oclif's
// plugin-warn-if-update-available reads; set here rather than on the script's command line so it
// works in every shell npm may use (cmd.exe has no `NAME=value command`).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const oclif = createRequire(import.meta.url).resolve("oclif/bin/run.js");
const { status, error } = spawnSync(process.execPath, [oclif, "manifest"], {
  stdio: "inherit",
  env: { ...process.env, OCLIF_SKIP_NEW_VERSION_CHECK: "true" },
});
if (error) throw error;
process.exit(status ?? 1);
