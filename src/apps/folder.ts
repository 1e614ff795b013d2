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
 *
 * Nothing outside the folder leaves it, by the agent tool's rule (src/run/inside-folder.ts): a
 * symbolic link is followed once, to the file or folder it names, only while that lies inside the
 * folder; a link out of it (or to nothing, or in a loop) is a problem listed before anything is
 * sent. Each file is then hashed from the handle that rule opened, and storage takes only bytes
 * with that hash: a link swapped afterwards cannot send another file's contents.
 */
import { createHash } from "node:crypto";
import { type FileHandle, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { formatBytes } from "../core/bytes.js";
import { isObject } from "../core/json.js";
import { isInside, LINK_LOOP, LINK_TO_NOTHING, leadsOutside, openFileInside } from "../run/inside-folder.js";

/** How messages name the folder a deploy reads. */
const APP_FOLDER = "app folder";

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
  /** Where it is on disk: its real path inside the folder (a link's target, for a link). */
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
  const info = await stat(dir).catch(() => undefined);
  if (!info) throw new AppFolderError(dir, ["no such folder"]);
  if (!info.isDirectory()) throw new AppFolderError(dir, ["not a folder"]);
  const root = await realpath(dir);

  const problems: string[] = [];
  const json = async (name: string, shape: "object" | "array" | "either"): Promise<unknown> => {
    // Read by the folder rule too: a manifest or a grant linked from outside is never sent.
    const opened = await openFileInside(root, name, APP_FOLDER);
    if (!opened.ok) {
      if (opened.reason !== "missing") problems.push(`${name}: ${opened.problem}`);
      return undefined;
    }
    let text: string;
    try {
      text = await opened.handle.readFile("utf8");
    } catch (err) {
      problems.push(`${name} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
      return undefined;
    } finally {
      await opened.handle.close();
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

  const found: Found[] = [];
  await walk(root, root, "", [root], found, problems);
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
  for (const file of found) {
    const read = await hashInside(root, file);
    if ("problem" in read) problems.push(`${file.name}: ${read.problem}`);
    else files.push(read);
  }
  if (problems.length) throw new AppFolderError(dir, problems);
  const migrations = files.filter((f) => /^migrations\/[^/]+\.sql$/.test(f.name)).map((f) => ({ name: f.name.slice("migrations/".length), sha: f.sha256 }));
  const schemaSha = files.find((f) => f.name === "schema.sql")?.sha256;
  return {
    dir: path.resolve(dir),
    manifest,
    ...(config ? { config } : {}),
    ...(grant ? { grant } : {}),
    ...(tools ? { tools: tools as unknown[] } : {}),
    migrations,
    ...(schemaSha ? { schemaSha } : {}),
    files,
  };
}

/** A file found to serve, before it is hashed. */
interface Found {
  name: string;
  size: number;
}

/**
 * Collects the served files under `dir` (`prefix` is its name in the folder; `within`, the real
 * paths of the folders walked down to it, so a link back to one of them is a loop, not a walk
 * without end). A symbolic link is followed once, and only to what lies inside `root`.
 */
async function walk(root: string, dir: string, prefix: string, within: string[], found: Found[], problems: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    const name = prefix + entry.name;
    // Dot-files and dot-folders (a served name cannot start with a dot), and what is never sent.
    if (entry.name.startsWith(".") || (!prefix && BODY_FILES.has(entry.name)) || entry.name === "node_modules") continue;
    const full = path.join(dir, entry.name);
    let real = full;
    if (entry.isSymbolicLink()) {
      const target = await realpath(full).catch((err: NodeJS.ErrnoException) => (err.code === "ELOOP" ? LINK_LOOP : LINK_TO_NOTHING));
      if (target === LINK_LOOP || target === LINK_TO_NOTHING) {
        problems.push(`${name}: ${target}`);
        continue;
      }
      if (within.includes(target)) {
        problems.push(`${name}: ${LINK_LOOP}`);
        continue;
      }
      if (!isInside(root, target)) {
        problems.push(`${name}: ${leadsOutside(APP_FOLDER)}`);
        continue;
      }
      real = target;
    }
    const info = await stat(real).catch(() => undefined);
    if (info?.isDirectory()) {
      await walk(root, real, `${name}/`, [...within, real], found, problems);
      continue;
    }
    if (!info?.isFile()) {
      problems.push(`${name} is not a regular file (or a link to one)`);
      continue;
    }
    if (info.nlink > 1) {
      problems.push(`${name}: it has ${info.nlink} hard links, so it may be a file from outside the folder: put a copy of it in the folder instead`);
      continue;
    }
    found.push({ name, size: info.size });
  }
}

/**
 * A found file opened by the folder rule (so what is read is what lies inside the folder, even
 * if a name was swapped for a link since the walk), its size and SHA-256 read from that handle.
 */
async function hashInside(root: string, file: Found): Promise<AppFile | { problem: string }> {
  const opened = await openFileInside(root, file.name, APP_FOLDER);
  if (!opened.ok) return { problem: opened.reason === "missing" ? "it was removed while the folder was read" : opened.problem };
  try {
    const { sha256, size } = await hashHandle(opened.handle);
    if (size !== opened.size) return { problem: "it changed while it was being read; deploy again" };
    return { name: file.name, path: opened.realPath, size, sha256 };
  } finally {
    await opened.handle.close();
  }
}

/** The SHA-256 and length of what is read from `handle`, in 1 MiB chunks (memory stays flat). */
async function hashHandle(handle: FileHandle): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  let size = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) break;
    size += bytesRead;
    hash.update(buffer.subarray(0, bytesRead));
  }
  return { sha256: hash.digest("hex"), size };
}
