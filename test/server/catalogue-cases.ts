// One valid run of each sandbox catalogue script and what its result must say (catalogue-scripts.test.ts runs them).
import { createHash } from "node:crypto";
import { expect } from "vitest";

export const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/** Bytes that are not all alike, so a checksum of the wrong bytes cannot pass. */
export const bytesOf = (size: number, seed = 7) => new Uint8Array(size).map((_, i) => (i * 31 + seed) % 256);
export const PDF = new Uint8Array([...new TextEncoder().encode("%PDF-1.4\n"), ...bytesOf(6000)]);
export const PNG = new Uint8Array([...Buffer.from("89504e470d0a1a0a", "hex"), ...bytesOf(3000, 3)]);

export const CHANNEL = "https://discord.com/channels/1100000000000000001/1100000000000000002";

export interface Case {
  args: Record<string, unknown>;
  /** Files by input name, sent as multipart bytes (named after the input, as the service does). */
  files?: Record<string, Uint8Array>;
  /** What the result must say beyond its contract. */
  expected: Record<string, unknown>;
}

/** One valid run of each catalogue script, by address. */
export const CASES: Record<string, Case> = {
  "admin.atlassian.com/download_invoice": {
    args: { id: "inv_42", transaction_account: "acct_9", number: "IN-EU-002" },
    expected: { filename: "IN-EU-002.pdf", pdf_base64: expect.stringMatching(/^JVBERi0/), via: "direct", size_bytes: expect.any(Number) },
  },
  "csm-testcenter.org/upload_via_uploadfile": {
    args: {},
    files: { "test-upload.pdf": PDF },
    expected: {
      url: "https://www.csm-testcenter.org/test?do=test&subdo=common&test=file_upload",
      uploaded: { field: "file_upload", name: "test-upload.pdf", size: PDF.length, type: expect.any(String) },
      resultText: "1 file uploaded successfully.",
      fields: { Field: "file_upload", Filename: "test-upload.pdf", Size: String(PDF.length), "Content type": expect.any(String), SHA256: sha256(PDF) },
      sha256: sha256(PDF),
    },
  },
  "discord.com/post_message": {
    args: { channelUrl: CHANNEL, message: "  Weekly report attached  " },
    files: { attachment: PNG },
    expected: {
      sent: true,
      dry_run: false,
      channelId: "1100000000000000002",
      messageId: expect.stringMatching(/^\d{17,20}$/),
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      content: "Weekly report attached",
      attachment: expect.objectContaining({ filename: "attachment", size: PNG.length, sha256: sha256(PNG) }),
    },
  },
  "docusign.com/upload_document": {
    args: { documentName: "contract.pdf" },
    files: { document: PDF },
    expected: {
      status: "created",
      accountId: "sandbox-account",
      envelopeId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      document: { name: "contract.pdf", size: PDF.length, type: "application/pdf", sha256: sha256(PDF) },
      draftUrl: expect.stringMatching(/^https:\/\/app\.docusign\.com\/prepare\//),
    },
  },
  "drive.google.com/upload_via_uploadfile": {
    args: {},
    files: { "test-upload.pdf": PDF },
    expected: { fileId: expect.stringMatching(/^1[A-Za-z0-9_-]{32}$/), filename: "test-upload.pdf" },
  },
  "mail.google.com/create_draft": {
    args: { to: ["a@example.com"], cc: ["c@example.com"], subject: "Plan for Q3", body: "First thoughts" },
    expected: {
      status: "saved",
      subject: "Plan for Q3",
      to: ["a@example.com"],
      verifiedInDrafts: true,
      verifiedBy: "subject",
      draftsCountBefore: 1,
      draftsCountAfter: 2,
    },
  },
  "mail.google.com/reply_to_email": {
    args: { threadId: "19f2817451c27480", body: "Thanks, paid today.", replyAll: true, cc: "boss@example.com", attachmentName: "receipt.png" },
    files: { attachment: PNG },
    expected: {
      sent: true,
      replyAll: true,
      threadId: "19f2817451c27480",
      subject: "Invoice for October",
      cc: ["accounts@example.com", "boss@example.com"],
      attachment: "receipt.png",
    },
  },
  "mail.google.com/send_email": {
    args: { to: ["a@example.com", "b@example.com"], cc: "c@example.com", subject: "Our new banner", body: "Hello", attachmentName: "banner.png" },
    files: { attachment: PNG },
    expected: { sent: true, to: ["a@example.com", "b@example.com"], cc: ["c@example.com"], bcc: [], subject: "Our new banner", attachment: "banner.png" },
  },
  "slack.com/upload_file": {
    args: { channel: "#random", content: "12:00 deploy ok\n12:05 deploy ok\n", filename: "deploys.log", title: "Today's deploys", comment: "FYI" },
    expected: {
      ok: true,
      id: expect.stringMatching(/^F[A-Z0-9]{10}$/),
      name: "deploys.log",
      title: "Today's deploys",
      permalink: expect.stringMatching(/^https:\/\/sandbox\.slack\.com\/files\/U0SANDBOX1\/F[A-Z0-9]{10}\/deploys\.log$/),
    },
  },
  "wise.com/attach_receipt": {
    args: { txid: "2980039980", b64: Buffer.from(PDF).toString("base64"), filename: "taxi.pdf" },
    expected: { txid: "2980039980", attached: true, attachmentSection: `Attachments: taxi.pdf (${PDF.length} bytes, application/pdf)` },
  },
};
