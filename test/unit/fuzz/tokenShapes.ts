// Generated token-like text for redaction's cost: structures built from an alphabet of JWT,
// token and header fragments (not a fixed list of shapes), repeated to a size. Shared by the
// fuzz test (which counts redaction's steps) and `npm run bench` (which times the worst).
import fc from 'fast-check';

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A run of base64url characters, 1 to 12 long. */
const base64Run = fc.array(fc.constantFrom(...B64URL), { minLength: 1, maxLength: 12 }).map((cs) => cs.join(''));

/** Fragments of JWTs and tokens only (no separator): long runs of the JWT alphabet come of these. */
export const jwtFragment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('eyJ', 'ey', 'e', 'y', 'J', '.', '..', '-', '_', '-eyJ', '.eyJ', 'eye', 'yJ') },
  { weight: 2, arbitrary: base64Run },
);

/** Every fragment: JWT and token pieces, other token characters, header names and separators. */
export const fragment: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: jwtFragment },
  { weight: 2, arbitrary: fc.constantFrom('+', '/', '=', 'A1', 'Z9', '0') },
  { weight: 2, arbitrary: fc.constantFrom(' ', ':', '"', '\'', ',', ';', '}', '\n', '\t', '\u00a0', '•') },
  { weight: 1, arbitrary: fc.constantFrom('Authorization', 'X-Authorization', 'x-secretkey', 'X-EntityToken', 'Bearer ', ': ', '=', '"') },
);

/** A hostile structure: a prefix, a unit repeated to fill the size, a suffix (e.g. one "eyJ" at the end). */
export interface TokenShape {
  prefix: string;
  unit: string;
  suffix: string;
}

const pieces = (f: fc.Arbitrary<string>, minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.array(f, { minLength, maxLength }).map((p) => p.join(''));

/** Units of JWT pieces alone (one long run) more often than mixed ones (runs cut by separators). */
export const tokenShape: fc.Arbitrary<TokenShape> = fc.record({
  prefix: pieces(fragment, 0, 4),
  unit: fc.oneof({ weight: 3, arbitrary: pieces(jwtFragment, 1, 8) }, { weight: 2, arbitrary: pieces(fragment, 1, 8) }),
  suffix: pieces(fragment, 0, 4),
});

/** The shape's text at about `size` characters. */
export function fill(shape: TokenShape, size: number): string {
  const n = Math.max(1, Math.ceil((size - shape.prefix.length - shape.suffix.length) / shape.unit.length));
  return shape.prefix + shape.unit.repeat(n) + shape.suffix;
}

/** `count` shapes from a fixed seed (the bench's candidates; the same ones every run). */
export function sampleShapes(count: number, seed = 22): TokenShape[] {
  return fc.sample(tokenShape, { numRuns: count, seed });
}
