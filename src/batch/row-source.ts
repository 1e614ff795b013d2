/**
 * The rows a batch was given, read one at a time as the batch has room for them: an array, any
 * iterable, or an async iterable (a file read as it goes). Closed when the batch ends before
 * reading them all, so a file's reader lets go of the file.
 */
import type { RowValues } from "./rows.js";
import type { RunManyOptions } from "./run-many-types.js";

export class RowSource {
  private readonly iterator: AsyncIterator<RowValues> | Iterator<RowValues>;
  /** Every row has been read, or reading them failed: nothing more is read. */
  done = false;

  constructor(rows: RunManyOptions["rows"]) {
    this.iterator = (
      Symbol.asyncIterator in rows ? (rows as AsyncIterable<RowValues>)[Symbol.asyncIterator]() : (rows as Iterable<RowValues>)[Symbol.iterator]()
    ) as AsyncIterator<RowValues> | Iterator<RowValues>;
  }

  /** The next row (`done` after the last); throws what reading the rows threw, and reads no more. */
  async next(): Promise<IteratorResult<RowValues>> {
    try {
      const next = await this.iterator.next();
      if (next.done) this.done = true;
      return next;
    } catch (err) {
      this.done = true;
      throw err;
    }
  }

  /** Lets go of rows not read (an early stop). */
  async close(): Promise<void> {
    const closing = (this.iterator as AsyncIterator<RowValues>).return;
    if (!this.done && closing) await Promise.resolve(closing.call(this.iterator)).catch(() => undefined);
  }
}
