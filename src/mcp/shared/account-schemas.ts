/**
 * The input and output schemas of the tools about the account around the scripts: whoami,
 * list_devices (the paired browsers), and a host's README.
 */
import type { z as Zod } from "zod";
import type { SchemaParts } from "./schema-parts.js";

export function accountSchemas(z: typeof Zod, { closed, open, next }: SchemaParts) {
  const noInput = closed({});

  const whoamiOutput = open({
    name: z.string(),
    email: z.string(),
    handle: z.string().nullable(),
    projects: z.array(open({ handle: z.string(), name: z.string(), role: z.string() })),
    usage: z.unknown().optional().describe("This period's usage and quotas; null when no period is active."),
    filesFolder: z.string().describe("The folder files are named in (relativePath)."),
  });

  const device = open({
    deviceId: z.string().describe("Give it as browser: { deviceId } (or deviceId) to run_script."),
    name: z.string().nullable(),
    browser: z.string().nullable(),
    os: z.string().nullable(),
    fileAccess: z.boolean().nullable().describe('Whether it may read named files ("Allow access to file URLs").'),
    reachable: z.boolean().describe("Whether it can be woken up: not that its browser is running."),
    concurrencyBudget: z.number(),
    createdAt: z.string(),
  });

  const listDevicesOutput = open({
    devices: z.array(device),
    extensionPicks: z.string().nullable().describe('The device browser: "extension" (the default) runs on: the only one paired, else null.'),
    next: next(),
  });

  const hostTarget = () => ({
    host: z.string().describe('The site, e.g. "example.com".'),
    handle: z.string().optional().describe('Owner: "reduck", "@username" or a project; omit for your own.'),
  });

  const readHostReadmeInput = closed(hostTarget());
  const setHostReadmeInput = closed({
    ...hostTarget(),
    content: z.string().min(1).max(20_000).describe("The whole README (Markdown): it replaces the one there."),
  });

  const readmeOutput = open({
    handle: z.string(),
    host: z.string(),
    content: z.string().nullable().describe("null when there is none."),
    updatedAt: z.string().nullable().optional(),
    next: next(),
  });

  return { noInput, whoamiOutput, listDevicesOutput, readHostReadmeInput, setHostReadmeInput, readmeOutput };
}
