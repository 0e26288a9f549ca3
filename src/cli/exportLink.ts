// `request record-export`: the export's download link is a bearer link to the person's data, so it
// never goes through the command line (other local users read a process's arguments in /proc). It
// is read from standard input (typed or pasted at a terminal without echo, or piped in), or from a
// file of the user's own (--url-file: the journal's own-file rules, and not readable by others).
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ownProblem } from '../core/files/ownFile';
import { ownFolderProblem, ownPathProblem } from '../core/files/ownFiles';
import { shownReceiptId } from '../core/serviceText';
import { UsageError } from './args';

/** More than any download link (linkProblem refuses past 4000 characters). */
const MAX_LINK_BYTES = 64 * 1024;

export const URL_REFUSED = '--url is not accepted: a download link on the command line is visible to other users of this machine (ps, /proc) while the command runs, '
  + 'and it leads to the person\'s data. Give it on standard input (the command asks for it at a terminal, without echo; or pipe it in), or in a file of your own with --url-file FILE.';

/** The first non-empty line of `text`, trimmed. */
const firstLine = (text: string): string => text.split(/\r?\n/).map((l) => l.trim()).find((l) => l.length > 0) ?? '';

/** The link in `path`: a regular file of the user's own, in a folder of the user's own, not a link, readable and writable by the user alone. */
async function linkFromFile(path: string): Promise<string> {
  const label = `--url-file ${path}`;
  const folder = await ownFolderProblem(dirname(resolve(path)), label);
  if (folder !== undefined) throw new UsageError(folder);
  let fh;
  try {
    // O_NOFOLLOW: a symbolic link planted at the path is refused, not followed; the checks below are of the file opened.
    fh = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new UsageError(`${label}: the file is a symbolic link, which could lead to another user's file; give the real path of a file of your own.`);
    throw new UsageError(`${label} cannot be read (${code ?? (e as Error).message}); write the link from the e-mail into a file of your own (chmod 600) and give its path.`);
  }
  try {
    const st = await fh.stat();
    const own = ownProblem(st, false);
    if (own !== undefined) throw new UsageError(ownPathProblem(label, 'the file', st, false)!);
    if (process.getuid !== undefined && (st.mode & 0o077) !== 0) {
      throw new UsageError(`${label}: the file can be read by group or others (mode ${(st.mode & 0o7777).toString(8)}), and it holds a link to the person's data; run chmod 600 on it.`);
    }
    if (st.size > MAX_LINK_BYTES) throw new UsageError(`${label} holds ${st.size} bytes: put only the download link in it.`);
    return firstLine(await fh.readFile('utf8'));
  } finally {
    await fh.close();
  }
}

/** Reads a line at a terminal with echo off: nothing typed or pasted is shown. Ctrl+C cancels. */
function lineWithoutEcho(input: NodeJS.ReadStream, prompt: string, err: NodeJS.WritableStream): Promise<string> {
  return new Promise((done, fail) => {
    let line = '';
    const finish = (then: () => void): void => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      err.write('\n');
      then();
    };
    const onData = (chunk: Buffer | string): void => {
      for (const c of chunk.toString()) {
        if (c === '\r' || c === '\n' || c === '\u0004') return finish(() => done(line.trim()));
        if (c === '\u0003') return finish(() => fail(new UsageError('Cancelled: no link was recorded.')));
        if (c === '\u007f' || c === '\b') line = line.slice(0, -1);
        else if (line.length < MAX_LINK_BYTES) line += c;
      }
    };
    err.write(prompt);
    input.setRawMode(true);
    input.on('data', onData);
    input.resume();
  });
}

/** Everything piped in on `input` (up to MAX_LINK_BYTES), its first non-empty line. */
async function linkFromPipe(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += chunk.toString();
    if (text.length > MAX_LINK_BYTES) throw new UsageError(`Standard input holds more than ${MAX_LINK_BYTES} characters: give only the download link.`);
  }
  return firstLine(text);
}

/** The link of export `receipt`: from `urlFile`, else from standard input (a terminal: asked for, not echoed). */
export async function readExportLink(receipt: string, urlFile: string | undefined, io: { stdin: NodeJS.ReadStream; stderr: NodeJS.WritableStream } = process): Promise<string> {
  if (urlFile !== undefined) {
    const link = await linkFromFile(urlFile);
    if (link === '') throw new UsageError(`--url-file ${urlFile} is empty: write the download link from the e-mail into it.`);
    return link;
  }
  const link = io.stdin.isTTY
    ? await lineWithoutEcho(io.stdin, `Paste the download link of export ${shownReceiptId(receipt)} from the e-mail (it is not shown), then press Enter: `, io.stderr)
    : await linkFromPipe(io.stdin);
  if (link === '') throw new UsageError('No download link was given: paste it when asked, pipe it in on standard input, or give --url-file FILE (a file of your own holding it).');
  return link;
}
