/**
 * Every text that tells a user how to start the agent tool names this package, so npx can
 * resolve no other: `npx reduck` is an unrelated package on the registry, installed without a
 * prompt when an MCP client starts it. (test/package/ checks that the command resolves to our bin.)
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { runCli } from "../support/cli.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** `npx reduck mcp`, `npx -y reduck mcp`, `"args": ["reduck", "mcp"]`: starting anything but reduck-client. */
const FOREIGN = [/npx(\s+-\S+)*\s+reduck\s+mcp/, /"args":\s*\[\s*("-y",\s*)?"reduck"/];

test("reduck mcp --help names reduck-client, as a command and as JSON configuration", async () => {
  const { code, stdout: help } = await runCli(["mcp", "--help"]);
  expect(code).toBe(0);
  // Help is wrapped to the terminal's width.
  const stdout = help.replace(/\s+/g, " ");
  expect(stdout).toContain("claude mcp add reduck -- npx -y reduck-client mcp");
  expect(stdout).toContain('"command": "npx", "args": ["-y", "reduck-client", "mcp"]');
  for (const foreign of FOREIGN) expect(stdout).not.toMatch(foreign);
});

test("README's agent tool section names reduck-client", async () => {
  const readme = await readFile(path.join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## The agent tool"), readme.indexOf("\n## ", readme.indexOf("## The agent tool") + 1));
  expect(section).toContain("claude mcp add reduck -e REDUCK_API_KEY=rk_... -- npx -y reduck-client mcp");
  expect(section).toMatch(/"args": \["-y", "reduck-client", "mcp"\]/);
});

test("no README, example or source text starts another package", async () => {
  const files = ["README.md", ...(await listFiles("examples")), ...(await listFiles("src"))];
  for (const file of files) {
    const text = await readFile(path.join(ROOT, file), "utf8");
    for (const foreign of FOREIGN) expect(text, file).not.toMatch(foreign);
  }
});

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(ROOT, dir), { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}
