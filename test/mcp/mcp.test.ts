/**
 * The agent tool end to end: an MCP client from the SDK spawns the built `reduck mcp` over
 * stdio, which talks to the sandbox over real HTTP with a simulated desktop.
 */
import { symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { makeDesktop, patterned, sha256, temporaryFolder } from "../support/files.js";
import { ALL_TOOLS, callTool, connectClient, mcpEnv, SEND_EMAIL, sendEmail, startSandbox, type Sandbox } from "./support.js";

const banner = patterned(10_000);
let sandbox: Sandbox;
let client: Client;
let desktop: string;
let stderr: () => string;

beforeAll(async () => {
  desktop = await makeDesktop({ "banner.png": banner, "2026/invoice.pdf": "%PDF invoice" });
  const outside = temporaryFolder("reduck-outside-");
  await writeFile(path.join(outside, "secret.txt"), "not for agents");
  await symlink(path.join(outside, "secret.txt"), path.join(desktop, "reduck", "innocent.txt"));
  sandbox = await startSandbox(desktop);
  ({ client, stderr } = await connectClient(await mcpEnv({ REDUCK_API_URL: sandbox.url, REDUCK_API_KEY: sandbox.store.demo.apiKey, REDUCK_DESKTOP: desktop })));
}, 30_000);

afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});

const call = (name: string, args: Record<string, unknown>) => callTool(client, name, args);
const runs = () => sandbox.store.runs.size;

describe("the tools as listed", () => {
  test("every tool the issue names is listed, under the hosted server's names, with an input schema that refuses unknown keys, an output schema and annotations", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...ALL_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.inputSchema, tool.name).toMatchObject({ type: "object", additionalProperties: false });
      expect(tool.outputSchema, tool.name).toMatchObject({ type: "object" });
      // Written out in full: not every MCP client resolves a "$ref".
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toContain("$ref");
      expect(JSON.stringify(tool.outputSchema), tool.name).not.toContain("$ref");
      const a = tool.annotations!;
      expect(a, tool.name).toMatchObject({ title: expect.any(String) });
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const)
        expect(typeof a[hint], `${tool.name} ${hint}`).toBe("boolean");
      // The description says what the tool changes, or that it changes nothing.
      expect(tool.description, tool.name).toMatch(a.readOnlyHint ? /Changes nothing/ : /(replac|add|delet|archiv|restor|make|act|chang|creat|writ)/i);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.annotations!]));
    expect(JSON.stringify(tools.find((t) => t.name === "run_script")!.inputSchema)).toContain("relativePath");
    const readOnly = tools.filter((t) => t.annotations!.readOnlyHint).map((t) => t.name);
    expect(readOnly.sort()).toEqual(
      [
        "list_devices",
        "list_runs",
        "list_script_versions",
        "list_scripts",
        "read_host_readme",
        "read_run_results",
        "read_run_trace",
        "read_script",
        "whoami",
      ].sort(),
    );
    for (const name of readOnly) expect(byName[name], name).toMatchObject({ destructiveHint: false, idempotentHint: true });
    for (const name of ["archive_script", "delete_draft_script_version", "delete_host_readme", "run_script"]) {
      expect(byName[name], name).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    }
    for (const name of ["create_script", "create_draft_script_version", "unarchive_script", "promote_script_version"]) {
      expect(byName[name], name).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    }
    for (const name of [
      "archive_script",
      "unarchive_script",
      "promote_script_version",
      "delete_host_readme",
      "set_host_readme",
      "patch_draft_script_version",
    ]) {
      expect(byName[name], name).toMatchObject({ idempotentHint: true });
    }
    for (const name of ["run_script", "create_script", "create_draft_script_version", "delete_draft_script_version"]) {
      expect(byName[name], name).toMatchObject({ idempotentHint: false });
    }
    // Only run_script reaches beyond the account: scripts act on real sites.
    expect(tools.filter((t) => t.annotations!.openWorldHint).map((t) => t.name)).toEqual(["run_script"]);
  });

  test("a tool that does not exist is a tool error naming the one likely meant, not a protocol error", async () => {
    const r = await call("read_run_trce", { runId: "x" });
    expect(r).toMatchObject({ isError: true });
    expect(r.text).toMatch(/^There is no tool named "read_run_trce": did you mean read_run_trace\? The tools: run_script, /);
  });

  test("nothing is written on stderr when no person is watching", () => {
    expect(stderr()).toBe("");
  });
});

describe("unknown arguments are refused, named, and nothing runs", () => {
  test.each([
    ["at the top level (a typo of browser)", { ...sendEmail({}), browsr: "managed" }, '"browsr" (did you mean "browser"?', ""],
    ["inside script", { script: { ...SEND_EMAIL, args: { to: "a@b.c", subject: "x" }, hots: "x" } }, '"hots" (did you mean "host"?', "at script"],
    [
      "inside one of scripts",
      {
        scripts: [
          { ...SEND_EMAIL, args: { to: "a@b.c", subject: "x" } },
          { ...SEND_EMAIL, arsg: {} },
        ],
      },
      '"arsg" (did you mean "args"?',
      "at scripts[1]",
    ],
    [
      "inside a named file",
      sendEmail({ attachment: { relativePath: "banner.png", mode: "bytes" } }),
      '"mode" (the arguments here are relativePath)',
      "at script.files.attachment",
    ],
    ["inside browser", { ...sendEmail({}), browser: { deviceId: "d", region: "eu" } }, '"region"', "at browser"],
  ])("run_script: %s", async (_where, args, named, where) => {
    const before = runs();
    const r = await call("run_script", args);
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`unknown argument ${named}`);
    expect(r.text).toContain(where);
    expect(runs()).toBe(before);
  });

  test.each([
    ["read_script", { ...SEND_EMAIL, slgu: "send_email" }, '"slgu" (did you mean "slug"?'],
    ["list_scripts", { hots: "mail.google.com" }, '"hots" (did you mean "host"?'],
    ["list_runs", { statuss: "failed" }, '"statuss" (did you mean "status"?'],
    ["whoami", { verbose: true }, '"verbose" (this takes no arguments)'],
  ])("%s", async (tool, args, named) => {
    const r = await call(tool, args);
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`unknown argument ${named}`);
  });
});

describe("scripts named by address", () => {
  test("list_scripts gives each script's address, and read_script and run_script take it", async () => {
    const listed = await call("list_scripts", { handle: "reduck", host: "mail.google.com", q: "send" });
    const address = listed.structured.scripts.map((s: { address: string }) => s.address).find((a: string) => a.endsWith("/send_email"));
    expect(address).toBe("reduck/mail.google.com/send_email");

    const read = await call("read_script", { address });
    expect(read.isError).toBe(false);
    expect(read.structured).toMatchObject({ address, name: "Send Gmail email", fileInputs: [{ name: "attachment", required: false }] });

    const run = await call("run_script", { script: { address, args: { to: "me@example.com", subject: "By address" } } });
    expect(run.structured).toMatchObject({ status: "completed", result: { subject: "By address" } });
    expect(sandbox.store.runs.get(run.structured.runId)).toMatchObject({ source: "mcp" });
  });

  test("host/slug is one of your own scripts", async () => {
    const read = await call("read_script", { address: "example.com/get_title" });
    expect(read.isError).toBe(false);
    expect(read.structured.address).toBe("@demo/example.com/get_title");
  });

  test("a script named two ways, or not at all, is refused before any request", async () => {
    const before = runs();
    const both = await call("run_script", { script: { address: "reduck/mail.google.com/send_email", host: "mail.google.com", args: {} } });
    expect(both).toMatchObject({ isError: true });
    expect(both.text).toContain("not both");
    const none = await call("run_script", { script: { args: { to: "a@b.c" } } });
    expect(none.text).toContain("name the script by its address");
    const malformed = await call("read_script", { address: "send_email" });
    expect(malformed.text).toContain("is not a script address");
    expect(runs()).toBe(before);
  });

  test("a misspelt host, a misspelt slug or a bare slug: the error says which script was likely meant, as the CLI does", async () => {
    const before = runs();
    const host = await call("read_script", { address: "mail.gogle.com/send_email" });
    expect(host).toMatchObject({ isError: true, text: "No such script: @demo/mail.gogle.com/send_email. Did you mean reduck/mail.google.com/send_email?" });
    const slug = await call("read_script", { handle: "reduck", host: "mail.google.com", slug: "send_emial" });
    expect(slug.text).toBe("No such script: reduck/mail.google.com/send_emial. Did you mean reduck/mail.google.com/send_email?");
    const bare = await call("read_script", { address: "send_email" });
    expect(bare.text).toMatch(/^"send_email" is not a script address: .*\. Did you mean reduck\/mail\.google\.com\/send_email\?$/);
    const run = await call("run_script", { script: { address: "reduck/mail.gogle.com/send_email", args: { to: "a@b.c", subject: "Hi" } } });
    expect(run).toMatchObject({ isError: true });
    expect(run.text).toMatch(/^No such script reduck\/mail\.gogle\.com\/send_email\. Did you mean reduck\/mail\.google\.com\/send_email\?$/);
    const runBare = await call("run_script", { script: { address: "send_email", args: { to: "a@b.c" } } });
    expect(runBare.text).toMatch(/Did you mean reduck\/mail\.google\.com\/send_email\?$/);
    expect(runs()).toBe(before);
  });

  test("an owner the service does not know: list_scripts says which handle was likely meant, as the CLI does", async () => {
    const typo = await call("list_scripts", { handle: "redcuk" });
    expect(typo).toMatchObject({ isError: true, text: "No such handle: redcuk. Did you mean reduck?" });
    const person = await call("list_scripts", { handle: "demo" });
    expect(person.text).toBe("No such handle: demo. Did you mean @demo? A person's handle starts with @.");
    const nothingClose = await call("list_scripts", { handle: "nobody-here" });
    expect(nothingClose.text).toBe("No such handle: nobody-here. Your handles: @demo, acme, partners; the official catalogue: reduck.");
  });
});

test("every answer is also structured content, the same JSON as its text", async () => {
  for (const [tool, args] of [
    ["list_scripts", { handle: "reduck", host: "docusign.com" }],
    ["read_script", SEND_EMAIL],
    ["list_runs", { pageSize: 2 }],
    ["whoami", {}],
    ["run_script", sendEmail({})],
  ] as const) {
    const r = await call(tool, args);
    expect(r.isError, tool).toBe(false);
    expect(r.structured, tool).toEqual(r.json());
  }
});

test("read_script shows no internal keys of the service's schemas", async () => {
  const r = await call("read_script", SEND_EMAIL);
  expect(r.text).not.toMatch(/"x-/);
  // What the keys described is still there.
  expect(r.structured.input.properties.to).toMatchObject({ anyOf: [{ type: "string" }, { type: "array" }] });
});

describe("run statuses read the same in run_script and list_runs", () => {
  test("completed", async () => {
    const run = await call("run_script", sendEmail({}));
    expect(run.structured.status).toBe("completed");
    const listed = await call("list_runs", { pageSize: 100 });
    expect(listed.structured.runs.find((r: { runId: string }) => r.runId === run.structured.runId)).toMatchObject({
      status: "completed",
      address: "reduck/mail.google.com/send_email",
    });
  });

  test("failed, and list_runs filters in the same words", async () => {
    const run = await call("run_script", { script: { ...SEND_EMAIL, args: { to: [], subject: "nobody" } } });
    expect(run.isError).toBe(true);
    expect(run.structured).toMatchObject({ status: "failed", error: expect.stringContaining("to needs at least one address") });
    expect(sandbox.store.runs.get(run.structured.runId)!.status).toBe("error");
    const failed = await call("list_runs", { status: "failed", pageSize: 100 });
    expect(failed.structured.runs.map((r: { runId: string }) => r.runId)).toContain(run.structured.runId);
    expect(new Set(failed.structured.runs.map((r: { status: string }) => r.status))).toEqual(new Set(["failed"]));
    const all = await call("list_runs", { pageSize: 100 });
    expect(all.structured.runs.map((r: { status: string }) => r.status)).not.toContain("success");
  });
});

describe("run_script with named files", () => {
  test("a named file keeps its own name", async () => {
    const r = await call("run_script", sendEmail({ attachment: { relativePath: "banner.png" } }));
    expect(r.isError).toBe(false);
    expect(r.json()).toMatchObject({ status: "completed", result: { attachment: "banner.png", sent: true } });
    expect(sandbox.store.runs.get(r.json().runId)).toMatchObject({ source: "mcp", files: [expect.objectContaining({ via: "named", sha256: sha256(banner) })] });
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
    const before = runs();
    const r = await call("run_script", sendEmail({ attachment: { relativePath: name } }));
    expect(r.isError).toBe(true);
    expect(r.text).toContain("must be a plain name inside the reduck folder");
    expect(runs()).toBe(before);
  });

  test("a missing file for your own browser is found here, before a run is spent", async () => {
    const before = runs();
    const r = await call("run_script", sendEmail({ attachment: { relativePath: "nope.png" } }));
    expect(r.isError).toBe(true);
    // The documented text's beginning, then ours.
    expect(r.text.startsWith('bound 0 bytes — the browser could not read "nope.png"')).toBe(true);
    expect(r.text).toContain(`there is no such file in ${path.join(desktop, "reduck")}, so nothing was run`);
    expect(r.text).toContain("normally this machine");
    expect(runs()).toBe(before);
  });

  test("on a managed browser the file is read here and sent as bytes, named after its input", async () => {
    const r = await call("run_script", sendEmail({ attachment: { relativePath: "banner.png" } }, { browser: "managed" }));
    expect(r.isError).toBe(false);
    expect(r.json().result.attachment).toBe("attachment");
    expect(sandbox.store.runs.get(r.json().runId)!.files[0]).toMatchObject({ via: "bytes", size: banner.length, sha256: sha256(banner) });
  });

  test("several steps come back in order", async () => {
    const r = await call("run_script", {
      scripts: [
        { ...SEND_EMAIL, args: { to: "a@b.c", subject: "one" } },
        { address: "reduck/mail.google.com/send_email", args: { to: "a@b.c", subject: "two" }, files: { attachment: { relativePath: "banner.png" } } },
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
