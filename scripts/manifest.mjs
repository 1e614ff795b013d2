// `oclif manifest` for `npm run build`, run here in-process: the CLI's command table holds
// stand-ins that load each command when it runs (src/cli/shell/lazy-commands.ts), and the manifest
// is written from the real classes, which loadAllCommands puts in the table first. Then the help
// texts bin/run.js prints without starting oclif (scripts/help-texts.mjs).
//
// Without oclif's own "update available" notice: the build pins oclif 4 (5+ needs Node 22), so
// the notice only tells a contributor about a version this project cannot take.
// OCLIF_SKIP_NEW_VERSION_CHECK is the switch oclif's plugin-warn-if-update-available reads.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

process.env.OCLIF_SKIP_NEW_VERSION_CHECK = "true";
const require = createRequire(import.meta.url);
// The build here (where the script runs), as package.json's oclif.commands names it.
const cli = path.resolve("dist", "cli", "index.cjs");
await require(cli).loadAllCommands();
const oclifRoot = path.dirname(require.resolve("oclif/package.json"));
const { run } = createRequire(path.join(oclifRoot, "package.json"))("@oclif/core");
await run(["manifest"], oclifRoot);
// Without the indentation oclif writes (a quarter of its size): every command but --version and
// help into a pipe reads and parses this file as it starts.
const manifest = path.resolve("oclif.manifest.json");
const written = JSON.parse(readFileSync(manifest, "utf8"));
writeFileSync(manifest, JSON.stringify(written));
// What the start without oclif's load needs of each command (src/cli/shell/known-command.ts):
// its aliases, and whether words may follow its id (oclif's test when it reads the id from argv).
const known = Object.fromEntries(
  Object.values(written.commands).map((c) => [
    c.id,
    { aliases: [...(c.aliases ?? []), ...(c.hiddenAliases ?? [])], words: c.strict === false || Object.keys(c.args ?? {}).length > 0 },
  ]),
);
writeFileSync(path.resolve("dist", "cli", "commands.json"), JSON.stringify(known));

// The help texts, made by a process of their own: stdout a pipe, and none of the settings that
// change how oclif writes help (scripts/help-texts.mjs).
const home = mkdtempSync(path.join(os.tmpdir(), "reduck-help-texts-"));
try {
  const texts = execFileSync(process.execPath, [fileURLToPath(new URL("./help-texts.mjs", import.meta.url)), cli], {
    env: { PATH: process.env.PATH ?? "", HOME: home, REDUCK_CONFIG_DIR: path.join(home, "config") },
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 2 ** 20,
  });
  writeFileSync(path.join(path.dirname(cli), "help.json"), texts);
} finally {
  rmSync(home, { recursive: true, force: true });
}
