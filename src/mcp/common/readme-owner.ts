/** Whose README the host README tools name, and what to answer when the service does not know that owner. */
import { listScripts } from "../../generated/operations.js";
import { fail, type ToolContext, type ToolResult } from "./answers.js";
import { hostAndSlug, ownHandle, unknownHandle } from "./naming.js";

/** The owner a README tool names: the given handle, or the caller's own. */
export async function readmeOwner(ctx: ToolContext, input: { host: string; handle?: string }): Promise<{ handle: string; host: string } | ToolResult> {
  const checked = hostAndSlug(input.host, "readme");
  if ("problem" in checked) return fail(`${JSON.stringify(input.host)} is not a host name: give the site, e.g. host: "mail.google.com"`);
  const handle = input.handle ?? (await ownHandle(ctx));
  if (typeof handle !== "string") return handle;
  return { handle, host: input.host };
}

/** After a README call's 404: the tool error for an owner the service does not know (the handles likely meant), else undefined. */
export async function unknownOwner(ctx: ToolContext, handle: string): Promise<ToolResult | undefined> {
  const owner = await listScripts({ client: ctx.client, path: { handle }, query: { pageSize: 1 } });
  return owner.error?.status === 404 ? unknownHandle(ctx, handle, owner.error) : undefined;
}
