// The store's state and its first layer: accounts, credentials, owners and who may do what. The
// layers above (scripts, runs, devices) add what they do to the same records; SandboxStore
// (store.ts) is the top one, and seeds the demo account.
import { randomBytes, randomUUID } from "node:crypto";
import {
  ALL_SCOPES,
  API_AUDIENCE,
  type ConnectorRecord,
  type DeviceRecord,
  type OwnerRef,
  type ProjectRecord,
  type ProjectRole,
  type ReadmeRecord,
  type RunRecord,
  type ScriptRecord,
  type TokenRecord,
  type UserRecord,
  type VersionRecord,
} from "./records.js";
import type { BatchRecord } from "./batch-record.js";
import {
  DEFAULT_RUN_TIMEOUT_MS,
  type AddProjectInput,
  type AddUserInput,
  type DemoCredentials,
  type LoggedRequest,
  type SandboxBrowser,
  type StoreOptions,
} from "./types.js";

export abstract class AccountsStore {
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
  /** Every request received, in order (see api/request-log.ts): tests count POST /run against polls. */
  readonly requestLog: LoggedRequest[] = [];
  /** See StoreOptions.pollIntervalMs. */
  pollIntervalMs: number;
  private readonly apiKeys = new Map<string, string>();
  private readonly tokens = new Map<string, TokenRecord>();
  /** An OAuth subject to its account's id: the username the account was made with, kept through renames. */
  private readonly subjects = new Map<string, string>();
  private lastTimestamp = 0;
  /** Identity and credentials of the seeded demo account (set by SandboxStore once seeded). */
  abstract readonly demo: DemoCredentials;
  /**
   * The simulated desktop folder (see StoreOptions.desktopDir): named files are read from
   * `<desktopDir>/reduck/` at run time, so a test may set it at any point. null: none.
   */
  desktopDir: string | null;
  /** How long a script may run in POST /run before the run fails. */
  runTimeoutMs: number;
  /** What POST /run runs scripts against (see StoreOptions.browser). */
  readonly browser: SandboxBrowser;

  constructor(options: StoreOptions = {}) {
    this.desktopDir = options.desktopDir ?? null;
    this.runTimeoutMs = options.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
    this.browser = options.browser ?? "real";
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
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
    if (input.username) this.subjects.set(input.username, user.id);
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

  /**
   * The account a JWT's subject names: the username it was made with (`demo` for the demo account),
   * whatever handle it answers to now (`--scripts` with an `@user` folder renames it).
   */
  userBySubject(subject: string): UserRecord | undefined {
    const id = this.subjects.get(subject);
    return id === undefined ? undefined : this.users.get(id);
  }

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
    return owner.kind === "user" ? (this.users.get(owner.id)?.name ?? "Deleted user") : (this.projects.get(owner.id)?.name ?? "Deleted project");
  }

  isOfficial(owner: OwnerRef): boolean {
    return owner.kind === "project" && Boolean(this.projects.get(owner.id)?.official);
  }

  roleIn(userId: string | null, projectId: string): ProjectRole | null {
    if (!userId) return null;
    return this.projects.get(projectId)?.members.get(userId) ?? null;
  }

  projectsOf(userId: string): Array<{ project: ProjectRecord; role: ProjectRole }> {
    return [...this.projects.values()].filter((p) => p.members.has(userId)).map((project) => ({ project, role: project.members.get(userId)! }));
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

  /**
   * Code and notes of official scripts are shown to members of the owning project only; a version
   * seeded without its code (VersionRecord.codeWithheld) shows none to anyone.
   */
  mayReadCode(userId: string | null, script: ScriptRecord, version?: VersionRecord): boolean {
    if (version?.codeWithheld) return false;
    return !this.isOfficial(script.owner) || this.isInsider(userId, script.owner);
  }
}
