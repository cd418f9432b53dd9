/**
 * Writing a file so that a reader never sees half of it: the data goes to a temporary file in
 * the same folder (same file system, so the rename is atomic), is flushed to disk, and is then
 * renamed over the target. An interrupted write (Ctrl-C, a crash, a full disk) leaves the old
 * file or none, never a truncated one, and removes its temporary file when it can.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';

let sequence = 0;

/** The temporary name `writeFileAtomic` uses for `file`: hidden, in the same folder, unique per process, thread and call. */
export function temporaryPathFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.${threadId}.${sequence++}.tmp`);
}

/**
 * Writes `data` to `file` atomically (temporary file in the same folder, fsync, rename). With
 * `mkdir`, creates the folder first. Throws what the file system threw, after removing the
 * temporary file.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, options: { readonly mkdir?: boolean } = {}): void {
  if (options.mkdir) mkdirSync(dirname(file), { recursive: true });
  const temporary = temporaryPathFor(file);
  let fd: number | undefined;
  try {
    fd = openSync(temporary, 'wx', 0o644);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, file);
  } catch (error) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // already failing: the first error is the one to report
      }
    }
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** `value` as indented JSON with a final newline, written atomically (see `writeFileAtomic`). */
export function writeJsonAtomic(
  file: string,
  value: unknown,
  options: { readonly mkdir?: boolean; readonly replacer?: (key: string, value: unknown) => unknown } = {},
): void {
  writeFileAtomic(file, JSON.stringify(value, options.replacer, 2) + '\n', options);
}
