// Sandbox-only scripts that provoke the run outcomes a client must handle but the catalogue's
// scripts cannot: a run slower than `waitForSeconds` (a 202, then polling), a run that fails
// after a while, and a run that ends with neither a result nor an error (what the service's
// team measured from a paired browser signed out of the site). They live under the project
// `sandbox`, host `sandbox.test`, are public and unlisted (runnable by address, absent from
// script listings, so listings stay the catalogue's), and need no connector (not logged in).
import type { DevicesStore } from "./devices.js";

/** The owner handle and host of every sandbox-only script. */
export const SANDBOX_HANDLE = "sandbox";
export const SANDBOX_HOST = "sandbox.test";

const SECONDS = {
  type: "number",
  minimum: 0,
  maximum: 600,
  description: "How long the script waits before it ends.",
};

interface SandboxScript {
  slug: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  content: string;
  /** The run ends with neither result nor error, whatever the body returned. */
  noOutcome?: boolean;
}

const SCRIPTS: SandboxScript[] = [
  {
    slug: "sleep",
    name: "Sleep (sandbox)",
    description:
      "Waits `seconds`, then returns `{ slept: seconds, echo }`; with `fail` it throws that message instead (a site_error). For runs that outlive waitForSeconds.",
    inputSchema: {
      type: "object",
      properties: {
        seconds: SECONDS,
        fail: { type: "string", minLength: 1, description: "Throw this message after waiting, instead of returning." },
        echo: { description: "Returned as is, to tell runs apart." },
      },
      required: ["seconds"],
      additionalProperties: false,
    },
    outputSchema: { type: "object", properties: { slept: { type: "number" }, echo: {} }, required: ["slept"] },
    content: [
      "await new Promise((resolve) => setTimeout(resolve, args.seconds * 1000));",
      "if (args.fail) throw new Error(args.fail);",
      "return { slept: args.seconds, echo: args.echo ?? null };",
      "",
    ].join("\n"),
  },
  {
    slug: "no_outcome",
    name: "No outcome (sandbox)",
    description:
      "Waits `seconds` (default 0), then ends with neither a result nor an error, as a run on a paired browser signed out of the site came back. Its run is recorded as success with no result.",
    inputSchema: { type: "object", properties: { seconds: SECONDS }, additionalProperties: false },
    outputSchema: { type: "object", properties: {} },
    content: "await new Promise((resolve) => setTimeout(resolve, (args.seconds ?? 0) * 1000));\nreturn {};\n",
    noOutcome: true,
  },
];

/**
 * Adds the project `sandbox` and its unlisted scripts to a store (the seed calls it).
 *
 * @example
 * seedSandboxScripts(store); // then POST /run { script: { handle: "sandbox", host: "sandbox.test", slug: "sleep", args: { seconds: 5 } } }
 */
export function seedSandboxScripts(store: DevicesStore, createdAt: string): void {
  const staff = [...store.users.values()].find((u) => u.role === "admin");
  store.addProject({ handle: SANDBOX_HANDLE, name: "Sandbox fixtures", members: staff ? { [staff.id]: "owner" } : {} });
  for (const script of SCRIPTS) {
    store.addScript({
      handle: SANDBOX_HANDLE,
      host: SANDBOX_HOST,
      slug: script.slug,
      name: script.name,
      description: script.description,
      visibility: "public",
      unlisted: true,
      noOutcome: script.noOutcome,
      loggedIn: false,
      sideEffects: "none",
      language: "javascript",
      content: script.content,
      inputSchema: script.inputSchema,
      outputSchema: script.outputSchema,
      note: "Sandbox fixture",
      createdAt,
    });
  }
}
