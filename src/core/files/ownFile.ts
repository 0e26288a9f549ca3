// Files a deletion record may be kept in (a journal, its anchor, receipts, their folders) must be
// the user's own: not a symbolic link, not another user's, not writable by group or others, so a
// file planted or swapped by another user is never obeyed, read back or written through.
import type { Stats } from 'node:fs';

export interface OwnProblem {
  /** What is wrong, to follow "<the file> ": "is a symbolic link, …". */
  problem: string;
  /** True when `chmod go-w` fixes it. */
  chmod: boolean;
}

/** What makes `st` (from lstat) not a safe file (or, with `folder`, folder) of this user's, or undefined. */
export function ownProblem(st: Stats, folder: boolean): OwnProblem | undefined {
  if (st.isSymbolicLink()) return { problem: 'is a symbolic link, which could lead to another user\'s file', chmod: false };
  if (folder ? !st.isDirectory() : !st.isFile()) return { problem: `is not a ${folder ? 'folder' : 'regular file'}`, chmod: false };
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  if (st.uid !== uid) return { problem: `belongs to another user (uid ${st.uid}), who could have planted or could change it`, chmod: false };
  if ((st.mode & 0o022) !== 0) return { problem: `is writable by group or others (mode ${(st.mode & 0o7777).toString(8)})`, chmod: true };
  return undefined;
}
