/**
 * The scripts-as-code tests' world: a CLI sandbox holding the demo user's two scripts, the CLI
 * against it, and what the sandbox and a tree's lock hold, read by a script's address. Registers
 * the sandbox's hooks for the calling test file (useCliSandbox), so call it at the file's top.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { runCli } from "../../support/cli.js";
import { temporaryFolder } from "../../support/files.js";
import { useCliSandbox } from "../../support/sandbox.js";

/** The demo user's two scripts, as a lock names them. */
export const TITLE = "@demo/example.com/get_title";
export const STORIES = "@demo/news.ycombinator.com/top_stories";

export function useScriptsSandbox(home: string) {
  const sandbox = useCliSandbox({ home });
  const scriptOf = (key: string) => {
    const [handle, host, slug] = key.split("/") as [string, string, string];
    return sandbox.store.findScriptByAddress(handle, host, slug)!;
  };
  /** `reduck ...args` as the demo user, against the sandbox. */
  const reduck = (...args: string[]) => runCli(args, { env: sandbox.env });
  return {
    sandbox,
    reduck,
    /** A new tree in the sandbox's home, pulled (`scripts pull ...more`): its folder. */
    pulled: async (...more: string[]): Promise<string> => {
      const dir = temporaryFolder("tree-", { inside: sandbox.home });
      const pull = await reduck("scripts", "pull", ...more, "--dir", dir);
      expect(pull.code, pull.stderr).toBe(0);
      return dir;
    },
    scriptOf,
    versionsOf: (key: string) => sandbox.store.versionsOf(scriptOf(key).id),
    /** The scripts a tree's reduck.lock.json records, by address. */
    lockOf: (dir: string) => JSON.parse(readFileSync(path.join(dir, "reduck.lock.json"), "utf8")).scripts,
  };
}
