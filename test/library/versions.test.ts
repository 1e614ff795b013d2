import { describe, expect, test } from "vitest";
import {
  listScriptVersions,
  createDraftScriptVersion,
  getScriptVersion,
  patchDraftScriptVersion,
  deleteDraftScriptVersion,
  promoteScriptVersion,
  getScript,
  archiveScript,
} from "../../src/index.js";
import { SEED_IDS } from "@reduck-client/sandbox";
import { useSandboxClient } from "../support/sandbox-client.js";

const ref = useSandboxClient({ fresh: true });
const path = { handle: "@demo", host: "example.com", slug: "get_title" };

describe("versions", () => {
  test("listed newest first, filtered by draft state", async () => {
    const all = await listScriptVersions({ client: ref.client, path });
    expect(all.data!.map((v) => v.id)).toEqual([SEED_IDS.versions.getTitleV2, SEED_IDS.versions.getTitleV1]);
    const drafts = await listScriptVersions({ client: ref.client, path, query: { draft: "true" } });
    expect(drafts.data).toEqual([]);
  });

  test("a draft copies the current version; patch it, promote it, roll back", async () => {
    const draft = await createDraftScriptVersion({ client: ref.client, path, body: { note: "read og:title too", content: "return { title: 'og' };" } });
    expect(draft.response?.status).toBe(201);
    expect(draft.data).toMatchObject({ draft: true, parent_version_id: SEED_IDS.versions.getTitleV2 });
    expect(draft.data!.diff.code).toContain("+return { title: 'og' };");
    const versionId = draft.data!.id;

    const patched = await patchDraftScriptVersion({ client: ref.client, path: { ...path, versionId }, body: { note: "og:title first" } });
    expect(patched.data?.note).toBe("og:title first");

    const promoted = await promoteScriptVersion({ client: ref.client, path: { ...path, versionId } });
    expect(promoted.data?.draft).toBe(false);
    expect((await getScript({ client: ref.client, path })).data?.current_version_id).toBe(versionId);

    // Promoting an older version is a rollback.
    await promoteScriptVersion({ client: ref.client, path: { ...path, versionId: SEED_IDS.versions.getTitleV1 } });
    expect((await getScript({ client: ref.client, path })).data?.current_version_id).toBe(SEED_IDS.versions.getTitleV1);

    // No longer a draft: it can't be patched or deleted.
    expect((await patchDraftScriptVersion({ client: ref.client, path: { ...path, versionId }, body: { note: "x" } })).error?.status).toBe(409);
    expect((await deleteDraftScriptVersion({ client: ref.client, path: { ...path, versionId } })).error?.status).toBe(409);
  });

  test("a draft identical to the current version is a 409", async () => {
    const { error } = await createDraftScriptVersion({ client: ref.client, path, body: { note: "no change" } });
    expect(error?.status).toBe(409);
  });

  test("deleting a draft removes it", async () => {
    const draft = await createDraftScriptVersion({ client: ref.client, path, body: { note: "try", content: "return { title: '' };" } });
    const versionId = draft.data!.id;
    const deleted = await deleteDraftScriptVersion({ client: ref.client, path: { ...path, versionId } });
    expect(deleted.error).toBeUndefined();
    expect(deleted.response?.status).toBe(204);
    expect((await getScriptVersion({ client: ref.client, path: { ...path, versionId } })).error?.status).toBe(404);
  });

  test("getScriptVersion reads code and contract", async () => {
    const { data } = await getScriptVersion({ client: ref.client, path: { ...path, versionId: SEED_IDS.versions.getTitleV1 } });
    expect(data?.content).toMatch(/^await page\.goto\(args\.url\);\n/);
    expect(data?.input_schema).toMatchObject({ type: "object" });
  });

  test("an archived script takes no new draft and no promotion", async () => {
    await archiveScript({ client: ref.client, path });
    expect((await createDraftScriptVersion({ client: ref.client, path, body: { note: "x", content: "return 2" } })).error?.status).toBe(409);
    expect((await promoteScriptVersion({ client: ref.client, path: { ...path, versionId: SEED_IDS.versions.getTitleV1 } })).error?.status).toBe(409);
  });
});
