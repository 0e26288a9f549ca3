// The entries of a zip file (a VSIX), read from its central directory: their names, and their
// bytes when asked; enough to check what a package holds without an unzip tool.
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

function centralDirectory(file, buf) {
  // The end-of-central-directory record sits in the last 22 + 65535 bytes (comment max).
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65535); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip file (no end of central directory)`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: bad central directory entry ${n}`);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    entries.push({
      name: buf.toString('utf8', p + 46, p + 46 + nameLen),
      method: buf.readUInt16LE(p + 10), size: buf.readUInt32LE(p + 20), local: buf.readUInt32LE(p + 42),
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

export function zipEntries(file) {
  return centralDirectory(file, readFileSync(file)).map((e) => e.name);
}

/** Every entry with its bytes (stored or deflated, the two methods vsce writes). */
export function zipFiles(file) {
  const buf = readFileSync(file);
  return centralDirectory(file, buf).map((e) => {
    if (buf.readUInt32LE(e.local) !== 0x04034b50) throw new Error(`${file}: bad local header of ${e.name}`);
    const start = e.local + 30 + buf.readUInt16LE(e.local + 26) + buf.readUInt16LE(e.local + 28);
    const raw = buf.subarray(start, start + e.size);
    if (e.method === 0) return { name: e.name, data: Buffer.from(raw) };
    if (e.method === 8) return { name: e.name, data: inflateRawSync(raw) };
    throw new Error(`${file}: ${e.name} uses zip method ${e.method}`);
  });
}
