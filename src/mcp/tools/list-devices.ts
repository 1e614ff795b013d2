/**
 * list_devices: the paired browsers, which may read named files, and the one run_script uses by default.
 */
import type { z as Zod } from "zod";
import type { SchemaParts } from "../common/schema-parts.js";
import { listDevices } from "../../generated/operations.js";
import { answer, failWith, type ToolContext, type ToolResult } from "../common/answers.js";
import { shownText } from "../common/bounded.js";
import { READ, type Tool } from "../common/tool.js";

/** list_devices's own schemas. */
function schemas(z: typeof Zod, { open, next }: SchemaParts) {
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

  return { device, listDevicesOutput };
}

async function handle(ctx: ToolContext): Promise<ToolResult> {
  const listed = await listDevices({ client: ctx.client });
  if (listed.error) return failWith(listed.error);
  const devices = listed.data.slice(0, 100).map((d) => ({
    deviceId: d.id,
    name: d.name === null ? null : shownText(d.name, 200),
    browser: d.browser === null ? null : shownText(d.browser, 100),
    os: d.os === null ? null : shownText(d.os, 100),
    fileAccess: d.file_access,
    reachable: d.reachable,
    concurrencyBudget: d.concurrency_budget,
    createdAt: d.created_at,
  }));
  const only = devices.length === 1 ? devices[0]!.deviceId : null;
  return answer({
    devices,
    extensionPicks: only,
    next: !devices.length
      ? 'No paired browser: pair one with the Reduck extension, or run on a hosted browser (run_script with browser: "cloud").'
      : only
        ? 'run_script runs on it by default (browser: "extension").'
        : 'Several paired browsers: give run_script the one to use as deviceId (or browser: { deviceId }); "extension" alone is refused.',
  });
}

export const listDevicesTool: Tool = {
  name: "list_devices",
  spec: ({ s, z, parts }) => {
    const own = schemas(z, parts);
    return {
      title: "List paired browsers",
      description:
        'Your paired browsers (devices) with their ids, whether each may read named files, and which one run_script uses by default. Give an id to run_script as deviceId to run on that browser. "reachable" means it can be woken up, not that it is running. Changes nothing.',
      input: s.noInput,
      output: own.listDevicesOutput,
      annotations: READ,
      usage: "list_devices {}",
    };
  },
  run: (tc) => handle(tc),
};
