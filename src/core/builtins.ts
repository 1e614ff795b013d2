/**
 * Node modules loaded on first use: `http`, `https` (with `tls` and `crypto`), `net`,
 * `child_process` and `readline` take several ms to load together, which `reduck --version`,
 * `--help` or a call over plain http should not pay for. Looked up through the module object on every call (never a captured
 * function), so request interceptors such as MSW, which patch `http.request`, see our requests.
 */
import { createRequire } from "node:module";

const load = createRequire(import.meta.url);

export const nodeHttp = (): typeof import("node:http") => load("node:http");
export const nodeHttps = (): typeof import("node:https") => load("node:https");
export const nodeTls = (): typeof import("node:tls") => load("node:tls");
export const nodeNet = (): typeof import("node:net") => load("node:net");
export const nodeCrypto = (): typeof import("node:crypto") => load("node:crypto");
export const nodeChildProcess = (): typeof import("node:child_process") => load("node:child_process");
export const nodeReadline = (): typeof import("node:readline") => load("node:readline");
