/**
 * The stored sign-ins: `~/.config/reduck/config.json` (or `$REDUCK_CONFIG_DIR/config.json`),
 * readable only by its owner. One credential per API URL (an API key or an OAuth sign-in), so a
 * sandbox login does not replace the real one; the URL `reduck login --api-url` remembered; the
 * OAuth clients registered per authorization server.
 *
 * A file that cannot be read or parsed is reported with its path and never overwritten: it may
 * hold sign-ins for other URLs. Writes go to a temporary file renamed over the old one, so a
 * crash never leaves half a file, and changes are made under a lock file, so two commands
 * refreshing the same sign-in at once do not undo each other.
 */
import { mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { nodeCrypto } from "../../core/builtins.js";
import { configDir as systemConfigDir, currentSystem, modesMeaningful } from "../../system/paths.js";
import type { SignInStore } from "../../auth/session.js";
import type { OAuthSignIn } from "../../auth/types.js";
import { CliError } from "./errors.js";
import { ExitCode } from "./exit-codes.js";
import { isObject } from "../../core/json.js";

export type StoredCredential = { apiKey: string } | { oauth: OAuthSignIn };

export interface StoredConfig {
  /** The API later commands use when neither --api-url nor REDUCK_API_URL is given (set by `reduck login --api-url`). */
  apiUrl?: string;
  /** Keyed by API base URL. */
  credentials?: Record<string, StoredCredential>;
  /** OAuth clients this CLI registered (RFC 7591), keyed by authorization server (issuer). */
  oauthClients?: Record<string, { clientId: string }>;
  /** Anything a later version wrote: kept as it is. */
  [other: string]: unknown;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return systemConfigDir({ ...currentSystem(), env });
}

export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(configDir(env), "config.json");
}

/** Warnings already printed by this process (one per file is enough). */
const warned = new Set<string>();

/**
 * Reads the config: `{}` when there is none yet. A file that is unreadable, not JSON, or not the
 * shape this CLI writes is a CliError naming the file and the fix.
 */
export async function readConfig(env: NodeJS.ProcessEnv = process.env): Promise<StoredConfig> {
  const file = configFile(env);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return {};
    throw new CliError(`could not read ${file} (${code ?? (err as Error).message}): check that it is a file you can read`, ExitCode.FAILED);
  }
  await warnIfOpen(file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw corrupt(file, `it is not valid JSON (${(err as Error).message})`);
  }
  const problem = shapeProblem(parsed);
  if (problem) throw corrupt(file, problem);
  return parsed as StoredConfig;
}

function corrupt(file: string, why: string): CliError {
  return new CliError(
    `${file} is damaged: ${why}. It was left as it is, since it may hold sign-ins for other URLs: ` +
      `fix it by hand, or move it aside (mv "${file}" "${file}.bak") and sign in again with \`reduck login\``,
    ExitCode.FAILED,
  );
}

function shapeProblem(value: unknown): string | undefined {
  if (!isObject(value)) return "it is not a JSON object";
  const { apiUrl, credentials, oauthClients } = value;
  if (apiUrl !== undefined && typeof apiUrl !== "string") return '"apiUrl" is not a string';
  if (credentials !== undefined) {
    if (!isObject(credentials)) return '"credentials" is not an object';
    for (const [url, entry] of Object.entries(credentials)) {
      const ok = isObject(entry) && (typeof entry.apiKey === "string" || (isObject(entry.oauth) && typeof entry.oauth.clientId === "string"));
      if (!ok) return `the entry for ${url} holds neither an API key nor an OAuth sign-in`;
    }
  }
  if (oauthClients !== undefined && !isObject(oauthClients)) return '"oauthClients" is not an object';
  return undefined;
}

/**
 * On systems with file modes, says so (once) when others may read or change the file, or change
 * what its folder holds: whoever can replace config.json can point the next command, and its
 * key, at a server of their own.
 */
async function warnIfOpen(file: string): Promise<void> {
  if (!modesMeaningful()) return;
  await warnOnce(file, 0o077, (mode) => `${file} holds your credentials and other users can read or change it (mode ${mode}): run \`chmod 600 "${file}"\``);
  await warnIfOpenFolder(path.dirname(file));
}

async function warnIfOpenFolder(dir: string): Promise<void> {
  if (!modesMeaningful()) return;
  await warnOnce(
    dir,
    0o022,
    (mode) => `${dir} holds your credentials and other users can add, replace or remove files in it (mode ${mode}): run \`chmod 700 "${dir}"\``,
  );
}

/** Prints the warning `words` gives, once per path, when the path's mode has any bit of `open`. */
async function warnOnce(target: string, open: number, words: (mode: string) => string): Promise<void> {
  if (warned.has(target)) return;
  try {
    const mode = (await stat(target)).mode & 0o777;
    if (mode & open) {
      warned.add(target);
      process.stderr.write(`Warning: ${words(mode.toString(8).padStart(4, "0"))}\n`);
    }
  } catch {
    // Gone since it was read: nothing to warn about.
  }
}

/**
 * Reads, changes and writes the config under the lock: the change sees the latest file and what
 * it returns is returned. A file that cannot be read is never written. An empty result removes it.
 */
export async function updateConfig<T>(change: (config: StoredConfig) => T | Promise<T>, env: NodeJS.ProcessEnv = process.env): Promise<T> {
  return withConfigLock(() => changeConfig(change, env), env);
}

/** updateConfig for a caller that already holds the lock. */
export async function changeConfig<T>(change: (config: StoredConfig) => T | Promise<T>, env: NodeJS.ProcessEnv = process.env): Promise<T> {
  const config = await readConfig(env);
  const result = await change(config);
  await writeConfig(config, env);
  return result;
}

/** The credential stored for an API URL, if any. */
export async function storedCredential(apiUrl: string, env: NodeJS.ProcessEnv = process.env): Promise<StoredCredential | undefined> {
  return (await readConfig(env)).credentials?.[apiUrl];
}

/** The OAuth sign-in for an API URL, kept in the config file (for OAuthSession). */
export function configSignInStore(apiUrl: string, env: NodeJS.ProcessEnv = process.env): SignInStore {
  return {
    async read() {
      const entry = await storedCredential(apiUrl, env);
      return entry && "oauth" in entry ? entry.oauth : undefined;
    },
    exclusive: (work) => withConfigLock(work, env),
    save: (signIn) =>
      changeConfig((config) => {
        config.credentials = { ...config.credentials, [apiUrl]: { oauth: signIn } };
      }, env),
  };
}

/** Writes atomically (temporary file, then rename), readable only by the owner. */
async function writeConfig(config: StoredConfig, env: NodeJS.ProcessEnv): Promise<void> {
  const file = configFile(env);
  if (Object.keys(config).every((k) => config[k] === undefined || (isObject(config[k]) && Object.keys(config[k]).length === 0))) {
    await rm(file, { force: true });
    return;
  }
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await warnIfOpenFolder(path.dirname(file));
  const temp = `${file}.${process.pid}.${nodeCrypto().randomBytes(4).toString("hex")}.tmp`;
  const handle = await open(temp, "wx", 0o600);
  try {
    await handle.writeFile(JSON.stringify(config, null, 2) + "\n");
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

const LOCK_WAIT_MS = 10_000;
/** A lock older than this was left by a process that died: taken over. */
const LOCK_STALE_MS = 30_000;

/**
 * Runs `work` holding `config.json.lock`, so concurrent commands change the file one at a time
 * (refresh tokens are single-use: two refreshes racing would sign the user out).
 */
export async function withConfigLock<T>(work: () => Promise<T>, env: NodeJS.ProcessEnv = process.env): Promise<T> {
  const lock = `${configFile(env)}.lock`;
  await mkdir(path.dirname(lock), { recursive: true, mode: 0o700 });
  const started = Date.now();
  for (;;) {
    try {
      await (await open(lock, "wx", 0o600)).close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > LOCK_STALE_MS) {
        await rm(lock, { force: true });
        continue;
      }
      if (Date.now() - started > LOCK_WAIT_MS) {
        throw new CliError(
          `${lock} has been held for ${Math.round(age / 1000)} s by another reduck command: wait for it, or delete the file if none is running`,
          ExitCode.FAILED,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 25 + Math.random() * 50));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}
