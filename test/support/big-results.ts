/**
 * A results file as `reduck batch` writes it for a big batch, made in the test (nothing binary or
 * large is committed): a `sending` line per row (twenty rows a request), an outcome line per row
 * with the script's result or its error and `at`, a few kinds of error carrying ids and numbers,
 * some invalid rows, and the last rows still in flight.
 */
import { createWriteStream } from "node:fs";
import { once } from "node:events";

const uuid = (n: number, salt: number) =>
  `${(salt * 2654435761 + n * 40503).toString(16).padStart(8, "0").slice(-8)}-${String(n % 10000).padStart(4, "0")}-4000-8000-${String(n).padStart(12, "0")}`;

/** Writes `rows` rows' results to `file`; resolves to how many failed, were invalid and are in flight. */
export async function writeBigResults(file: string, rows: number): Promise<{ failed: number; invalid: number; inFlight: number }> {
  const out = createWriteStream(file);
  const write = async (line: unknown) => {
    if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, "drain");
  };
  const start = Date.UTC(2026, 2, 2, 9, 0, 0);
  const counts = { failed: 0, invalid: 0, inFlight: 0 };
  await write({ status: "batch", script: "reduck/mail.google.com/send_email", versionId: uuid(0, 1), shared: { subject: "Your invoice, March" } });
  for (let row = 1; row <= rows; row++) {
    const key = uuid(row, 7).replaceAll("-", "");
    const sent = start + Math.floor(row / 20) * 900;
    if (row % 97 === 0) {
      counts.invalid++;
      await write({ row, key, status: "invalid", runId: null, error: `to must be an email address (you gave "person${row}@")` });
      continue;
    }
    await write({ row, key, status: "sending", at: new Date(sent).toISOString() });
    if (row > rows - 40) {
      counts.inFlight++;
      continue;
    }
    const took = 800 + ((row * 7919) % 45_000);
    const at = new Date(sent + took).toISOString();
    const runId = uuid(row, 3);
    if (row % 13 === 0) {
      counts.failed++;
      const kinds = [
        { error: `run ${runId} did not finish within 30 s, so it was stopped`, errorType: "timeout" },
        { error: `Error: no element matches div[role="dialog"] (row ${row}) (@reduck/mail.google.com/send_email failed on the site)`, errorType: "site_error" },
        { error: "This paired browser can't read local files", errorType: "browser_unavailable" },
      ];
      await write({ row, key, status: "failed", runId, ...kinds[row % 3]!, at });
    } else {
      await write({
        row,
        key,
        status: "completed",
        runId,
        result: { sent: true, to: [`person${row}@example.com`], cc: [], bcc: [], subject: "Your invoice, March", attachment: `invoice-${row}.pdf` },
        at,
      });
    }
  }
  out.end();
  await once(out, "finish");
  return counts;
}
