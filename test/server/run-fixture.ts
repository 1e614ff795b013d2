// The shared set-up of the POST /run in-process tests (run.test.ts, run-failures.test.ts,
// run-steps.test.ts): one msw server, a fresh simulated store and desktop folder per test (its hooks
// register in the test file that calls useRunFixture()), and plain-fetch helpers.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from "vitest";
import { createHandlers, createStore, type ReferenceStore } from "./index.js";

export const RUN_URL = "https://mcp.reduck.ai/run";
export const API = "https://reduck.ai";
export const server = setupServer();
export let store: ReferenceStore;
export let desktop: string;

/** The server, store and desktop for the calling file's tests. */
export function useRunFixture(): void {
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  beforeEach(() => {
    desktop = mkdtempSync(path.join(os.tmpdir(), "reduck-desktop-"));
    mkdirSync(path.join(desktop, "reduck", "2026"), { recursive: true });
    store = createStore({ desktopDir: desktop, browser: "simulated" });
    server.resetHandlers(...createHandlers(store));
    vi.spyOn(console, "error");
  });
  // The self-check logs every answer outside openapi.json: no test may provoke one.
  afterEach(() => {
    expect(console.error).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    rmSync(desktop, { recursive: true, force: true });
  });
  afterAll(() => server.close());
}

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface Auth {
  key?: string | null;
  token?: string;
  headers?: Record<string, string>;
}

export function authHeaders(auth: Auth): Record<string, string> {
  const headers: Record<string, string> = { ...auth.headers };
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  else if (auth.key !== null) headers["x-api-key"] = auth.key ?? store.demo.apiKey;
  return headers;
}

export async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** POST /run as JSON (raw text sent as is). */
export async function runJson(body: unknown, auth: Auth = {}): Promise<Answer> {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  return answer(await fetch(RUN_URL, { method: "POST", headers: { "content-type": "application/json", ...authHeaders(auth) }, body: raw }));
}

export type Part = string | { bytes: Uint8Array | string; type?: string; filename?: string };

/** POST /run as multipart: the spec part first, then file parts by name. */
export async function runMultipart(spec: unknown, parts: Record<string, Part> = {}, auth: Auth = {}): Promise<Answer> {
  const form = new FormData();
  if (spec !== undefined) form.append("spec", typeof spec === "string" ? spec : JSON.stringify(spec));
  for (const [name, part] of Object.entries(parts)) {
    if (typeof part === "string") form.append(name, part);
    else form.append(name, new Blob([part.bytes as BlobPart], { type: part.type ?? "application/octet-stream" }), part.filename ?? name.split(":")[1] ?? name);
  }
  return answer(await fetch(RUN_URL, { method: "POST", headers: authHeaders(auth), body: form }));
}

export async function api(pathname: string): Promise<Answer> {
  return answer(await fetch(API + pathname, { headers: { "x-api-key": store.demo.apiKey } }));
}

export const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

export const sendEmail = (extra: Record<string, unknown> = {}) => ({
  handle: "reduck",
  host: "mail.google.com",
  slug: "send_email",
  args: { to: "me@example.com", subject: "Our new banner" },
  ...extra,
});
export const uploadDocument = (extra: Record<string, unknown> = {}) => ({
  handle: "reduck",
  host: "docusign.com",
  slug: "upload_document",
  args: { documentName: "contract.pdf" },
  ...extra,
});

export function putOnDesktop(relativePath: string, content: string | Uint8Array): string {
  const file = path.join(desktop, "reduck", ...relativePath.split("/"));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

export function runCount(): number {
  return store.runsOf(store.demo.userId).length;
}

export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5]);
