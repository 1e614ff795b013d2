// For the attack tests: the sandbox as its own process, as users start it, scripts
// created through its API and run through POST /run over real loopback HTTP, and its memory read
// from /proc (the server's own, and its whole process tree's: script processes, Chromium).
import { mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { treeRssBytes } from "../runtime/browser/processes.js";
import { freePort, spawnSandbox } from "../process/sandbox-process.js";

export const MiB = 2 ** 20;

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface AttackedSandbox {
  url: string;
  key: string;
  pid: number;
  /** What the sandbox wrote on stderr so far (its refusals are logged there). */
  stderr(): string;
  call(method: string, path: string, body?: unknown): Promise<Answer>;
  /** Creates a script with this body (a fresh slug): its slug. */
  create(content: string): Promise<string>;
  /** Creates a script with this body (a fresh slug) and runs it; the answer of POST /run. */
  createAndRun(content: string): Promise<Answer>;
  /** Resident memory of the server process alone. */
  serverRss(): Promise<number>;
  /** Resident memory of the server and every process under it. */
  treeRss(): Promise<number>;
  stop(): Promise<void>;
}

let slugs = 0;

/**
 * A JSON request with an API key: its status and its parsed body.
 *
 * @example
 * const me = await callWithKey(key, "GET", "http://127.0.0.1:3000/api/me");
 */
export async function callWithKey(key: string, method: string, url: string, body?: unknown): Promise<Answer> {
  const response = await fetch(url, {
    method,
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** What POST /api/scripts takes for a JavaScript body on example.org, with any arguments and any result. */
export function plainScript(slug: string, description: string, content: string) {
  return {
    host: "example.org",
    slug,
    description,
    content,
    language: "javascript",
    input_schema: { type: "object" },
    output_schema: { type: "object" },
    side_effects: "none",
  };
}

/**
 * Starts the sandbox (`--browser simulated` unless `args` says otherwise) on a free port with a
 * desktop folder of its own, removed at stop().
 *
 * @example
 * const sandbox = await startAttackedSandbox(["--run-memory", "128"]);
 * const ran = await sandbox.createAndRun("return { ok: true };");
 * await sandbox.stop();
 */
export async function startAttackedSandbox(args: string[] = [], { browser = "simulated" }: { browser?: "real" | "simulated" } = {}): Promise<AttackedSandbox> {
  const desktop = mkdtempSync(path.join(os.tmpdir(), "reduck-attack-"));
  const spawned = spawnSandbox(["--port", String(await freePort()), "--desktop", desktop, "--browser", browser, ...args], { stderr: "pipe" });
  const env: Record<string, string> = {};
  await new Promise<void>((resolve, reject) => {
    spawned.exited.then((code) => reject(new Error(`the sandbox exited early (${code}): ${spawned.output().stderr}`)));
    spawned.child.stdout!.on("data", () => {
      for (const m of spawned.output().stdout.matchAll(/^(REDUCK_API_URL|REDUCK_API_KEY)=(.+)$/gm)) env[m[1]!] = m[2]!.trim();
      if (env.REDUCK_API_URL && env.REDUCK_API_KEY) resolve();
    });
  });
  const url = env.REDUCK_API_URL!;
  const key = env.REDUCK_API_KEY!;
  const pid = spawned.child.pid!;

  const call = (method: string, where: string, body?: unknown) => callWithKey(key, method, `${url}${where}`, body);

  async function create(content: string): Promise<string> {
    const slug = `attack_${process.pid}_${++slugs}`;
    const created = await call("POST", "/api/scripts/@demo", plainScript(slug, "An attack on the sandbox", content));
    if (created.status !== 201) throw new Error(`the script could not be created: ${created.status} ${JSON.stringify(created.body)}`);
    return slug;
  }

  return {
    url,
    key,
    pid,
    stderr: () => spawned.output().stderr,
    call,
    create,
    async createAndRun(content) {
      const slug = await create(content);
      return call("POST", "/run", { browser: "extension", script: { host: "example.org", slug, args: {} } });
    },
    async serverRss() {
      const status = await readFile(`/proc/${pid}/status`, "utf8");
      return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) * 1024;
    },
    treeRss: () => treeRssBytes(pid),
    async stop() {
      spawned.child.kill("SIGTERM");
      await spawned.exited;
      rmSync(desktop, { recursive: true, force: true });
    },
  };
}

/**
 * Samples a process tree's resident memory every 50 ms while `during` runs: its peak.
 *
 * @example
 * const { value, peak } = await peakTreeRss(sandbox, () => sandbox.createAndRun(attack));
 */
export async function peakTreeRss<T>(sandbox: AttackedSandbox, during: () => Promise<T>): Promise<{ value: T; peak: number }> {
  let peak = await sandbox.treeRss();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await sandbox.treeRss());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  try {
    const value = await during();
    sampling = false;
    await sampler;
    return { value, peak };
  } finally {
    sampling = false;
  }
}

/** A benign run that takes a moment, to run beside an attack: it must still succeed. */
export const BESIDE = "await new Promise((resolve) => setTimeout(resolve, 1500)); return { beside: 'fine' };";
