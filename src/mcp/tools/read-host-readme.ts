/**
 * read_host_readme: the notes an owner keeps for all their scripts on one site.
 */
import { getHostReadme } from "../../generated/operations.js";
import { answer, failWith, type ToolContext, type ToolResult } from "../common/answers.js";
import { cutText } from "../common/bounded.js";
import { DOCUMENT_CHARS } from "../common/limits.js";
import type { Input } from "../common/tool-schemas.js";
import { readmeOwner, unknownOwner } from "../common/readme-owner.js";
import { READ, type Tool } from "../common/tool.js";

async function handle(ctx: ToolContext, input: Input<"readHostReadmeInput">): Promise<ToolResult> {
  const path = await readmeOwner(ctx, input);
  if ("content" in path) return path;
  const read = await getHostReadme({ client: ctx.client, path });
  if (read.error?.status === 404) {
    const other = await unknownOwner(ctx, path.handle);
    if (other) return other;
    return answer({
      ...path,
      content: null,
      next: `No README for ${path.handle}/${path.host} (or none you may read). set_host_readme { host: "${path.host}"${input.handle ? `, handle: "${path.handle}"` : ""}, content } writes one.`,
    });
  }
  if (read.error) return failWith(read.error);
  return answer({ ...path, content: cutText(read.data.content, DOCUMENT_CHARS), updatedAt: read.data.updated_at });
}

export const readHostReadmeTool: Tool = {
  name: "read_host_readme",
  spec: ({ s }) => ({
    title: "Read a host's README",
    description:
      "The notes an owner keeps for all their scripts on one site (rate limits, login quirks, the order to run things in). Omit handle for your own. Changes nothing.",
    input: s.readHostReadmeInput,
    output: s.readmeOutput,
    annotations: READ,
    usage: 'read_host_readme { host: "example.com" }',
  }),
  run: handle,
};
