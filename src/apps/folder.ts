/**
 * An app folder as a deploy sends it: what the service reads (the manifest's install contract,
 * the authored settings, the hosts the page may reach, the tools, the migrations' hashes) goes in
 * the body of `startAppImageRelease`; the files it serves go to storage, each named, sized and
 * hashed here first. Every limit the service sets is checked before anything is sent.
 *
 * Which file goes where:
 * - `manifest.json`, `config.json`, `tools.json`: read and sent as the release's `manifest`,
 *   `config` and `tools` (the service keeps them as the release's install contract, settings
 *   defaults and tool declarations), not uploaded as files.
 * - `.api-keys.json`: read and sent as `grant`. A served name cannot start with a dot, so no
 *   dot-file or dot-folder is ever uploaded (`.git`, an editor's files, our own deploy state).
 * - `flock.json`: this machine's pointer to the image and the installed app, written by the CLI;
 *   never sent.
 * - `node_modules/`: never sent (an app is served as written, with nothing installed).
 * - Everything else is served under its path in the folder: the page (`front.jsx`), the
 *   migrations (`migrations/001-initial.sql`, also hashed into `migrations`), `schema.sql` (also
 *   hashed into `schema_sha`), tasks.
 */
import { createHash } from "node:crypto";
import { open, readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { formatBytes } from "../core/bytes.js";
import { isObject } from "../core/json.js";

/** The service's limits on one release's files. */
export const APP_RELEASE_LIMITS = {
  /** The most files one release may have. */
  maxFiles: 256,
  /** The largest file, in bytes (64 MiB). */
  maxFileBytes: 64 * 1024 * 1024,
  /** A served name: a letter or digit, then letters, digits, `.`, `_`, `/`, `-`; 128 characters at most. */
  namePattern: /^[A-Za-z0-9][A-Za-z0-9._/-]{0,127}$/,
} as const;

/** The file the CLI keeps its pointer to the image and the app in (never sent). */
export const FLOCK_FILE = "flock.json";

/** Read into the release's body rather than served. */
const BODY_FILES = new Set(["manifest.json", "config.json", "tools.json", ".api-keys.json", FLOCK_FILE]);

/** One file the release serves. */
export interface AppFile {
  /** The name it is served under: its path in the folder, with `/` between folders. */
  name: string;
  /** Where it is on disk. */
  path: string;
  size: number;
  /** Lower-case hex SHA-256 of its bytes. */
  sha256: string;
}

/** An app folder, read and checked: what a deploy sends. */
export interface AppFolder {
  dir: string;
  /** `manifest.json` as written (`{}` when there is none). */
  manifest: Record<string, unknown>;
  /** `config.json`, when there is one. */
  config?: Record<string, unknown>;
  /** `.api-keys.json`, when there is one. */
  grant?: Record<string, unknown>;
  /** `tools.json` (or the manifest's `tools`), when there is one. */
  tools?: unknown[];
  /** `migrations/*.sql`, in name order, with their hashes. */
  migrations: Array<{ name: string; sha: string }>;
  /** The hash of `schema.sql`, when the folder has one. */
  schemaSha?: string;
  /** The files served, in name order. */
  files: AppFile[];
}

/**
 * What is wrong with an app folder, found before anything was sent: every problem, one per line
 * in `problems`, so a person fixes them all in one go.
 */
export class AppFolderError extends Error {
  override name = "AppFolderError";
  constructor(
    readonly dir: string,
    readonly problems: string[],
  ) {
    super(problems.length === 1 ? `${dir}: ${problems[0]}` : `${dir}: ${problems.length} problems: ${problems.join("; ")}`);
  }
}

/**
 * Why `name` cannot be served, or undefined when it can.
 *
 * @example
 * appFileNameProblem("front.jsx"); // undefined
 * appFileNameProblem("my page.jsx"); // "\"my page.jsx\" is not a name the service serves: ..."
 */
export function appFileNameProblem(name: string): string | undefined {
  if (APP_RELEASE_LIMITS.namePattern.test(name) && !name.split("/").some((part) => part === "" || part === "." || part === "..")) return undefined;
  const why =
    name.length > 128
      ? `it is ${name.length} characters long, 128 at most`
      : /^[^A-Za-z0-9]/.test(name)
        ? "it must start with a letter or a digit"
        : "use only letters, digits, '.', '_', '-' and '/' between folders";
  return `${JSON.stringify(name)} is not a name the service serves (${why}): rename it, or move it out of the folder`;
}

/**
 * Reads an app folder: the JSON files the service reads, and every file it serves with its size
 * and SHA-256 (read from disk as a stream, so memory stays flat). Throws an `AppFolderError`
 * listing every problem (a name the service refuses, a file over 64 MiB, more than 256 files, a
 * JSON file that does not parse) before a single byte is hashed, when one is found.
 *
 * @example
 * ```ts
 * import { readAppFolder } from "reduck-client";
 * const folder = await readAppFolder("./my-app");
 * for (const f of folder.files) console.log(f.name, f.size, f.sha256);
 * ```
 */
export async function readAppFolder(dir: string): Promise<AppFolder> {
  const root = path.resolve(dir);
  const info = await stat(root).catch(() => undefined);
  if (!info) throw new AppFolderError(dir, ["no such folder"]);
  if (!info.isDirectory()) throw new AppFolderError(dir, ["not a folder"]);

  const problems: string[] = [];
  const json = async (name: string, shape: "object" | "array" | "either"): Promise<unknown> => {
    let text: string;
    try {
      text = await readFile(path.join(root, name), "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      problems.push(`${name} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
      return undefined;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      problems.push(`${name} is not JSON (${(err as Error).message})`);
      return undefined;
    }
    const ok = shape === "object" ? isObject(value) : shape === "array" ? Array.isArray(value) : isObject(value) || Array.isArray(value);
    if (!ok) problems.push(`${name} must hold a JSON ${shape === "either" ? "object or array" : shape}`);
    return ok ? value : undefined;
  };
  const manifest = ((await json("manifest.json", "object")) as Record<string, unknown> | undefined) ?? {};
  const config = (await json("config.json", "object")) as Record<string, unknown> | undefined;
  const grant = (await json(".api-keys.json", "object")) as Record<string, unknown> | undefined;
  const toolsFile = await json("tools.json", "either");
  const toolsValue = toolsFile ?? manifest.tools;
  const tools = Array.isArray(toolsValue) ? toolsValue : toolsValue && typeof toolsValue === "object" ? (toolsValue as { tools?: unknown }).tools : undefined;
  if (toolsValue !== undefined && !Array.isArray(tools)) problems.push("tools.json (or the manifest's tools) must be a list of tools");

  const found: Array<{ name: string; path: string; size: number }> = [];
  await walk(root, "", found, problems);
  if (found.length > APP_RELEASE_LIMITS.maxFiles) {
    problems.push(`it has ${found.length} files to serve, and a release holds ${APP_RELEASE_LIMITS.maxFiles} at most: remove some, or bundle them`);
  }
  for (const file of found) {
    const nameProblem = appFileNameProblem(file.name);
    if (nameProblem) problems.push(nameProblem);
    if (file.size > APP_RELEASE_LIMITS.maxFileBytes) {
      problems.push(
        `${file.name} is ${formatBytes(file.size)} (${file.size} bytes), and the service takes files of 64 MiB at most: make it smaller, or serve it from elsewhere`,
      );
    }
  }
  if (problems.length) throw new AppFolderError(dir, problems);

  found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const files: AppFile[] = [];
  for (const file of found) files.push({ ...file, sha256: await sha256Of(file.path) });
  const migrations = files.filter((f) => /^migrations\/[^/]+\.sql$/.test(f.name)).map((f) => ({ name: f.name.slice("migrations/".length), sha: f.sha256 }));
  const schemaSha = files.find((f) => f.name === "schema.sql")?.sha256;
  return {
    dir: root,
    manifest,
    ...(config ? { config } : {}),
    ...(grant ? { grant } : {}),
    ...(tools ? { tools: tools as unknown[] } : {}),
    migrations,
    ...(schemaSha ? { schemaSha } : {}),
    files,
  };
}

/** Collects the served files under `dir` (`prefix` is its name in the folder). */
async function walk(dir: string, prefix: string, found: Array<{ name: string; path: string; size: number }>, problems: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    const name = prefix + entry.name;
    // Dot-files and dot-folders (a served name cannot start with a dot), and what is never sent.
    if (entry.name.startsWith(".") || (!prefix && BODY_FILES.has(entry.name)) || entry.name === "node_modules") continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      await walk(full, `${name}/`, found, problems);
      continue;
    }
    const info = await stat(full).catch(() => undefined);
    if (!info?.isFile()) {
      problems.push(`${name} is not a regular file (or a link to one)`);
      continue;
    }
    found.push({ name, path: full, size: info.size });
  }
}

/** A file's SHA-256, read in 1 MiB chunks. */
export async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.allocUnsafe(1024 * 1024);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return hash.digest("hex");
}
