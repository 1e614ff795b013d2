// The reference server's in-memory state and the domain rules that do not depend on HTTP: who owns
// what, who may read or write it, and how runs feed script statistics. One store per test (or per
// sandbox process) keeps tests independent.
import { randomBytes, randomUUID } from "node:crypto";
import {
  ALL_SCOPES,
  API_AUDIENCE,
  type ConnectorRecord,
  type Cookie,
  type DeviceRecord,
  type OwnerRef,
  type ProjectRecord,
  type ProjectRole,
  type ReadmeRecord,
  type ReceivedFile,
  type RunBrowser,
  type RunRecord,
  type RunSource,
  type RunStatus,
  type ScriptLanguage,
  type ScriptRecord,
  type SideEffects,
  type TokenRecord,
  type UserRecord,
  type VersionRecord,
  type Visibility,
} from "./records.js";
import type { BrowserHost } from "./browser/index.js";
import type { BatchRecord } from "./run/batches.js";
import { hostAndParents } from "./hostnames.js";
import { seedStore } from "./seed.js";

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
  handle: "@demo";
  /** X-API-Key of a second account, @alice. */
  otherUserApiKey: string;
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
   * web; `simulated`, the simulated page, which renders nothing and is much faster. The seeded
   * catalogue follows: examples/scripts for the real browser, their twins in simulated-scripts/
   * for the simulated page.
   */
  browser?: SandboxBrowser;
  /**
   * The warm browser real runs use (default: one shared by every store of this process, launched
   * at the first run that touches a page).
   */
  browserHost?: BrowserHost;
  /** `retryAfterMs` of runs still in flight: how long clients are told to wait between polls (default 1000). */
  pollIntervalMs?: number;
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

const FINISHED: ReadonlySet<RunStatus> = new Set(["success", "error", "cancelled"]);

export function isFinished(status: RunStatus): boolean {
  return FINISHED.has(status);
}

function ownerKey(owner: OwnerRef): string {
  return `${owner.kind}:${owner.id}`;
}

function sameOwner(a: OwnerRef, b: OwnerRef): boolean {
  return a.kind === b.kind && a.id === b.id;
}

/** Placeholder script body of scripts seeded without code: POST /run runs it and gets `{}`. */
export const PLACEHOLDER_CONTENT = "return {};\n";

export class ReferenceStore {
  readonly users = new Map<string, UserRecord>();
  readonly projects = new Map<string, ProjectRecord>();
  readonly scripts = new Map<string, ScriptRecord>();
  readonly versions = new Map<string, VersionRecord>();
  readonly runs = new Map<string, RunRecord>();
  readonly devices = new Map<string, DeviceRecord>();
  /** Keyed by `${userId} ${host}`. */
  readonly connectors = new Map<string, ConnectorRecord>();
  /** Keyed by `${owner} ${host}`. */
  readonly readmes = new Map<string, ReadmeRecord>();
  /** Batches answered with a 202 by POST /run, for GET /batches/{batchId}. */
  readonly batches = new Map<string, BatchRecord>();
  /** Every request received, in order (see request-log.ts): tests count POST /run against polls. */
  readonly requestLog: LoggedRequest[] = [];
  /** See StoreOptions.pollIntervalMs. */
  pollIntervalMs: number;
  private readonly apiKeys = new Map<string, string>();
  private readonly tokens = new Map<string, TokenRecord>();
  private lastTimestamp = 0;
  /** Identity and credentials of the seeded demo account. */
  readonly demo: DemoCredentials;
  /**
   * The simulated desktop folder (see StoreOptions.desktopDir): named files are read from
   * `<desktopDir>/reduck/` at run time, so a test may set it at any point. null: none.
   */
  desktopDir: string | null;
  /** How long a script may run in POST /run before the run fails. */
  runTimeoutMs: number;
  /** What POST /run runs scripts against (see StoreOptions.browser). */
  readonly browser: SandboxBrowser;
  /** The warm browser of real runs, when one was given (else the process's shared one). */
  readonly browserHost?: BrowserHost;

  constructor(options: StoreOptions = {}) {
    this.desktopDir = options.desktopDir ?? null;
    this.runTimeoutMs = options.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
    this.browser = options.browser ?? "real";
    this.browserHost = options.browserHost;
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.demo = seedStore(this, options);
  }

  /**
   * Strictly increasing ISO timestamps, so "newest first" never depends on two records landing on
   * the same millisecond.
   */
  now(): string {
    this.lastTimestamp = Math.max(Date.now(), this.lastTimestamp + 1);
    return new Date(this.lastTimestamp).toISOString();
  }

  // ---- accounts and credentials -------------------------------------------------------------

  addUser(input: AddUserInput): UserRecord {
    const user: UserRecord = {
      id: input.id ?? randomUUID(),
      username: input.username,
      name: input.name ?? input.username ?? "Unnamed user",
      email: input.email ?? `${input.username ?? "user"}@example.com`,
      role: input.role === undefined ? "user" : input.role,
      experimentalFeatures: input.experimentalFeatures ?? [],
    };
    this.users.set(user.id, user);
    return user;
  }

  addProject(input: AddProjectInput): ProjectRecord {
    const project: ProjectRecord = {
      id: input.id ?? randomUUID(),
      handle: input.handle,
      name: input.name ?? input.handle,
      official: input.official ?? false,
      members: new Map(Object.entries(input.members ?? {})),
    };
    this.projects.set(project.id, project);
    return project;
  }

  /** Issues an API key for a user (random `rk_...` unless given). */
  addApiKey(userId: string, key: string = "rk_" + randomBytes(24).toString("hex")): string {
    this.apiKeys.set(key, userId);
    return key;
  }

  /** Issues an OAuth access token (opaque string) with an audience and scopes. */
  addOAuthToken(input: { userId: string; audience?: string; scopes?: readonly string[]; token?: string }): string {
    const token = input.token ?? "rat_" + randomBytes(24).toString("hex");
    this.tokens.set(token, {
      userId: input.userId,
      audience: input.audience ?? API_AUDIENCE,
      scopes: [...(input.scopes ?? ALL_SCOPES)],
    });
    return token;
  }

  userIdForApiKey(key: string): string | undefined {
    return this.apiKeys.get(key);
  }

  tokenInfo(token: string): TokenRecord | undefined {
    return this.tokens.get(token);
  }

  // ---- owners and handles -------------------------------------------------------------------

  userByUsername(username: string): UserRecord | undefined {
    return [...this.users.values()].find((u) => u.username === username);
  }

  projectByHandle(handle: string): ProjectRecord | undefined {
    return [...this.projects.values()].find((p) => p.handle === handle);
  }

  /** `@alice` -> alice's personal scope, `acme` -> project acme, anything unknown -> null. */
  resolveHandle(handle: string): OwnerRef | null {
    if (handle.startsWith("@")) {
      const user = this.userByUsername(handle.slice(1));
      return user ? { kind: "user", id: user.id } : null;
    }
    const project = this.projectByHandle(handle);
    return project ? { kind: "project", id: project.id } : null;
  }

  handleOf(owner: OwnerRef): string {
    if (owner.kind === "user") return "@" + (this.users.get(owner.id)?.username ?? owner.id);
    return this.projects.get(owner.id)?.handle ?? owner.id;
  }

  ownerName(owner: OwnerRef): string {
    return owner.kind === "user"
      ? (this.users.get(owner.id)?.name ?? "Deleted user")
      : (this.projects.get(owner.id)?.name ?? "Deleted project");
  }

  isOfficial(owner: OwnerRef): boolean {
    return owner.kind === "project" && Boolean(this.projects.get(owner.id)?.official);
  }

  roleIn(userId: string | null, projectId: string): ProjectRole | null {
    if (!userId) return null;
    return this.projects.get(projectId)?.members.get(userId) ?? null;
  }

  projectsOf(userId: string): Array<{ project: ProjectRecord; role: ProjectRole }> {
    return [...this.projects.values()]
      .filter((p) => p.members.has(userId))
      .map((project) => ({ project, role: project.members.get(userId)! }));
  }

  /** The owner user, or any member of the owning project (viewers included). */
  isInsider(userId: string | null, owner: OwnerRef): boolean {
    if (!userId) return false;
    return owner.kind === "user" ? owner.id === userId : this.roleIn(userId, owner.id) !== null;
  }

  /** May create (and edit) scripts under that owner: oneself, or a project role above viewer. */
  canCreateUnder(userId: string | null, owner: OwnerRef): boolean {
    if (!userId) return false;
    if (owner.kind === "user") return owner.id === userId;
    const role = this.roleIn(userId, owner.id);
    return role === "owner" || role === "admin" || role === "member";
  }

  /** May move scripts out of that scope: oneself, or a project owner/admin. */
  canTransferOutOf(userId: string | null, owner: OwnerRef): boolean {
    if (!userId) return false;
    if (owner.kind === "user") return owner.id === userId;
    const role = this.roleIn(userId, owner.id);
    return role === "owner" || role === "admin";
  }

  canReadScript(userId: string | null, script: ScriptRecord): boolean {
    return script.visibility === "public" || this.isInsider(userId, script.owner);
  }

  canWriteScript(userId: string | null, script: ScriptRecord): boolean {
    return this.canCreateUnder(userId, script.owner);
  }

  /** Code and notes of official scripts are shown to members of the owning project only. */
  mayReadCode(userId: string | null, script: ScriptRecord): boolean {
    return !this.isOfficial(script.owner) || this.isInsider(userId, script.owner);
  }

  // ---- scripts and versions -----------------------------------------------------------------

  /** Finds a script by owner + host + slug, archived ones included. */
  findScript(owner: OwnerRef, host: string, slug: string): ScriptRecord | undefined {
    return [...this.scripts.values()].find((s) => sameOwner(s.owner, owner) && s.host === host && s.slug === slug);
  }

  /** Same, addressed the way URLs address it: `findScriptByAddress("@demo", "example.com", "get_title")`. */
  findScriptByAddress(handle: string, host: string, slug: string): ScriptRecord | undefined {
    const owner = this.resolveHandle(handle);
    return owner ? this.findScript(owner, host, slug) : undefined;
  }

  scriptsOwnedBy(owner: OwnerRef): ScriptRecord[] {
    return [...this.scripts.values()].filter((s) => sameOwner(s.owner, owner));
  }

  /** Versions of a script, newest (highest number) first. */
  versionsOf(scriptId: string): VersionRecord[] {
    return [...this.versions.values()]
      .filter((v) => v.scriptId === scriptId)
      .sort((a, b) => b.versionNumber - a.versionNumber);
  }

  currentVersion(script: ScriptRecord): VersionRecord | null {
    return script.currentVersionId ? (this.versions.get(script.currentVersionId) ?? null) : null;
  }

  /**
   * Adds a script with its first version (promoted and current unless `draft`).
   *
   * @example
   * store.addScript({ handle: "@demo", host: "example.com", slug: "get_links", visibility: "public" });
   */
  addScript(input: AddScriptInput): ScriptRecord {
    const owner = this.resolveHandle(input.handle);
    if (!owner) throw new Error(`addScript: unknown handle ${input.handle}`);
    if (this.findScript(owner, input.host, input.slug)) {
      throw new Error(`addScript: ${input.handle}/${input.host}/${input.slug} already exists`);
    }
    const createdAt = input.createdAt ?? this.now();
    const script: ScriptRecord = {
      id: input.id ?? randomUUID(),
      owner,
      host: input.host,
      slug: input.slug,
      name: input.name ?? input.slug,
      description: input.description ?? `Automates ${input.slug.replace(/[_-]/g, " ")} on ${input.host}.`,
      visibility: input.visibility ?? "private",
      currentVersionId: null,
      archivedAt: input.archived ? (input.updatedAt ?? createdAt) : null,
      createdAt,
      updatedAt: input.updatedAt ?? createdAt,
      humanRequired: input.humanRequired ?? false,
      ...(input.unlisted ? { unlisted: true } : {}),
      ...(input.noOutcome ? { noOutcome: true } : {}),
    };
    this.scripts.set(script.id, script);
    const { id: _scriptId, versionId, draft, unlisted: _unlisted, noOutcome: _noOutcome, ...versionFields } = input;
    this.addVersion(script.id, { ...versionFields, id: versionId, createdAt, draft: draft ?? false });
    // addVersion bumps updatedAt; a seeded script keeps the time it was given.
    script.updatedAt = input.updatedAt ?? createdAt;
    return script;
  }

  /**
   * Adds a version after the latest one. A non-draft version is promoted: it becomes current.
   * Fields not given are copied from the parent (default: the current version), else defaulted.
   */
  addVersion(scriptId: string, input: AddVersionInput = {}): VersionRecord {
    const script = this.scripts.get(scriptId);
    if (!script) throw new Error(`addVersion: unknown script ${scriptId}`);
    const existing = this.versionsOf(scriptId);
    const parent: VersionRecord | undefined =
      input.parentVersionId !== undefined
        ? input.parentVersionId
          ? this.versions.get(input.parentVersionId)
          : undefined
        : (this.currentVersion(script) ?? existing[0]);
    const defaultAuthor =
      script.owner.kind === "user"
        ? script.owner.id
        : ([...(this.projects.get(script.owner.id)?.members ?? [])].find(([, r]) => r === "owner")?.[0] ?? null);
    const version: VersionRecord = {
      id: input.id ?? randomUUID(),
      scriptId,
      versionNumber: (existing[0]?.versionNumber ?? 0) + 1,
      parentVersionId: parent ? parent.id : null,
      language: input.language ?? parent?.language ?? "typescript",
      loggedIn: input.loggedIn ?? parent?.loggedIn ?? false,
      sideEffects: input.sideEffects ?? parent?.sideEffects ?? "none",
      draft: input.draft ?? true,
      note: input.note === undefined ? null : input.note,
      createdBy: input.createdBy === undefined ? defaultAuthor : input.createdBy,
      createdAt: input.createdAt ?? this.now(),
      content: input.content ?? parent?.content ?? PLACEHOLDER_CONTENT,
      inputSchema: input.inputSchema ?? parent?.inputSchema ?? { type: "object", properties: {} },
      outputSchema: input.outputSchema ?? parent?.outputSchema ?? { type: "object", properties: {} },
    };
    this.versions.set(version.id, version);
    if (!version.draft) script.currentVersionId = version.id;
    script.updatedAt = this.now();
    return version;
  }

  /** Promotes a version (a draft, or an older promoted one: rollback) to current. */
  promoteVersion(version: VersionRecord): void {
    const script = this.scripts.get(version.scriptId)!;
    version.draft = false;
    script.currentVersionId = version.id;
    script.updatedAt = this.now();
  }

  /** Usage statistics of a script (or of one of its versions), computed from the recorded runs. */
  stats(scriptId: string, versionId?: string): ScriptStats {
    const runs = [...this.runs.values()].filter(
      (r) => r.script?.id === scriptId && (versionId === undefined || r.script.version_id === versionId),
    );
    const finished = runs.filter((r) => r.status === "success" || r.status === "error");
    const timed = finished.filter((r) => r.finishedAt);
    const lastRun = runs.map((r) => r.startedAt).sort().at(-1) ?? null;
    return {
      execution_count: runs.length,
      last_run_at: lastRun,
      success_rate: finished.length ? finished.filter((r) => r.status === "success").length / finished.length : null,
      avg_time_ms: timed.length
        ? Math.round(timed.reduce((sum, r) => sum + (Date.parse(r.finishedAt!) - Date.parse(r.startedAt)), 0) / timed.length)
        : null,
    };
  }

  // ---- runs ---------------------------------------------------------------------------------

  /**
   * Records a run of a script version, freezing the script's identity into the run. This is what
   * POST /run stores.
   *
   * @example
   * const run = store.recordRun({ userId, scriptId, browser: { type: "extension" }, source: "rest",
   *   status: "success", result: { sent: true } });
   */
  recordRun(input: RecordRunInput): RunRecord {
    const script = this.scripts.get(input.scriptId);
    if (!script) throw new Error(`recordRun: unknown script ${input.scriptId}`);
    const version = input.versionId ? this.versions.get(input.versionId) : this.currentVersion(script);
    if (!version || version.scriptId !== script.id) {
      throw new Error(`recordRun: script ${script.slug} has no version ${input.versionId ?? "(current)"}`);
    }
    const status = input.status ?? "success";
    const startedAt = input.startedAt ?? this.now();
    const run: RunRecord = {
      id: input.id ?? randomUUID(),
      userId: input.userId,
      name: script.name,
      browser: input.browser,
      args: input.args ?? {},
      status,
      result: outcomeOf(status, input.result, input.error),
      source: input.source,
      startedAt,
      finishedAt: input.finishedAt !== undefined ? input.finishedAt : isFinished(status) ? this.now() : null,
      script: {
        id: script.id,
        version_id: version.id,
        version_number: String(version.versionNumber),
        name: script.name,
        handle: this.handleOf(script.owner),
        slug: script.slug,
        host: script.host,
      },
      trace: input.trace ?? null,
      files: input.files ?? [],
    };
    this.runs.set(run.id, run);
    return run;
  }

  /** Moves a run along (queued -> running -> success/error/cancelled). */
  updateRun(
    runId: string,
    patch: { status?: RunStatus; result?: Record<string, unknown>; error?: string; finishedAt?: string | null; trace?: unknown },
  ): RunRecord {
    const run = this.runs.get(runId);
    if (!run) throw new Error(`updateRun: unknown run ${runId}`);
    if (patch.status) run.status = patch.status;
    if (patch.status || patch.result || patch.error) run.result = outcomeOf(run.status, patch.result, patch.error);
    if (patch.finishedAt !== undefined) run.finishedAt = patch.finishedAt;
    else if (isFinished(run.status) && !run.finishedAt) run.finishedAt = this.now();
    if (patch.trace !== undefined) run.trace = patch.trace;
    return run;
  }

  /**
   * Seeding shortcut for tests: defaults to a successful extension run of @demo/example.com/get_title
   * by the demo user.
   *
   * @example
   * for (let i = 0; i < 45; i++) store.addRun({ status: "success" });
   */
  addRun(input: AddRunInput = {}): RunRecord {
    let scriptId = input.scriptId;
    if (!scriptId) {
      const address = input.script ?? { handle: "@demo", host: "example.com", slug: "get_title" };
      const script = this.findScriptByAddress(address.handle, address.host, address.slug);
      if (!script) throw new Error(`addRun: no script ${address.handle}/${address.host}/${address.slug}`);
      scriptId = script.id;
    }
    return this.recordRun({
      ...input,
      scriptId,
      userId: input.userId ?? this.demo.userId,
      browser: input.browser ?? { type: "extension" },
      source: input.source ?? "cli",
    });
  }

  runsOf(userId: string): RunRecord[] {
    return [...this.runs.values()].filter((r) => r.userId === userId);
  }

  // ---- devices, connectors, readmes ---------------------------------------------------------

  addDevice(input: Partial<DeviceRecord> & { userId: string }): DeviceRecord {
    const device: DeviceRecord = {
      id: input.id ?? randomUUID(),
      userId: input.userId,
      name: input.name ?? "Google Chrome — macOS",
      browser: input.browser ?? "Google Chrome",
      os: input.os ?? "macOS",
      fileAccess: input.fileAccess ?? true,
      reachable: input.reachable ?? true,
      createdAt: input.createdAt ?? this.now(),
      concurrencyBudget: input.concurrencyBudget ?? 2,
    };
    this.devices.set(device.id, device);
    return device;
  }

  /**
   * Gives the demo account `count` paired extension browsers: 0 takes the seeded one away, 2 or
   * more add others beside it (for the refusals of `browser: "extension"`). Returns them.
   *
   * @example
   * store.setDemoDevices(2).map((d) => d.id); // [store.demo.deviceId, "<a new id>"]
   */
  setDemoDevices(count: number): DeviceRecord[] {
    const { userId, deviceId } = this.demo;
    for (const device of this.devicesOf(userId)) if (device.id !== deviceId || count === 0) this.devices.delete(device.id);
    if (count > 0 && !this.devices.has(deviceId)) {
      this.addDevice({ id: deviceId, userId, name: "Google Chrome — macOS", fileAccess: true, reachable: true });
    }
    const others = ["Firefox — Windows", "Microsoft Edge — Windows", "Arc — macOS"];
    for (let i = 1; i < count; i++) {
      const [browser, os] = others[(i - 1) % others.length].split(" — ");
      this.addDevice({ userId, name: `${browser} — ${os}`, browser, os });
    }
    return this.devicesOf(userId);
  }

  devicesOf(userId: string): DeviceRecord[] {
    return [...this.devices.values()].filter((d) => d.userId === userId);
  }

  /**
   * Turns a paired browser's "Allow access to file URLs" on or off (null: unknown). Off, POST /run
   * refuses files named by `relativePath` on that browser.
   */
  setFileAccess(deviceId: string, fileAccess: boolean | null): DeviceRecord {
    const device = this.devices.get(deviceId);
    if (!device) throw new Error(`setFileAccess: unknown device ${deviceId}`);
    device.fileAccess = fileAccess;
    return device;
  }

  /**
   * The same for the demo account's one paired browser.
   *
   * @example
   * store.setDemoFileAccess(false); // named files now fail: "This paired browser can't read local files"
   */
  setDemoFileAccess(on: boolean): DeviceRecord {
    return this.setFileAccess(this.demo.deviceId, on);
  }

  /** Creates or overwrites the connector of a user for a (bare) host. */
  putConnector(userId: string, host: string, cookies: Cookie[], id?: string): ConnectorRecord {
    const key = `${userId} ${host}`;
    const existing = this.connectors.get(key);
    const now = this.now();
    const connector: ConnectorRecord = existing
      ? { ...existing, cookies, updatedAt: now }
      : { id: id ?? randomUUID(), userId, host, cookies, createdAt: now, updatedAt: now };
    this.connectors.set(key, connector);
    return connector;
  }

  /** The connector stored for exactly this host. */
  connector(userId: string, host: string): ConnectorRecord | undefined {
    return this.connectors.get(`${userId} ${host}`);
  }

  /**
   * The connector a managed run on `host` would use: the host's own, else the nearest parent's
   * (`inbox.mail.google.com` -> `mail.google.com` -> `google.com`). Host must be bare (normalizeHost).
   */
  connectorFor(userId: string, host: string): ConnectorRecord | undefined {
    return hostAndParents(host)
      .map((h) => this.connector(userId, h))
      .find((c) => c !== undefined);
  }

  deleteConnector(userId: string, host: string): boolean {
    return this.connectors.delete(`${userId} ${host}`);
  }

  connectorsOf(userId: string): ConnectorRecord[] {
    return [...this.connectors.values()].filter((c) => c.userId === userId);
  }

  readme(owner: OwnerRef, host: string): ReadmeRecord | undefined {
    return this.readmes.get(`${ownerKey(owner)} ${host}`);
  }

  setReadme(owner: OwnerRef, host: string, content: string): ReadmeRecord {
    const key = `${ownerKey(owner)} ${host}`;
    const existing = this.readmes.get(key);
    const now = this.now();
    const readme: ReadmeRecord = existing
      ? { ...existing, content, updatedAt: now }
      : { owner, host, content, createdAt: now, updatedAt: now };
    this.readmes.set(key, readme);
    return readme;
  }

  deleteReadme(owner: OwnerRef, host: string): void {
    this.readmes.delete(`${ownerKey(owner)} ${host}`);
  }
}

function outcomeOf(status: RunStatus, result?: Record<string, unknown>, error?: string): RunRecord["result"] {
  // The generated type reads `type: object` as an empty record; any JSON object is what it means.
  if (status === "success") return { result: (result ?? {}) as Record<string, never> };
  if (status === "error") return { error: error ?? "Error: the script failed" };
  if (status === "cancelled") return error ? { error } : null;
  return null;
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
export function createStore(options: StoreOptions = {}): ReferenceStore {
  return new ReferenceStore(options);
}
