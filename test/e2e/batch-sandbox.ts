/**
 * The sandbox and the user's home shared by the `reduck batch` end-to-end files
 * (batch.test.ts, batch-resume.test.ts): a test file calls useBatchSandbox(), which starts the
 * server (test/support/sandbox.ts) before that file's tests and removes everything after. Its
 * bindings are live: read them in tests.
 */
import { readFile } from "node:fs/promises";
import { beforeAll } from "vitest";
import { createReduckClient, listAll, listRuns } from "../../src/index.js";
import type { SandboxStore } from "@reduck-client/sandbox";
import { type CliSandbox, useCliSandbox } from "../support/sandbox.js";
import { temporaryFolder } from "../support/files.js";

export let store: SandboxStore;
export let server: CliSandbox["server"];
export let home: string;
export let env: Record<string, string>;
export const scriptIds: Record<string, string> = {};

const ROWS_SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string" },
    n: { type: "integer", minimum: 0 },
    colour: { type: "string", enum: ["red", "green", "blue"] },
    note: { type: "string" },
    photo: { type: "string", format: "file" },
  },
  required: ["name"],
};

/** Starts the server before the calling file's tests, and removes everything after them. */
export function useBatchSandbox(): void {
  const sandbox = useCliSandbox({
    store: { browser: "simulated" },
    seed: (store) => {
      const add = (slug: string, content: string) => {
        scriptIds[slug] = store.addScript({ handle: "@demo", host: "rows.example", slug, content, inputSchema: ROWS_SCHEMA }).id;
      };
      add(
        "echo",
        "if (args.name === 'boom') throw new Error('the site said no'); return { args, photo: files.photo ? { name: files.photo.name, size: files.photo.size } : null };",
      );
      // Slow enough that a batch can be killed with runs in flight.
      add("slow", "await new Promise((r) => setTimeout(r, 150)); if (args.name === 'boom') throw new Error('the site said no'); return { name: args.name };");
      // Long enough that a batch can be stopped twice with its rows still running at the service.
      add("hold", "await new Promise((r) => setTimeout(r, 3000)); return { name: args.name };");
    },
    home: "reduck-batch-e2e-",
  });
  beforeAll(() => {
    ({ store, server, home, env } = sandbox);
  });
}

/** A fresh folder for one test's files. */
export async function folder(): Promise<string> {
  return temporaryFolder("t-", { inside: home });
}

/** The script's runs at the server (through its runs API), counted by their `name` argument. */
export async function runsPerName(slug: string): Promise<Map<string, number>> {
  const client = createReduckClient({ apiKey: store.demo.apiKey, baseUrl: server.url, maxRetries: 0 });
  const runs = await listAll(listRuns, { client, query: { script_id: scriptIds[slug], pageSize: 100 } });
  if (runs.error) throw new Error(runs.error.error);
  const counts = new Map<string, number>();
  for (const run of runs.data) {
    const name = String((run.args as { name?: unknown }).name);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

export async function journal(file: string): Promise<Array<Record<string, any>>> {
  return (await readFile(file, "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}
