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
import { runScript } from "../../src/index.js";
import { ALL_TOOLS, emptyHome } from "./support.js";
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
  expect(tools.map((t: { name: string }) => t.name).sort()).toEqual([...ALL_TOOLS].sort());
  for (const tool of tools)
    expect(Object.keys(tool.annotations ?? {}), tool.name).toEqual(expect.arrayContaining(["readOnlyHint", "destructiveHint", "idempotentHint"]));
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

test("list_script_versions by address: each version's id and number, the current one marked", async () => {
  const result = await inspector(await signedIn(), [
    "--method",
    "tools/call",
    "--tool-name",
    "list_script_versions",
    "--tool-arg",
    "address=example.com/get_title",
  ]);
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toMatchObject({
    address: "@demo/example.com/get_title",
    versions: [
      { version: 2, current: true },
      { version: 1, current: false },
    ],
  });
});

test("read_run_trace: the steps as text and the screenshot as a PNG image", async () => {
  const { data, error } = await runScript({
    client: sandbox.client,
    browser: "extension",
    script: { handle: "@demo", host: "example.com", slug: "get_title", args: { url: "https://example.com/" } },
  });
  expect(error).toBeUndefined();
  const result = await inspector(await signedIn(), ["--method", "tools/call", "--tool-name", "read_run_trace", "--tool-arg", `runId=${data!.runId}`]);
  expect(result.isError).toBeFalsy();
  expect(result.content[0].text).toMatch(/^Run [0-9a-f-]{36} of @demo\/example\.com\/get_title \(completed\)/);
  const image = result.content.find((c: { type: string }) => c.type === "image");
  expect(image.mimeType).toBe("image/png");
  expect(Buffer.from(image.data, "base64").subarray(0, 8)).toEqual(Buffer.from("89504e470d0a1a0a", "hex"));
});
