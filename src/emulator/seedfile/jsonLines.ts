// JSON text with the line of every member and array entry, so a seed file's errors can say
// "line 12, titles[0].secretKey" instead of a path the user has to count out by hand.

/** A parsed JSON document and the 1-based line where each value starts, keyed by path (`titles[0].name`). */
export interface LocatedJson {
  value: unknown;
  lines: Map<string, number>;
}

export class JsonSyntaxError extends Error {
  constructor(readonly line: number, message: string) {
    super(message);
  }
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** `base` + one step: `.name` for members (bracketed when not a plain name), `[i]` for entries. */
export function childPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
  return base === '' ? name : /^[A-Za-z_$]/.test(name) ? `${base}.${name}` : `${base}[${name}]`;
}

/** Parses `text` (JSON.parse decides validity); a syntax error names its line. */
export function parseLocated(text: string): LocatedJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec((e as Error).message);
    const line = m ? lineAt(text, Number(m[1])) : lineAt(text, text.length);
    throw new JsonSyntaxError(line, (e as Error).message.replace(/^JSON\.parse: /, ''));
  }
  return { value, lines: locate(text) };
}

interface Frame {
  path: string;
  array: boolean;
  index: number;
  key?: string;
}

/** One pass over valid JSON: records where every value starts. */
// eslint-disable-next-line complexity -- a one-pass JSON scanner: one case per token
function locate(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  const stack: Frame[] = [];
  let line = 1;
  const here = (): string => {
    const top = stack[stack.length - 1];
    if (!top) return '';
    return top.array ? childPath(top.path, top.index) : childPath(top.path, top.key ?? '');
  };
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') { line++; continue; }
    if (c === ' ' || c === '\t' || c === '\r' || c === ':') continue;
    if (c === ',') {
      const top = stack[stack.length - 1];
      if (top?.array) top.index++;
      else expectKey = true;
      continue;
    }
    if (c === '}' || c === ']') { stack.pop(); expectKey = false; continue; }
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (expectKey) {
        stack[stack.length - 1].key = JSON.parse(text.slice(i, j + 1)) as string;
        expectKey = false;
      } else lines.set(here(), line);
      i = j;
      continue;
    }
    // A value starts: an object, an array or a scalar.
    const path = here();
    lines.set(path, line);
    if (c === '{') { stack.push({ path, array: false, index: 0 }); expectKey = true; continue; }
    if (c === '[') { stack.push({ path, array: true, index: 0 }); continue; }
    while (i + 1 < text.length && !/[\s,\]}]/.test(text[i + 1])) i++;
  }
  return lines;
}

/** The line of `path`, or of its nearest located parent (a missing member is reported at its object). */
export function lineOf(lines: Map<string, number>, path: string): number {
  let p = path;
  for (;;) {
    const l = lines.get(p);
    if (l !== undefined) return l;
    if (p === '') return 1;
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    p = cut > 0 ? p.slice(0, cut) : '';
  }
}
