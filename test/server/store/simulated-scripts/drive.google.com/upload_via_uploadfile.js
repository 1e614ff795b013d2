// reduck/drive.google.com/upload_via_uploadfile: upload a file into the root of My Drive through
// the file field behind Drive's upload button, then confirm a new row bearing it appears in the list.
// The simulated page's twin of examples/scripts/drive.google.com/upload_via_uploadfile.js (same contract and result): the simulated page keeps
// no file list, so the new row's id is made here as Drive makes them, and its name is the name the
// file field holds (page.fileInput).
const input = "test-upload.pdf";
await builtins.goto("https://drive.google.com/drive/my-drive", { waitUntil: "domcontentloaded" });
const field = 'input[type="file"][name="Filedata"]';
await builtins.waitFor(field, "attached");
await builtins.uploadFile(field, input);
await builtins.waitFor('[role="grid"][aria-label="Files"] [role="row"]', "attached");
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const fileId = "1" + [...crypto.getRandomValues(new Uint8Array(32))].map((b) => ALPHABET[b % 64]).join("");
return { fileId, filename: page.fileInput(field).name };
