// What the store is given and returns: its options, the demo account's credentials, the inputs of
// its seeding shortcuts. Kept apart from the store so modules that only name these types do not
// import the store (and, through it, the seed and the catalogue).
import type { ProjectRole, ReceivedFile, RunBrowser, RunSource, RunStatus, ScriptLanguage, SideEffects, Visibility } from "./records.js";

/** Credentials and identities of the seeded demo account, for tests and the sandbox. */
export interface DemoCredentials {
  /** X-API-Key of @demo (random per store unless given to createStore). */
  apiKey: string;
  /** Bearer token for @demo, audience https://reduck.ai, every scope. */
  oauthToken: string;
  /** Bearer token for @demo issued for the MCP server (audience https://mcp.reduck.ai): this API refuses it. */
  mcpToken: string;
  /** Bearer token for @demo, audience https://reduck.ai, only `script:read`. */
  readOnlyToken: string;
  userId: string;
  /** `@demo`, or the one user handle of a `--scripts` folder, which the demo account then answers to. */
  handle: string;
  /** X-API-Key of a second account, @alice. */
  otherUserApiKey: string;
  /**
   * X-API-Key of @casey, an account without the hosted-apps early-access feature (`flock_apps`):
   * every app operation answers it 403. @demo and @alice have the feature.
   */
  noAppsApiKey: string;
  /** The demo account's one paired browser (an extension device, file access on). */
  deviceId: string;
}

/** Default time a script may take in POST /run before the run fails (`script timed out after 300 s`). */
export const DEFAULT_RUN_TIMEOUT_MS = 300_000;

export interface StoreOptions {
  /** Fix the demo API key (the sandbox and spawned CLI tests pass one they already know). */
  apiKey?: string;
  /**
   * The simulated desktop of the caller's machine: POST /run reads files named by `relativePath`
   * from `<desktopDir>/reduck/`. Without it no named file can be read ("bound 0 bytes"). Also
   * settable later as `store.desktopDir`.
   */
  desktopDir?: string;
  /** How long a script may run in POST /run (default DEFAULT_RUN_TIMEOUT_MS). */
  runTimeoutMs?: number;
  /**
   * What POST /run runs scripts against: `real` (default), a headless Chromium against the simulated
   * web; `simulated`, the simulated page, the same web's pages as documents that nothing renders,
   * much faster. The seeded catalogue's scripts are the same on both.
   */
  browser?: SandboxBrowser;
  /** `retryAfterMs` of runs still in flight: how long clients are told to wait between polls (default 1000). */
  pollIntervalMs?: number;
  /**
   * The key apps' secrets are sealed under (any string; default: a random one per store). `null`:
   * no key, so writing a secret is refused with 503, as on a service deployment without one.
   */
  sealingKey?: string | null;
  /** How long a release's presigned upload URLs stay usable, in seconds (default 900). */
  uploadExpirySeconds?: number;
}

/** One request as the sandbox received it: enough to count them, nothing secret. */
export interface LoggedRequest {
  method: string;
  /** Path and query, e.g. `/run`, `/batches/<id>`, `/api/runs/<id>`. */
  path: string;
  at: string;
}

export type SandboxBrowser = "real" | "simulated";

export interface AddUserInput {
  id?: string;
  username: string | null;
  name?: string;
  email?: string;
  role?: "admin" | "user" | null;
  experimentalFeatures?: Array<"flock_apps">;
}

export interface AddProjectInput {
  id?: string;
  handle: string;
  name?: string;
  official?: boolean;
  /** userId -> role */
  members?: Record<string, ProjectRole>;
}

/** Fields of a version; anything omitted gets a small working default. */
export interface VersionInput {
  id?: string;
  content?: string;
  language?: ScriptLanguage;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  loggedIn?: boolean;
  sideEffects?: SideEffects;
  note?: string | null;
  /** User id; defaults to the owner (or the project's first owner). */
  createdBy?: string | null;
  createdAt?: string;
  parentVersionId?: string | null;
  /** See VersionRecord.codeWithheld. */
  codeWithheld?: true;
}

export interface AddScriptInput extends Omit<VersionInput, "id"> {
  id?: string;
  /** `@username` or a project handle. */
  handle: string;
  host: string;
  slug: string;
  name?: string;
  description?: string;
  visibility?: Visibility;
  archived?: boolean;
  humanRequired?: boolean;
  updatedAt?: string;
  /** Id of the first version. */
  versionId?: string;
  /** Leave the first version a draft: the script then has no current version. */
  draft?: boolean;
  /** See ScriptRecord.unlisted and noOutcome (sandbox fixtures). */
  unlisted?: boolean;
  noOutcome?: boolean;
}

export interface AddVersionInput extends VersionInput {
  /** Leave it a draft (default). A non-draft version is promoted and becomes current. */
  draft?: boolean;
}

/** A run as the POST /run implementation records it. */
export interface RecordRunInput {
  id?: string;
  userId: string;
  scriptId: string;
  /** Defaults to the script's current version. */
  versionId?: string;
  args?: Record<string, unknown>;
  browser: RunBrowser;
  source: RunSource;
  /** Defaults to `success`. */
  status?: RunStatus;
  /** The script's own result (for `success`). */
  result?: Record<string, unknown>;
  /** The failure message (for `error`). */
  error?: string;
  startedAt?: string;
  /** Defaults to now for finished statuses and null for queued/running. */
  finishedAt?: string | null;
  /** Recorded steps; omit or null for "no trace". */
  trace?: unknown;
  /** Files the run received (kept on the record, never in an API answer). */
  files?: ReceivedFile[];
}

/** Seeding shortcut: every field optional, addressed by handle/host/slug instead of ids. */
export interface AddRunInput extends Partial<Omit<RecordRunInput, "scriptId">> {
  scriptId?: string;
  /** Alternative to scriptId. */
  script?: { handle: string; host: string; slug: string };
}

export interface ScriptStats {
  execution_count: number;
  last_run_at: string | null;
  success_rate: number | null;
  avg_time_ms: number | null;
}
