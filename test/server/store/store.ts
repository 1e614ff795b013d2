// The sandbox's in-memory state and the domain rules that do not depend on HTTP: who owns
// what, who may read or write it, and how runs feed script statistics. One store per test (or per
// sandbox process) keeps tests independent.
import { seedStore } from "./seed.js";
import { AppsStore } from "./apps.js";
import type { DemoCredentials, StoreOptions } from "./types.js";

export { DEFAULT_RUN_TIMEOUT_MS } from "./types.js";
export type {
  AddProjectInput,
  AddRunInput,
  AddScriptInput,
  AddUserInput,
  AddVersionInput,
  DemoCredentials,
  LoggedRequest,
  RecordRunInput,
  SandboxBrowser,
  ScriptStats,
  StoreOptions,
  VersionInput,
} from "./types.js";
export { isFinished } from "./run-outcomes.js";
export { PLACEHOLDER_CONTENT } from "./scripts.js";

/**
 * The whole store: its layers (store/accounts.ts, scripts.ts, runs.ts, devices.ts, apps.ts) over the same
 * records, seeded with the demo account when made.
 */
export class SandboxStore extends AppsStore {
  /** Identity and credentials of the seeded demo account. */
  readonly demo: DemoCredentials;

  constructor(options: StoreOptions = {}) {
    super(options);
    this.demo = seedStore(this, options);
  }
}

/**
 * A fresh, seeded store: the demo account (@demo) with scripts, runs, one paired device and one
 * connector; a second account (@alice); projects `acme`, `partners`; and the official catalogue
 * under `reduck`.
 *
 * @example
 * const store = createStore();
 * server.use(...createHandlers(store));
 * await fetch("https://reduck.ai/api/me", { headers: { "X-API-Key": store.demo.apiKey } });
 */
export function createStore(options: StoreOptions = {}): SandboxStore {
  return new SandboxStore(options);
}
