/**
 * The stored login: `~/.config/reduck/config.json` (or `$REDUCK_CONFIG_DIR/config.json`),
 * readable only by its owner. One API key per API URL, so a sandbox login does not
 * replace the real one.
 */
import { mkdir, readFile, writeFile, chmod, rm } from "node:fs/promises";
import path from "node:path";
import { configDir as systemConfigDir, currentSystem } from "../system/paths.js";

export interface StoredConfig {
  credentials?: Record<string, { apiKey: string }>;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return systemConfigDir({ ...currentSystem(), env });
}

export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(configDir(env), "config.json");
}

export async function readConfig(env: NodeJS.ProcessEnv = process.env): Promise<StoredConfig> {
  try {
    const parsed = JSON.parse(await readFile(configFile(env), "utf8"));
    return parsed && typeof parsed === "object" ? parsed : {};
  } catch {
    return {};
  }
}

export async function writeConfig(config: StoredConfig, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const file = configFile(env);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, JSON.stringify(config, null, 2) + "\n", { mode: 0o600 });
  await chmod(file, 0o600); // an existing file keeps its old mode on write
  return file;
}

export async function storedKey(apiUrl: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  return (await readConfig(env)).credentials?.[apiUrl]?.apiKey;
}

export async function storeKey(apiUrl: string, apiKey: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const config = await readConfig(env);
  config.credentials = { ...config.credentials, [apiUrl]: { apiKey } };
  return writeConfig(config, env);
}

/** Returns whether a key was stored for that URL. */
export async function forgetKey(apiUrl: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const config = await readConfig(env);
  if (!config.credentials?.[apiUrl]) return false;
  delete config.credentials[apiUrl];
  if (Object.keys(config.credentials).length === 0) {
    await rm(configFile(env), { force: true });
    return true;
  }
  await writeConfig(config, env);
  return true;
}
