// What the reference store keeps. Records are the server's own shape (camelCase, owners by id);
// api/views.ts turns them into the wire shapes of openapi.json.
import type { components } from "../contract/openapi-types.js";

type Schemas = components["schemas"];

export type Visibility = "private" | "public";
export type ScriptLanguage = "typescript" | "javascript";
export type SideEffects = Schemas["ScriptSideEffects"];
export type RunStatus = Schemas["RunStatus"];
export type RunSource = Schemas["RunSource"];
export type RunBrowser = Schemas["RunDevice"];
export type RunOutcome = Schemas["RunResult"];
export type Cookie = Schemas["ConnectorCookie"];

/** Every OAuth scope the hosted service knows. A token holds a subset. (Twin on purpose: the root's test/oauth/login.test.ts writes out the CLI's own.) */
export const ALL_SCOPES = [
  "script:read",
  "script:write",
  "run:read",
  "run:write",
  "device:read",
  "connector:read",
  "connector:write",
  "app:read",
  "app:write",
  "openid",
  "profile",
  "email",
  "offline_access",
] as const;

/** Audience of tokens this API accepts. */
export const API_AUDIENCE = "https://reduck.ai";
/** Audience of tokens minted for the agent (MCP) server, which this API refuses. */
export const MCP_AUDIENCE = "https://mcp.reduck.ai";

export interface UserRecord {
  id: string;
  name: string;
  email: string;
  /** Without the `@`; null until a username is chosen (the personal scope is then unaddressable). */
  username: string | null;
  role: "admin" | "user" | null;
  experimentalFeatures: Array<"flock_apps">;
}

/**
 * Project roles. owner/admin may create scripts and move them out again; member may create and edit
 * but not move scripts out; viewer may only read.
 */
export type ProjectRole = "owner" | "admin" | "member" | "viewer";

export interface ProjectRecord {
  id: string;
  /** Bare slug, e.g. `acme`; the official catalogue is `reduck`. */
  handle: string;
  name: string;
  /** The official catalogue: author approval `official`, code hidden from non-members. */
  official: boolean;
  members: Map<string, ProjectRole>;
}

export type OwnerRef = { kind: "user"; id: string } | { kind: "project"; id: string };

export interface ScriptRecord {
  id: string;
  owner: OwnerRef;
  host: string;
  slug: string;
  name: string;
  description: string;
  visibility: Visibility;
  currentVersionId: string | null;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
  humanRequired: boolean;
  /** Sandbox fixtures (sandbox-scripts.ts): runnable by address, left out of script listings. */
  unlisted?: boolean;
  /** Sandbox fixture: its runs end with neither a result nor an error (a signed-out browser). */
  noOutcome?: boolean;
}

export interface VersionRecord {
  id: string;
  scriptId: string;
  versionNumber: number;
  parentVersionId: string | null;
  language: ScriptLanguage;
  loggedIn: boolean;
  sideEffects: SideEffects;
  /** True until promoted; a promoted version never becomes a draft again. */
  draft: boolean;
  note: string | null;
  /** User id of the account that saved it; null once that account is gone. */
  createdBy: string | null;
  createdAt: string;
  content: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  /**
   * Seeded from a script folder with its contract alone (`--scripts DIR`): its content is a
   * placeholder, and nobody is shown code, as for official scripts' outsiders.
   */
  codeWithheld?: true;
}

/**
 * The script a run executed, frozen at run time (a later rename or transfer does not rewrite
 * history): kept as the run's wire shape gives it (`Run.script`).
 */
export type RunScriptRef = NonNullable<Schemas["Run"]["script"]>;

/** What a file field of the simulated page holds, and what a script sees in `files.<input>`. */
export interface FileDescriptor {
  name: string;
  size: number;
  /** Media type. */
  type: string;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
}

/**
 * A file POST /run received for a run (kept on the run record only, never in an API answer), so
 * tests can check the bytes arrived intact. `via`: a multipart part (`bytes`, named after the input),
 * a file the browser read from the desktop folder (`named`, keeps its own name), or base64 in the
 * JSON body (`inline`, named after the input).
 */
export interface ReceivedFile extends FileDescriptor {
  input: string;
  via: "bytes" | "named" | "inline";
}

export interface RunRecord {
  id: string;
  userId: string;
  name: string;
  browser: RunBrowser;
  args: Record<string, unknown>;
  status: RunStatus;
  result: RunOutcome | null;
  source: RunSource;
  startedAt: string;
  finishedAt: string | null;
  script: RunScriptRef | null;
  /** Recorded steps; null when the run recorded no trace (getRunTrace answers 404). */
  trace: unknown;
  /** Files the run received (POST /run); empty for runs without files and for seeded runs. */
  files: ReceivedFile[];
}

export interface DeviceRecord {
  id: string;
  userId: string;
  name: string | null;
  browser: string | null;
  os: string | null;
  fileAccess: boolean | null;
  reachable: boolean;
  createdAt: string;
  concurrencyBudget: number;
}

export interface ConnectorRecord {
  id: string;
  userId: string;
  /** Bare host, lower case, no `www.`. */
  host: string;
  cookies: Cookie[];
  createdAt: string;
  updatedAt: string;
}

export interface ReadmeRecord {
  owner: OwnerRef;
  host: string;
  content: string;
  createdAt: string;
  updatedAt: string;
}

export interface TokenRecord {
  userId: string;
  audience: string;
  scopes: string[];
}
