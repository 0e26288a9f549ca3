// Redaction cost on hostile service strings: redactText's scan (unclipped) on token-like inputs
// generated from an alphabet of JWT, token and header fragments (test/unit/fuzz/tokenShapes.ts,
// a fixed seed), plus the shapes found before ("-eyJ", "eyJ.", header names, token runs, and
// "eyeye." repeated before one "eyJ", which was quadratic). The worst of them is searched for at
// 80 KB, and the slowest few are measured again at the 8 MB answer cap; each against a plain
// string of the same length.
// Input (argv[2], JSON): {core, runs, candidates}. Output (last stdout line, JSON): per size, plain and worst ms.
import { createRequire } from 'node:module';

const input = JSON.parse(process.argv[2]);
const { fill, redactText, sampleShapes } = createRequire(import.meta.url)(input.core);

const KNOWN = [
  { prefix: '', unit: '-eyJ', suffix: '' },
  { prefix: '', unit: 'eyJ.', suffix: '' },
  { prefix: '', unit: 'eyJaaaaa.', suffix: '' },
  { prefix: '', unit: 'Authorization: ', suffix: '' },
  { prefix: '', unit: 'Aa1-', suffix: '' },
  { prefix: '', unit: 'eyeye.', suffix: 'eyJ' },
];
const PLAIN = { prefix: '', unit: 'player joined lobby ', suffix: '' };
const FINALISTS = 5;

// The scan itself: no clip (the product clips messages first; the bench measures the worst case).
const scan = (s) => redactText(s, [], Infinity);

function median(fn) {
  const times = [];
  for (let r = 0; r < input.runs; r++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const label = (shape) => JSON.stringify(shape).slice(0, 80);
const shapes = [...KNOWN, ...sampleShapes(input.candidates)];

// The search, at 80 KB: every candidate once, then the slowest few again (median).
const searchSize = 80_000;
const timed = shapes.map((shape) => {
  const s = fill(shape, searchSize);
  const t = performance.now();
  scan(s);
  return { shape, ms: performance.now() - t };
}).sort((a, b) => b.ms - a.ms);
const finalists = timed.slice(0, FINALISTS).map((x) => x.shape);

const out = { candidates: shapes.length };
for (const [name, n] of [['80KB', searchSize], ['8MB', 8_000_000]]) {
  const plain = fill(PLAIN, n);
  const plainMs = median(() => scan(plain));
  const hostile = finalists.map((shape) => {
    const s = fill(shape, n);
    return { shape: label(shape), ms: median(() => scan(s)) };
  }).sort((a, b) => b.ms - a.ms);
  out[name] = { chars: n, plainMs, worst: hostile[0].shape, worstMs: hostile[0].ms, finalists: hostile };
}
console.log(JSON.stringify(out));
