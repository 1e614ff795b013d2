/**
 * Running npm, npx and installed programs from the package tests: through this very node (so
 * the Node version under test is the one used), with npm's own script variables removed (an
 * outer `npm test` exports some, such as npm_config_call, that would change what an inner npm
 * does).
 */
import { execFileSync, spawn, type SpawnOptions } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { cp, lstat, mkdir, readdir, stat, symlink } from "node:fs/promises";
import path from "node:path";

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end; rejects with what it printed when it exits non-zero. */
export function run(command: string, args: string[], options: SpawnOptions & { input?: string } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (c) => (stdout += c));
    child.stderr!.on("data", (c) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve({ code, stdout, stderr });
      else reject(new Error(`${[command, ...args].join(" ")} exited ${code}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
    });
    child.stdin!.end(options.input ?? "");
  });
}

/** The environment for npm: ours, less what an outer npm script exported for its own run. */
export function npmEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const keep = new Set(["npm_config_cache", "npm_config_registry", "npm_config_userconfig", "npm_config_globalconfig", "npm_config_cafile"]);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_") || keep.has(k.toLowerCase())));
  return { ...env, PATH: pathWithThisNode(), ...extra };
}

/** PATH with this node's folder first, so `#!/usr/bin/env node` scripts run on the Node under test. */
export function pathWithThisNode(): string {
  return [path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter);
}

/** npm's and npx's CLI scripts, run through this node (no .cmd shims on Windows). */
function npmCli(name: "npm-cli.js" | "npx-cli.js"): string {
  const execpath = process.env.npm_execpath;
  if (execpath && /np[mx]-cli\.js$/.test(execpath)) return path.join(path.dirname(execpath), name);
  // Not started by npm: the npm installed with this node, else the first npm on PATH (found here,
  // not by a `which` that may not be installed).
  const home = path.dirname(realpathSync(process.execPath));
  // <prefix>/bin/node beside <prefix>/lib/node_modules/npm; on Windows, node.exe beside node_modules\npm.
  const beside = [path.join(home, "..", "lib", "node_modules", "npm", "bin", name), path.join(home, "node_modules", "npm", "bin", name)].find((file) =>
    existsSync(file),
  );
  if (beside) return beside;
  const npm = (process.env.PATH ?? "")
    .split(path.delimiter)
    .map((dir) => path.join(dir, "npm"))
    .find((file) => existsSync(file));
  if (!npm) throw new Error("npm was not found beside this node or on PATH");
  return path.join(path.dirname(realpathSync(npm)), name);
}

export const npm = (args: string[], options: SpawnOptions = {}) => run(process.execPath, [npmCli("npm-cli.js"), ...args], { env: npmEnv(), ...options });
export const npx = (args: string[], options: SpawnOptions = {}) => run(process.execPath, [npmCli("npx-cli.js"), ...args], { env: npmEnv(), ...options });
export const npxCommand = () => [process.execPath, npmCli("npx-cli.js")] as const;

/**
 * A copy of the repository as a fresh clone would have it: the files git tracks (as they are in
 * the work tree now), nothing ignored (no dist/, no manifest), and the installed node_modules
 * linked in so the build can run.
 */
export async function copyTrackedFiles(root: string, into: string): Promise<void> {
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).split("\0").filter(Boolean);
  for (const file of tracked) {
    const from = path.join(root, file);
    const exists = await stat(from).then(
      () => true,
      () => false,
    ); // deleted but not yet committed
    if (!exists) continue;
    await mkdir(path.dirname(path.join(into, file)), { recursive: true });
    await cp(from, path.join(into, file), { preserveTimestamps: true });
  }
  await symlink(path.join(root, "node_modules"), path.join(into, "node_modules"), "junction");
}

/** The packages in a node_modules tree (scoped and nested ones included). */
export async function installedPackages(nodeModules: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
      const full = path.join(dir, entry.name);
      if (entry.name.startsWith("@")) {
        await visit(full);
        continue;
      }
      found.push(path.relative(nodeModules, full));
      await visit(path.join(full, "node_modules"));
    }
  };
  await visit(nodeModules);
  return found;
}

/** Bytes a folder takes on disk (allocated blocks, as `du` counts), and its files' own sizes. */
export async function diskUsage(dir: string): Promise<{ disk: number; apparent: number }> {
  let disk = 0;
  let apparent = 0;
  const visit = async (d: string): Promise<void> => {
    for (const entry of await readdir(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      const info = await lstat(full); // a .bin link counts as itself, not as its target
      disk += info.blocks * 512;
      if (entry.isDirectory()) await visit(full);
      else apparent += info.size;
    }
  };
  await visit(dir);
  return { disk, apparent };
}
