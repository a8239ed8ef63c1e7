import type { Readable } from "node:stream";
import yauzl, { type Entry, type ZipFile } from "yauzl";

/** Parts an archive may list: an .xlsx has a few dozen; the directory is read whole. */
const MAX_PARTS = 100_000;

/**
 * A ZIP archive read at random through its central directory (yauzl): a part is inflated only when
 * asked for, from its place in the file, so parts that are not read cost nothing and nothing is
 * written to disk. yauzl checks each part's CRC and that it inflates to no more than its stated
 * size; the caller bounds the sizes.
 */
export class ZipArchive {
  private constructor(
    private readonly zip: ZipFile,
    /** Parts by lower-cased name: Office matches part names in any case. */
    private readonly parts: Map<string, Entry>,
  ) {}

  static async open(file: string): Promise<ZipArchive> {
    const zip = await yauzl.openPromise(file, {
      lazyEntries: true,
      autoClose: false,
      validateEntrySizes: true,
      strictFileNames: false,
    });
    try {
      const parts = new Map<string, Entry>();
      for await (const entry of zip.eachEntry()) {
        if (parts.size >= MAX_PARTS) throw new Error(`the archive lists more than ${MAX_PARTS} parts`);
        const name = entry.fileName.toLowerCase();
        if (!parts.has(name)) parts.set(name, entry);
      }
      return new ZipArchive(zip, parts);
    } catch (error) {
      zip.close();
      throw error;
    }
  }

  /** The part of that name (without a leading "/", any case), if any. */
  part(name: string): Entry | undefined {
    return this.parts.get(name.replace(/^\//, "").toLowerCase());
  }

  /** The part's inflated bytes, as a stream. */
  open(entry: Entry): Promise<Readable> {
    return this.zip.openReadStreamPromise(entry);
  }

  close(): void {
    if (this.zip.isOpen) this.zip.close();
  }
}
