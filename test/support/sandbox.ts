/**
 * The sandbox for the root's tests, in two forms. A test file calls one of the `use...()`
 * functions, which registers that file's own hooks.
 *
 * - useCliSandbox(): as the built CLI meets it end to end: the sandbox on loopback HTTP
 *   for the file's tests, a temporary home for the user, the environment that points the CLI at
 *   both (the demo user's key, a config folder inside that home), and the library's client on the
 *   same server.
 * - useInProcessSandbox(): useSandboxClient's fresh store for each test (the sandbox's
 *   handlers in-process through MSW), with a scratch folder.
 *
 * Folders are temporaryFolders, removed when the test file ends.
 */
import path from "node:path";
import type { SandboxInProcess } from "@reduck-client/sandbox/testing";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { createHandlers, createStore, startHttpServer, type SandboxStore, type StoreOptions } from "@reduck-client/sandbox";
import { createReduckClient, type ReduckClient } from "../../src/index.js";
import { makeDesktop, temporaryFolder } from "./files.js";
import { useSandboxClient } from "./sandbox-client.js";

export interface CliSandbox {
  /** The sandbox's state: what it holds, the runs it made, the requests it received. */
  store: SandboxStore;
  /** The loopback server (its `url` is the CLI's REDUCK_API_URL). */
  server: Awaited<ReturnType<typeof startHttpServer>>;
  /** The user's home folder (HOME), empty but for what the tests put there: also the file's scratch folder. */
  home: string;
  /** The CLI's environment: HOME, REDUCK_API_URL, REDUCK_API_KEY (the demo user's), REDUCK_CONFIG_DIR. */
  env: Record<string, string>;
  /** The library's client for the demo user, on the same server (default options). */
  client: ReduckClient;
  /** The simulated desktop the store reads named files from (`<desktop>/reduck/`), when asked for. */
  desktop: string;
}

export interface CliSandboxOptions {
  /** How the store is made (createStore's options). */
  store?: StoreOptions;
  /** A simulated desktop with these files in its reduck folder (makeDesktop), as the store's desktopDir. */
  desktop?: Record<string, Uint8Array | string>;
  /** Adds the file's own scripts, connectors or files to the store, before the server starts. */
  seed?: (store: SandboxStore) => void | Promise<void>;
  /** How the home folder's name starts, so that a folder left behind names its test file. */
  home?: string;
  /** The CLI's config folder, as path segments inside the home (default `.config`). */
  configDir?: string[];
}

/**
 * Starts a sandbox for the calling test file. The fields of what it returns are set before the
 * file's first test (read them inside tests and hooks, not at the top of the file).
 *
 * @example
 * const sandbox = useCliSandbox({ home: "reduck-tables-", seed: (store) => store.addScript(script) });
 * test("...", async () => expect((await runCli(["scripts", "list"], { env: sandbox.env })).code).toBe(0));
 */
export function useCliSandbox({
  store: storeOptions,
  desktop: files,
  seed,
  home: prefix = "reduck-home-",
  configDir = [".config"],
}: CliSandboxOptions = {}): CliSandbox {
  const sandbox = {} as CliSandbox;
  beforeAll(async () => {
    const desktop = files && (await makeDesktop(files));
    const store = createStore({ ...storeOptions, ...(desktop ? { desktopDir: desktop } : {}) });
    await seed?.(store);
    const server = await startHttpServer({ handlers: createHandlers(store) });
    const home = temporaryFolder(prefix);
    const { env } = cliEnv({ url: server.url, home, apiKey: store.demo.apiKey, configDir: path.join(home, ...configDir) });
    const client = createReduckClient({ apiKey: store.demo.apiKey, baseUrl: server.url });
    Object.assign(sandbox, { store, server, home, env, client, desktop });
  }, 30_000);
  afterAll(async () => {
    await sandbox.server?.close();
  });
  return sandbox;
}

export interface CliUser {
  /** The user's config folder (REDUCK_CONFIG_DIR), where a login is kept. */
  configDir: string;
  /** The CLI's environment: HOME, REDUCK_API_URL, REDUCK_CONFIG_DIR, and REDUCK_API_KEY when given. */
  env: Record<string, string>;
}

/**
 * The environment that points the built CLI at `url` as a user whose home is `home`: what
 * useCliSandbox gives, for a server of the test's own (a fake service, an API behind a proxy, the
 * sandbox beside an authorization server). The config folder is a new one inside the home unless
 * given, so users who share a home do not share a login.
 *
 * @example
 * const home = temporaryFolder("reduck-oauth-");
 * const { configDir, env } = cliEnv({ url: world.url, home });
 */
export function cliEnv({ url, home, apiKey, configDir }: { url: string; home: string; apiKey?: string; configDir?: string }): CliUser {
  const folder = configDir ?? temporaryFolder("config-", { inside: home });
  return {
    configDir: folder,
    env: { HOME: home, REDUCK_API_URL: url, ...(apiKey === undefined ? {} : { REDUCK_API_KEY: apiKey }), REDUCK_CONFIG_DIR: folder },
  };
}

export interface InProcessSandbox extends SandboxInProcess<ReduckClient> {
  /** A scratch folder of this test's own. */
  folder: string;
}

/**
 * The sandbox's handlers, in-process through MSW (a request they do not answer fails the
 * test), over a new store before each test of the calling file (`seed` fills it), scripts running
 * against the simulated page, and a scratch folder per test: useSandboxClient's fresh mode, with
 * the folder. The fields are set before each test.
 *
 * @example
 * const sandbox = useInProcessSandbox({ seed: (store) => store.addScript(script), folder: "reduck-batch-" });
 * test("...", async () => expect((await getMe({ client: sandbox.client })).data).toBeDefined());
 */
export function useInProcessSandbox({
  seed,
  folder: prefix = "reduck-in-process-",
}: Pick<CliSandboxOptions, "seed"> & { folder?: string } = {}): InProcessSandbox {
  const sandbox = useSandboxClient({ fresh: true, seed }) as InProcessSandbox;
  beforeEach(() => {
    sandbox.folder = temporaryFolder(prefix);
  });
  return sandbox;
}
