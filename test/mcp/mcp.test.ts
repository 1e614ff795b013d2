/**
 * The agent tool end to end: an MCP client from the SDK spawns the built `reduck mcp` over
 * stdio, which talks to the reference server over real HTTP with a simulated desktop.
 */
import { symlink, writeFile, mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHandlers, createStore, startHttpServer, type ReferenceStore } from "../server/index.js";
import { makeDesktop, patterned, sha256 } from "../support/files.js";

const bin = fileURLToPath(new URL("../../bin/run.js", import.meta.url));
const banner = patterned(10_000);
let store: ReferenceStore;
let server: Awaited<ReturnType<typeof startHttpServer>>;
let client: Client;
let desktop: string;

beforeAll(async () => {
  desktop = await makeDesktop({ "banner.png": banner, "2026/invoice.pdf": "%PDF invoice" });
  const outside = await mkdtemp(path.join(os.tmpdir(), "reduck-outside-"));
  await writeFile(path.join(outside, "secret.txt"), "not for agents");
  await symlink(path.join(outside, "secret.txt"), path.join(desktop, "reduck", "innocent.txt"));
  store = createStore({ desktopDir: desktop });
  server = await startHttpServer({ handlers: createHandlers(store) });
  client = new Client({ name: "reduck-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, "mcp"],
      env: { PATH: process.env.PATH ?? "", HOME: os.homedir(), REDUCK_API_URL: server.url, REDUCK_API_KEY: store.demo.apiKey, REDUCK_DESKTOP: desktop },
    }),
  );
}, 30_000);

afterAll(async () => {
  await client?.close();
  await server?.close();
});

const call = async (name: string, args: Record<string, unknown>) => {
  const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ text: string }>; isError?: boolean };
  const text = result.content[0]!.text;
  return { isError: Boolean(result.isError), text, json: () => JSON.parse(text) };
};
const sendEmail = (files: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  script: { handle: "reduck", host: "mail.google.com", slug: "send_email", args: { to: "me@example.com", subject: "Banner" }, files },
  ...extra,
});

test("the tools are listed with input schemas", async () => {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(["list_runs", "list_scripts", "read_script", "run_script", "whoami"]);
  const run = tools.find((t) => t.name === "run_script")!;
  expect(JSON.stringify(run.inputSchema)).toContain("relativePath");
});

test("read_script shows which inputs are files", async () => {
  const r = await call("read_script", { handle: "reduck", host: "mail.google.com", slug: "send_email" });
  expect(r.isError).toBe(false);
  expect(r.json().fileInputs).toEqual([{ name: "attachment", required: false }]);
});

describe("run_script with named files", () => {
  test("a named file keeps its own name", async () => {
    const r = await call("run_script", sendEmail({ attachment: { relativePath: "banner.png" } }));
    expect(r.isError).toBe(false);
    expect(r.json()).toMatchObject({ status: "completed", result: { attachment: "banner.png", sent: true } });
    expect(store.runs.get(r.json().runId)).toMatchObject({ source: "mcp", files: [expect.objectContaining({ via: "named", sha256: sha256(banner) })] });
  });

  test("a sub-folder works", async () => {
    const r = await call("run_script", sendEmail({ attachment: { relativePath: "2026/invoice.pdf" } }));
    expect(r.json().result.attachment).toBe("invoice.pdf");
  });

  test.each([
    ["an absolute path", "/etc/passwd"],
    ["a parent segment", "../secrets.txt"],
    ["a backslash trick", "..\\secrets.txt"],
    ["a Windows path", "C:\\Users\\me\\secrets.txt"],
    ["a symbolic link out of the folder", "innocent.txt"],
  ])("%s is refused before any request", async (_what, name) => {
    const before = store.runs.size;
    const r = await call("run_script", sendEmail({ attachment: { relativePath: name } }));
    expect(r.isError).toBe(true);
    expect(r.text).toContain("must be a plain name inside the reduck folder");
    expect(store.runs.size).toBe(before);
  });

  test("a missing file is reported by the browser", async () => {
    const r = await call("run_script", sendEmail({ attachment: { relativePath: "nope.png" } }));
    expect(r.isError).toBe(true);
    expect(r.text).toContain("bound 0 bytes — the browser could not read");
  });

  test("on a managed browser the file is read here and sent as bytes, named after its input", async () => {
    const r = await call("run_script", sendEmail({ attachment: { relativePath: "banner.png" } }, { browser: "managed" }));
    expect(r.isError).toBe(false);
    expect(r.json().result.attachment).toBe("attachment");
    expect(store.runs.get(r.json().runId)!.files[0]).toMatchObject({ via: "bytes", size: banner.length, sha256: sha256(banner) });
  });

  test("several steps come back in order", async () => {
    const r = await call("run_script", {
      scripts: [
        { handle: "reduck", host: "mail.google.com", slug: "send_email", args: { to: "a@b.c", subject: "one" } },
        { handle: "reduck", host: "mail.google.com", slug: "send_email", args: { to: "a@b.c", subject: "two" }, files: { attachment: { relativePath: "banner.png" } } },
      ],
    });
    const body = r.json();
    expect(body).toMatchObject({ status: "completed", totalSteps: 2 });
    expect(body.runs.map((s: any) => s.result.subject)).toEqual(["one", "two"]);
  });
});

test("list_scripts, list_runs and whoami answer", async () => {
  expect((await call("list_scripts", { handle: "reduck", host: "docusign.com" })).json().scripts[0].address).toBe("reduck/docusign.com/upload_document");
  expect((await call("list_runs", { pageSize: 2 })).json().runs).toHaveLength(2);
  expect((await call("whoami", {})).json()).toMatchObject({ handle: "@demo", filesFolder: path.join(desktop, "reduck") });
});
