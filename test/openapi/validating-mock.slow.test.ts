/**
 * The read commands and the list functions against a validating mock of the service's API
 * description (Prism, in its static mode: every string is "string", every id too), so the client
 * is never stricter than the description it is built from. The mock serves the real description
 * where this machine has it (test/support/reference-description.ts: CI keeps it beside the
 * clone), else the repository's openapi.json, which agrees with it fact by fact
 * (agreement.test.ts): the test runs either way, and says which it served.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createReduckClient, listAllScripts, listDevices, listRuns, listScripts, listScriptVersions, paginateToArray } from "../../src/index.js";
import { runCli } from "../support/cli.js";
import { referenceDescription } from "../support/reference-description.js";

const REPOSITORY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DESCRIPTION = referenceDescription() ?? path.join(REPOSITORY, "openapi.json");
const PRISM = path.join(REPOSITORY, "node_modules", "@stoplight", "prism-cli", "dist", "index.js");
const RUN_ID = "86b0479f-a68f-4fcd-92d1-b68f485ee3d9";
const VERSION_ID = "00000000-0000-4000-8004-000000000002";
const ADDRESS = "reduck/mail.google.com/send_email";

let prism: ChildProcess | undefined;
let url = "";

/** A free loopback port (Prism takes a port, not 0). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
}

beforeAll(async () => {
  const port = await freePort();
  prism = spawn(process.execPath, [PRISM, "mock", "--host", "127.0.0.1", "--port", String(port), "--errors", DESCRIPTION], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let said = "";
  const listening = new Promise<void>((resolve, reject) => {
    prism!.stdout!.on("data", (chunk) => {
      said += chunk;
      if (said.includes("Prism is listening")) resolve();
    });
    prism!.stderr!.on("data", (chunk) => (said += chunk));
    prism!.on("exit", (code) => reject(new Error(`Prism stopped (${code}) before it listened:\n${said}`)));
  });
  await listening;
  url = `http://127.0.0.1:${port}`;
}, 60_000);

afterAll(async () => {
  if (prism && prism.exitCode === null) {
    prism.kill();
    await once(prism, "exit");
  }
});

describe(`against a validating mock of ${path.basename(DESCRIPTION)}`, () => {
  test.each(
    [
      ["whoami"],
      ["devices", "list"],
      ["runs", "list"],
      ["runs", "get", RUN_ID],
      ["runs", "trace", RUN_ID],
      ["scripts", "list"],
      ["scripts", "list", "reduck"],
      ["scripts", "get", ADDRESS],
      ["scripts", "versions", "list", ADDRESS],
      ["scripts", "versions", "get", ADDRESS, VERSION_ID],
    ].map((args) => [args.join(" "), args] as const),
  )("reduck %s exits 0, the answer's ids shown as the mock gave them", async (_, args) => {
    const env = { REDUCK_API_URL: url, REDUCK_MCP_URL: url, REDUCK_API_KEY: "k" };
    for (const json of [false, true]) {
      const r = await runCli(json ? [...args, "--json"] : args, { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/not as documented/);
      if (json) expect(() => JSON.parse(r.stdout)).not.toThrow();
    }
  });

  test("every list function reads its pages", async () => {
    const client = createReduckClient({ apiKey: "k", baseUrl: url, runBaseUrl: url });
    const path = { handle: "reduck", host: "mail.google.com", slug: "send_email" };
    for (const [name, listed] of [
      ["listRuns", await listRuns({ client })],
      ["listAllScripts", await listAllScripts({ client })],
      ["listScripts", await listScripts({ client, path: { handle: "reduck" } })],
      ["listScriptVersions", await listScriptVersions({ client, path })],
    ] as const) {
      expect(listed.error, name).toBeUndefined();
      expect(Array.isArray(listed.data), name).toBe(true);
      // The mock's ids are "string": kept as they came, never refused.
      expect((listed.data as Array<{ id?: unknown }>)[0]?.id, name).toBe("string");
    }
    const devices = await listDevices({ client });
    expect(devices.error).toBeUndefined();
    // Page after page (the mock always says there is a next one): three items, read across pages.
    const pages = await paginateToArray(listRuns, { client, query: { pageSize: 1 } }, { max: 3 });
    expect(pages.error).toBeUndefined();
    expect(pages.data.map((run) => run.id)).toEqual(["string", "string", "string"]);
  });
});
