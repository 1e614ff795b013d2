/**
 * set_host_readme: writes the notes for all of an owner's scripts on one site.
 */
import type { z as Zod } from "zod";
import type { SchemaParts } from "../common/schema-parts.js";
import type { Schemas } from "../common/tool-schemas.js";
import { setHostReadme } from "../../generated/operations.js";
import { answer, failWith, type ToolContext, type ToolResult } from "../common/answers.js";
import { cutText } from "../common/bounded.js";
import { DOCUMENT_CHARS } from "../common/limits.js";
import { readmeOwner, unknownOwner } from "../common/readme-owner.js";
import { REPLACE, type Tool } from "../common/tool.js";

/** set_host_readme's input schema: a host named as the other README tools name it, and the README. */
function schemas(z: typeof Zod, { closed }: SchemaParts, hostTarget: Schemas["hostTarget"]) {
  const setHostReadmeInput = closed({
    ...hostTarget(),
    content: z.string().min(1).max(20_000).describe("The whole README (Markdown): it replaces the one there."),
  });

  return { setHostReadmeInput };
}

type Input = Zod.infer<ReturnType<typeof schemas>["setHostReadmeInput"]>;

async function handle(ctx: ToolContext, input: Input): Promise<ToolResult> {
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
  spec: ({ s, z, parts }) => {
    const own = schemas(z, parts, s.hostTarget);
    return {
      title: "Write a host's README",
      description:
        "Writes the notes for all of an owner's scripts on one site (Markdown, up to 20,000 characters), replacing the README that was there. Needs the right to edit that owner's scripts.",
      input: own.setHostReadmeInput,
      output: s.readmeOutput,
      annotations: REPLACE,
      usage: 'set_host_readme { host: "example.com", content: "# example.com\\nSign in first." }',
    };
  },
  run: handle,
};
