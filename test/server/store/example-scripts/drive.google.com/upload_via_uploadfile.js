// reduck/drive.google.com/upload_via_uploadfile: upload a file into the root of My Drive through
// the file field behind Drive's upload button, then confirm a new row bearing it appears in the list.
const input = "test-upload.pdf";
await builtins.goto("https://drive.google.com/drive/my-drive", { waitUntil: "domcontentloaded" });
const field = 'input[type="file"][name="Filedata"]';
await builtins.waitFor(field, "attached");
const rows = page.locator('[role="grid"][aria-label="Files"] [role="row"]');
const before = await rows.count();
// `test-upload.pdf` is required by the input schema, so the run never starts without it.
await builtins.uploadFile(field, input);
// The new row, not one that was there before: its id and the name Drive stored the file under.
const added = rows.nth(before);
await added.waitFor();
return { fileId: await added.getAttribute("data-id"), filename: (await added.locator(".name").textContent()).trim() };
