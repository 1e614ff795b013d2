/**
 * `reduck mcp` under a client none of us wrote: the MCP Inspector's CLI mode, configured the
 * way README shows ("mcpServers" JSON with the key in "env"), against the sandbox.
 */
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { expect, test } from "vitest";
import { BIN, baseEnv } from "../support/cli.js";
import { emptyHome } from "./support.js";
import { useCliSandbox } from "../support/sandbox.js";
import { temporaryFolder } from "../support/files.js";

const INSPECTOR = createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector-cli/build/cli.js");
const sandbox = useCliSandbox({ desktop: {}, home: "reduck-inspector-" });

/** An MCP client configuration as README shows it, with this checkout's CLI as the command. */
async function config(env: Record<string, string>): Promise<string> {
  const dir = temporaryFolder("reduck-inspector-");
  const file = path.join(dir, "mcp.json");
  await writeFile(file, JSON.stringify({ mcpServers: { reduck: { command: process.execPath, args: [BIN, "mcp"], env } } }));
  return file;
}

/** `mcp-inspector --cli --config FILE --server reduck ARGS...`, and the JSON it printed. */
async function inspector(configFile: string, args: string[]): Promise<any> {
  const env = { ...baseEnv(), ...(await emptyHome()) };
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [INSPECTOR, "--cli", "--config", configFile, "--server", "reduck", ...args], { env }, (err, out, errOut) =>
      err ? reject(new Error(`inspector failed: ${err.message}\n${errOut}`)) : resolve(out),
    ),
  );
  return JSON.parse(stdout);
}

const signedIn = () => config({ REDUCK_API_URL: sandbox.server.url, REDUCK_API_KEY: sandbox.store.demo.apiKey, REDUCK_DESKTOP: sandbox.desktop });

test("lists the tools with their annotations and output schemas", async () => {
  const { tools } = await inspector(await signedIn(), ["--method", "tools/list"]);
  const run = tools.find((t: { name: string }) => t.name === "run_script");
  expect(run.annotations).toMatchObject({ destructiveHint: true });
  expect(run.outputSchema).toMatchObject({ type: "object" });
  expect(tools.find((t: { name: string }) => t.name === "read_script").annotations).toMatchObject({ readOnlyHint: true });
});

test("a misspelt argument is refused by name and nothing runs", async () => {
  const before = sandbox.store.runs.size;
  const script = JSON.stringify({ address: "reduck/mail.google.com/send_email", args: { to: "me@example.com", subject: "typo" } });
  const result = await inspector(await signedIn(), [
    "--method",
    "tools/call",
    "--tool-name",
    "run_script",
    "--tool-arg",
    `script=${script}`,
    "--tool-arg",
    "browsr=managed",
  ]);
  expect(result.isError).toBe(true);
  expect(result.content[0].text).toContain('unknown argument "browsr" (did you mean "browser"?');
  expect(sandbox.store.runs.size).toBe(before);
});

test("read_script by address answers structured content without internal keys", async () => {
  const result = await inspector(await signedIn(), [
    "--method",
    "tools/call",
    "--tool-name",
    "read_script",
    "--tool-arg",
    "address=reduck/mail.google.com/send_email",
  ]);
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toMatchObject({ address: "reduck/mail.google.com/send_email", fileInputs: [{ name: "attachment" }] });
  expect(JSON.stringify(result)).not.toContain('"x-');
});

test("without a key in its env, it still connects and the tool says how to set one", async () => {
  const result = await inspector(await config({ REDUCK_API_URL: sandbox.server.url }), ["--method", "tools/call", "--tool-name", "whoami"]);
  expect(result.isError).toBe(true);
  expect(result.content[0].text).toContain('"env": { "REDUCK_API_KEY": "rk_..." }');
});
