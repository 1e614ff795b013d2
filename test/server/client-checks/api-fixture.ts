// The shared set-up of the sandbox's API tests (api.test.ts,
// api-scripts.test.ts): a fresh, self-checked server per test (its hooks register in the test
// file that calls useApiFixture()) and a plain-fetch `call`.
import { useSandboxWithClient } from "./sandbox-harness.js";

export const BASE = "https://reduck.ai";
/** The calling file's server (a live binding, set by useApiFixture). */
export let sandbox: ReturnType<typeof useSandboxWithClient>;

/** A fresh, self-checked server for each of the calling file's tests. */
export function useApiFixture(): void {
  sandbox = useSandboxWithClient({ fresh: true, selfCheck: true });
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text, sent as is. */
  raw?: string;
  key?: string | null;
  token?: string;
}

export interface Answer {
  status: number;
  // Tests read arbitrary fields of arbitrary answers; the shapes themselves are checked by the server's self-check.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** One request; by default as @demo with its API key. `key: null` sends no credential. */
export async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  else if (options.key !== null) headers["x-api-key"] = options.key ?? sandbox.store.demo.apiKey;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(BASE + path, { method, headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

export const newScript = (overrides: Record<string, unknown> = {}) => ({
  host: "example.org",
  slug: "read_headline",
  description: "Reads the main headline of example.org.",
  content: "return { headline: 'x' };",
  input_schema: { type: "object", properties: {} },
  output_schema: { type: "object", properties: { headline: { type: "string" } } },
  side_effects: "none",
  ...overrides,
});
