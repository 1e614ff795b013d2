// Open endpoints: no credential, no store.
import { readFileSync } from "node:fs";
import type { Implementations } from "./types.js";

/**
 * The CLI version the sandbox reports as the latest: the sandbox's own version, released
 * with reduck-client's and equal to it (package-contents.test.ts holds them together), so a CLI
 * under test never sees itself as out of date.
 */
export const LATEST_CLI_VERSION: string = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;

export const metaHandlers: Pick<Implementations, "getVersion" | "getPing"> = {
  getVersion: () => ({ status: 200, body: { version: LATEST_CLI_VERSION } }),
  getPing: () => ({ status: 200, body: { message: "pong" } }),
};
