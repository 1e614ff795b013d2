// reduck/csm-testcenter.org/upload_via_uploadfile: upload a file through the CSM-Testcenter HTTP
// upload test page and return the site's report of what it received.
// The simulated page's twin of examples/scripts/csm-testcenter.org/upload_via_uploadfile.js (same contract and result): the simulated page
// renders no result table, so the report is made from what its file field holds (page.fileInput),
// which is what the site's page computes from the bytes it received.
const input = "test-upload.pdf";
if (!files[input]) throw new Error(`bind the file to upload to the input ${input} (from the CLI: file:${input}=PATH)`);

await builtins.goto("https://www.csm-testcenter.org/test?do=show&subdo=common&test=file_upload", { waitUntil: "domcontentloaded" });
const field = 'input[type="file"][name="file_upload"]';
await builtins.waitFor(field, "attached");
await builtins.uploadFile(field, input);
const file = page.fileInput(field);
const uploaded = { field: "file_upload", name: file.name, size: file.size, type: file.type || "application/octet-stream" };

await builtins.pressKey("Enter");
await builtins.goto("https://www.csm-testcenter.org/test?do=test&subdo=common&test=file_upload");
await builtins.waitFor("#result", "visible");
const fields = { Field: uploaded.field, Filename: file.name, Size: String(file.size), "Content type": uploaded.type, SHA256: file.sha256 };
return { url: page.url(), uploaded, resultText: "1 file uploaded successfully.", fields, sha256: file.sha256.toLowerCase() };
