/**
 * set_host_readme: writes the notes for all of an owner's scripts on one site.
 */
import { setHostReadme } from "../../generated/operations.js";
import { answer, failWith, type ToolContext, type ToolResult } from "../shared/answers.js";
import { cutText } from "../shared/bounded.js";
import { DOCUMENT_CHARS } from "../shared/limits.js";
import type { Input } from "../shared/tool-schemas.js";
import { readmeOwner, unknownOwner } from "../shared/readme-owner.js";
import { REPLACE, type Tool } from "../shared/tool.js";

async function handle(ctx: ToolContext, input: Input<"setHostReadmeInput">): Promise<ToolResult> {
  const path = await readmeOwner(ctx, input);
  if ("content" in path) return path;
  const written = await setHostReadme({ client: ctx.client, path, body: { content: input.content } });
  if (written.error?.status === 404) return (await unknownOwner(ctx, path.handle)) ?? failWith(written.error);
  if (written.error) return failWith(written.error);
  return answer({
    ...path,
    content: cutText(written.data.content, DOCUMENT_CHARS),
    updatedAt: written.data.updated_at,
    next: "It replaced the README that was there; it is readable wherever the owner has a public script on this host.",
  });
}

export const setHostReadmeTool: Tool = {
  name: "set_host_readme",
  spec: ({ s }) => ({
    title: "Write a host's README",
    description:
      "Writes the notes for all of an owner's scripts on one site (Markdown, up to 20,000 characters), replacing the README that was there. Needs the right to edit that owner's scripts.",
    input: s.setHostReadmeInput,
    output: s.readmeOutput,
    annotations: REPLACE,
    usage: 'set_host_readme { host: "example.com", content: "# example.com\\nSign in first." }',
  }),
  run: handle,
};
