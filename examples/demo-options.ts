/**
 * What `npm run demo` takes and what it checks before it starts: `--port N` (the sandbox's port,
 * default a free one), the environment it runs its steps in, and whether the build it runs (dist/ and the CLI's manifest) is older than
 * the sources it is built from, so that it builds only then.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

export const DEMO_USAGE = "usage: npm run demo [-- --port N]   (N: the sandbox's port on 127.0.0.1, 1-65535; default a free one)";

/**
 * The demo's options from its arguments; throws an Error whose message is the usage line and what was wrong.
 *
 * @example
 * demoOptions(["--port", "4010"]); // { port: 4010 }
 */
export function demoOptions(argv: string[]): { port?: number } {
  let values: { port?: string };
  try {
    ({ values } = parseArgs({ args: argv, options: { port: { type: "string" } }, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${DEMO_USAGE}`);
  }
  if (values.port === undefined) return {};
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port < 1 || port > 65535) throw new Error(`--port ${values.port}: not a port number\n${DEMO_USAGE}`);
  return { port };
}

/** What the build is made from (npm run build: tsup over src/ with the plugins of build/, then the manifest). */
const INPUTS = ["src", "build", "package.json", "tsup.config.ts", "tsconfig.json", path.join("scripts", "manifest.mjs")];
/** What it makes, that the demo runs. */
const OUTPUTS = [path.join("dist", "index.js"), path.join("dist", "cli", "index.cjs"), "oclif.manifest.json"];

function newestIn(file: string): number {
  const info = statSync(file);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(file).map((name) => newestIn(path.join(file, name))));
}

/**
 * Why the build in `root` must be made again (an output missing, or a source changed after it),
 * or undefined when it is current.
 *
 * @example
 * staleBuild(root); // "src/cli/commands/run.ts changed after the build" | "there is no dist/cli/index.cjs" | undefined
 */
export function staleBuild(root: string): string | undefined {
  const missing = OUTPUTS.find((file) => !existsSync(path.join(root, file)));
  if (missing) return `there is no ${missing}`;
  const built = Math.min(...OUTPUTS.map((file) => statSync(path.join(root, file)).mtimeMs));
  const changed = INPUTS.filter((file) => existsSync(path.join(root, file))).find((file) => newestIn(path.join(root, file)) > built);
  return changed ? `${changed} changed after the build` : undefined;
}

/**
 * The shell's environment less every `REDUCK_` variable it holds: a run host, a key, a desktop or a
 * config folder the user exported (or a sandbox started earlier in the same shell left there)
 * would send the demo's steps somewhere other than the demo's own sandbox. Kept:
 * `REDUCK_SANDBOX_CHROMIUM`, the Chromium the user wants the sandbox to start.
 *
 * @example
 * demoShellEnv({ PATH: "/usr/bin", REDUCK_MCP_URL: "https://mine.example" }); // { PATH: "/usr/bin" }
 */
export function demoShellEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (/^REDUCK_/i.test(name) && name !== "REDUCK_SANDBOX_CHROMIUM") continue;
    kept[name] = value;
  }
  return kept;
}
