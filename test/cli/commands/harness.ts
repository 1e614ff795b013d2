/**
 * Runs the built CLI (the test build of test/support/cli.ts, BUILD_ROOT, as oclif's explicit
 * discovery loads it) in-process against the sandbox: a fresh seeded store per test,
 * served through msw.
 */
import { format } from "node:util";
import { runCommand } from "@oclif/test";
import type { RequestHandler } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { createHandlers, createStore, type SandboxStore } from "@reduck-client/sandbox";
import { BUILD_ROOT } from "../../support/cli.js";
import { temporaryFolder } from "../../support/files.js";

const ENV_KEYS = ["REDUCK_API_KEY", "REDUCK_API_URL", "REDUCK_MCP_URL", "REDUCK_CONFIG_DIR"] as const;

/**
 * Where the CLI is pointed: a name reserved for tests (RFC 6761), which no resolver answers. msw
 * answers every HTTP request in-process; a connection the CLI opens by itself (a run's, opened
 * ahead while the contract is read) fails there, and never reaches a real host.
 */
export const API_URL = "https://reduck.test";

export interface CliResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** stdout parsed as one JSON document. */
  json<T = any>(): T;
}

/**
 * Starts msw with the sandbox's handlers over a new store before each test, and
 * points the CLI at it with the demo account's key.
 */
export function useSandboxForCli(): { readonly store: SandboxStore; use(...handlers: RequestHandler[]): void } {
  // In-process tests run scripts against the simulated page, which is fast; the end-to-end tests
  // (test/e2e, test/mcp, test/run/run-http) run them in the sandbox's real browser.
  const server = setupServer();
  // `use`: handlers placed before the sandbox's for one test (a wire form it does not speak).
  const state = { store: createStore({ browser: "simulated" }), use: (...handlers: RequestHandler[]) => server.use(...handlers) };
  const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  beforeEach(() => {
    state.store = createStore({ browser: "simulated" });
    server.resetHandlers(...createHandlers(state.store));
    process.env.REDUCK_API_KEY = state.store.demo.apiKey;
    process.env.REDUCK_API_URL = API_URL;
    delete process.env.REDUCK_MCP_URL;
    // Never read or write the real stored login.
    process.env.REDUCK_CONFIG_DIR = temporaryFolder("reduck-cli-test-");
  });
  afterEach(() => {
    process.exitCode = undefined;
  });
  afterAll(() => {
    server.close();
    for (const k of ENV_KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });
  return state;
}

/**
 * `reduck ...args`, with stdout, stderr and the exit code the process would end with.
 *
 * @example
 * const { stdout, exitCode } = await reduck("scripts", "list", "--json");
 */
export async function reduck(...args: string[]): Promise<CliResult> {
  // runCommand joins and re-splits its arguments on spaces: quote the ones that hold any.
  const quoted = args.map((a) => (/\s/.test(a) ? `"${a}"` : a));
  // oclif prints through console.log/error, which vitest intercepts unless
  // disableConsoleIntercept is set: route them to the streams runCommand captures either way.
  const { log, error } = console;
  console.log = (...parts: unknown[]) => void process.stdout.write(`${format(...parts)}\n`);
  console.error = (...parts: unknown[]) => void process.stderr.write(`${format(...parts)}\n`);
  process.exitCode = undefined;
  let out: { stdout: string; stderr: string; error?: Error };
  try {
    out = await runCommand(quoted, { root: BUILD_ROOT });
  } finally {
    console.log = log;
    console.error = error;
  }
  const exitCode = Number(process.exitCode ?? (out.error ? 1 : 0));
  process.exitCode = undefined;
  if (out.error && exitCode === 0) throw out.error;
  return {
    stdout: out.stdout,
    stderr: out.stderr,
    exitCode,
    json() {
      return JSON.parse(out.stdout);
    },
  };
}

/** A folder for files a test writes (sources, schemas). */
export function tempDir(): string {
  return temporaryFolder("reduck-cli-files-");
}

/**
 * The address of every script the demo account can run now (a current version, not archived):
 * its own, its projects', the official catalogue (`scripts list --all`) and the sandbox's own
 * scripts (`scripts list sandbox --all`, when the store seeded them).
 *
 * @example
 * const addresses = await everyRunnableScript(); // ["reduck/mail.google.com/send_email", "@demo/example.com/get_title", ...]
 */
export async function everyRunnableScript(): Promise<string[]> {
  const found = new Set<string>();
  for (const args of [[], ["sandbox"]]) {
    const listed = await reduck("scripts", "list", ...args, "--all", "--json");
    if (listed.exitCode !== 0) throw new Error(`scripts list ${args.join(" ")} failed: ${listed.stderr}`);
    for (const s of listed.json<{ data: Array<{ address: string; current_version: unknown; archived_at: string | null }> }>().data) {
      if (s.current_version && !s.archived_at) found.add(s.address);
    }
  }
  return [...found];
}
