/**
 * Every command, by id, and how to load it: one line each. A command's code is loaded only when
 * that command runs (src/cli/shell/lazy-commands.ts); its flags and help come from
 * oclif.manifest.json, written at build time from the loaded classes (scripts/manifest.mjs). In
 * the CLI's bundle, what an `import()` reaches runs on first use: a command's modules run only when
 * it runs.
 */
import { PLUGIN_COMMANDS } from "./shell/plugins.js";

export const COMMANDS = {
  run: () => import("./commands/run.js"),
  batch: () => import("./commands/batch.js"),
  "batch:report": () => import("./commands/batch/report.js"),
  whoami: () => import("./commands/whoami.js"),
  login: () => import("./commands/login.js"),
  logout: () => import("./commands/logout.js"),
  mcp: () => import("./commands/mcp.js"),
  "scripts:list": () => import("./commands/scripts/list.js"),
  "scripts:get": () => import("./commands/scripts/get.js"),
  "scripts:create": () => import("./commands/scripts/create.js"),
  "scripts:update": () => import("./commands/scripts/update.js"),
  "scripts:publish": () => import("./commands/scripts/publish.js"),
  "scripts:unpublish": () => import("./commands/scripts/unpublish.js"),
  "scripts:archive": () => import("./commands/scripts/archive.js"),
  "scripts:restore": () => import("./commands/scripts/restore.js"),
  "scripts:targets": () => import("./commands/scripts/targets.js"),
  "scripts:transfer": () => import("./commands/scripts/transfer.js"),
  "scripts:types": () => import("./commands/scripts/types.js"),
  "scripts:pull": () => import("./commands/scripts/pull.js"),
  "scripts:status": () => import("./commands/scripts/status.js"),
  "scripts:push": () => import("./commands/scripts/push.js"),
  "scripts:diff": () => import("./commands/scripts/diff.js"),
  "scripts:test": () => import("./commands/scripts/test.js"),
  "scripts:versions:list": () => import("./commands/scripts/versions/list.js"),
  "scripts:versions:get": () => import("./commands/scripts/versions/get.js"),
  "scripts:versions:create": () => import("./commands/scripts/versions/create.js"),
  "scripts:versions:update": () => import("./commands/scripts/versions/update.js"),
  "scripts:versions:delete": () => import("./commands/scripts/versions/delete.js"),
  "scripts:versions:promote": () => import("./commands/scripts/versions/promote.js"),
  "runs:list": () => import("./commands/runs/list.js"),
  "runs:get": () => import("./commands/runs/get.js"),
  "runs:delete": () => import("./commands/runs/delete.js"),
  "runs:trace": () => import("./commands/runs/trace.js"),
  "runs:wait": () => import("./commands/runs/wait.js"),
  "devices:list": () => import("./commands/devices/list.js"),
  "flock:deploy": () => import("./commands/flock/deploy.js"),
  "flock:install": () => import("./commands/flock/install.js"),
  "flock:releases": () => import("./commands/flock/releases.js"),
  "flock:rollback": () => import("./commands/flock/rollback.js"),
  "flock:secrets:set": () => import("./commands/flock/secrets/set.js"),
  "flock:list": () => import("./commands/flock/list.js"),
  "flock:open": () => import("./commands/flock/open.js"),
  ...PLUGIN_COMMANDS,
};
