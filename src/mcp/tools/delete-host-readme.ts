/**
 * delete_host_readme: deletes the README of one site for an owner.
 */
import { deleteHostReadme } from "../../generated/operations.js";
import { answer, failWith, type ToolContext, type ToolResult } from "../common/answers.js";
import type { Input } from "../common/tool-schemas.js";
import { readmeOwner, unknownOwner } from "../common/readme-owner.js";
import { REPLACE, type Tool } from "../common/tool.js";

async function handle(ctx: ToolContext, input: Input<"readHostReadmeInput">): Promise<ToolResult> {
  const path = await readmeOwner(ctx, input);
  if ("content" in path) return path;
  const deleted = await deleteHostReadme({ client: ctx.client, path });
  if (deleted.error?.status === 404) return (await unknownOwner(ctx, path.handle)) ?? failWith(deleted.error);
  if (deleted.error) return failWith(deleted.error);
  return answer({ address: `${path.handle}/${path.host}`, deleted: "its README (if it had one)" });
}

export const deleteHostReadmeTool: Tool = {
  name: "delete_host_readme",
  spec: ({ s }) => ({
    title: "Delete a host's README",
    description: "Deletes the README of one site for an owner, for good. Deleting one that is not there changes nothing.",
    input: s.readHostReadmeInput,
    output: s.deletedOutput,
    annotations: REPLACE,
    usage: 'delete_host_readme { host: "example.com" }',
  }),
  run: handle,
};
