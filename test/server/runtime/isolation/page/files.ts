// Blob, File, FileList and DataTransfer, as a page's script and a script's evaluate function use
// them: a file made in the page from bytes or text holds them; a run's file put into a field by
// builtins.uploadFile holds no bytes (the sandbox keeps those; a run's file may be 50 MB) but its
// name, size, type and the SHA-256 the sandbox computed as it received it (`sha256`, which the
// simulated web's pages read where a real browser's would hash the bytes).
import { TextDecoder, TextEncoder } from "../inside/web-globals/text.js";

const encoder = new TextEncoder();

/** A run's file as the sandbox describes it. */
export interface FileDescription {
  name: string;
  size: number;
  type: string;
  sha256: string;
}

const noBytes = (what: string) =>
  new TypeError(`${what}: the simulated page holds a run's file as its name, size, type and SHA-256, not its bytes (the real browser has them)`);

function bytesOf(part: unknown): Uint8Array {
  if (part instanceof Blob) {
    const bytes = part.held;
    if (!bytes) throw noBytes("Blob");
    return bytes;
  }
  if (part instanceof ArrayBuffer) return new Uint8Array(part.slice(0));
  if (ArrayBuffer.isView(part)) return new Uint8Array(part.buffer.slice(part.byteOffset, part.byteOffset + part.byteLength));
  return encoder.encode(String(part));
}

export class Blob {
  /** The bytes, or undefined for a run's file (see the top). */
  readonly held: Uint8Array | undefined;
  readonly size: number;
  readonly type: string;
  /** A run's file's SHA-256 (hex), known without its bytes. */
  readonly digest: string | undefined;

  constructor(parts: unknown[] = [], options: { type?: string } = {}) {
    this.type = String(options?.type ?? "").toLowerCase();
    const list = [...(parts as Iterable<unknown>)];
    const only = list.length === 1 && list[0] instanceof Blob ? list[0] : undefined;
    if (only && !only.held) {
      // A renamed copy of a run's file (`new File([file], name)`): still that file, without its bytes.
      this.held = undefined;
      this.size = only.size;
      this.digest = only.digest;
      return;
    }
    const chunks = list.map(bytesOf);
    const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    this.held = bytes;
    this.size = bytes.length;
    this.digest = undefined;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    if (!this.held) throw noBytes("arrayBuffer");
    return this.held.slice().buffer;
  }

  async bytes(): Promise<Uint8Array> {
    if (!this.held) throw noBytes("bytes");
    return this.held.slice();
  }

  async text(): Promise<string> {
    if (!this.held) throw noBytes("text");
    return new TextDecoder().decode(this.held);
  }

  slice(start = 0, end = this.size, type = ""): Blob {
    if (!this.held) throw noBytes("slice");
    return new Blob([this.held.slice(start, end)], { type });
  }
}

export class File extends Blob {
  readonly name: string;
  readonly lastModified: number;

  constructor(parts: unknown[], name: string, options: { type?: string; lastModified?: number } = {}) {
    if (arguments.length < 2) throw new TypeError("File: give the parts and a name");
    super(parts, options);
    this.name = String(name);
    this.lastModified = Number(options?.lastModified ?? Date.now());
  }

  /** A run's file's SHA-256 (hex), which the sandbox computed; undefined for a file made in the page. */
  get sha256(): string | undefined {
    return this.digest;
  }
}

/** A run's file, as builtins.uploadFile puts it into a field. */
export function describedFile(file: FileDescription): File {
  const made = new File([], file.name, { type: file.type });
  Object.assign(made, { held: undefined, size: file.size, digest: file.sha256 });
  return made;
}

export class FileList {
  [index: number]: File;
  readonly length: number;

  constructor(files: File[]) {
    files.forEach((file, i) => {
      this[i] = file;
    });
    this.length = files.length;
  }

  item(index: number): File | null {
    return this[index] ?? null;
  }

  *[Symbol.iterator](): IterableIterator<File> {
    for (let i = 0; i < this.length; i++) yield this[i]!;
  }
}

export class DataTransferItem {
  constructor(
    readonly kind: "file" | "string",
    readonly type: string,
    readonly data: File | string,
  ) {}

  getAsFile(): File | null {
    return this.kind === "file" ? (this.data as File) : null;
  }

  getAsString(callback: (text: string) => void): void {
    if (this.kind === "string" && typeof callback === "function") Promise.resolve().then(() => callback(this.data as string));
  }
}

export class DataTransferItemList {
  #items: DataTransferItem[] = [];

  get length(): number {
    return this.#items.length;
  }

  add(data: unknown, type?: string): DataTransferItem | null {
    if (data instanceof File) {
      const item = new DataTransferItem("file", data.type, data);
      this.#items.push(item);
      return item;
    }
    if (type === undefined) throw new TypeError("DataTransferItemList.add: give a File, or a string and its type");
    const item = new DataTransferItem("string", String(type).toLowerCase(), String(data));
    this.#items = this.#items.filter((other) => !(other.kind === "string" && other.type === item.type));
    this.#items.push(item);
    return item;
  }

  remove(index: number): void {
    this.#items.splice(index, 1);
  }

  clear(): void {
    this.#items = [];
  }

  all(): DataTransferItem[] {
    return [...this.#items];
  }

  *[Symbol.iterator](): IterableIterator<DataTransferItem> {
    yield* this.#items;
  }
}

export class DataTransfer {
  readonly items = new DataTransferItemList();
  dropEffect = "none";
  effectAllowed = "all";

  get files(): FileList {
    return new FileList(
      this.items
        .all()
        .map((item) => item.getAsFile())
        .filter((file): file is File => file !== null),
    );
  }

  get types(): string[] {
    return this.items.all().map((item) => (item.kind === "file" ? "Files" : item.type));
  }

  setData(type: string, data: string): void {
    this.items.add(String(data), String(type));
  }

  getData(type: string): string {
    const wanted = String(type).toLowerCase() === "text" ? "text/plain" : String(type).toLowerCase();
    const item = this.items.all().find((i) => i.kind === "string" && i.type === wanted);
    return item ? String(item.data) : "";
  }

  clearData(): void {
    this.items.clear();
  }
}
