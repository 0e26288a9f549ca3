// Redaction cost on hostile service strings: redactText on inputs shaped to make a backtracking
// pattern rescan ("-eyJ" repeated, dot chains, header names, token runs) against a plain string
// of the same length, at 80 KB and at the 8 MB answer cap.
// Input (argv[2], JSON): {core, runs}. Output (last stdout line, JSON): per size, hostile and plain ms.
import { createRequire } from 'node:module';

const input = JSON.parse(process.argv[2]);
const { redactText } = createRequire(import.meta.url)(input.core);

const HOSTILE = {
  'jwt-prefix': '-eyJ',
  'dot-chain': 'eyJ.',
  'header': 'Authorization: ',
  'token-run': 'Aa1-',
};
const PLAIN = 'player joined lobby ';

const fill = (unit, n) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

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

const out = {};
for (const [label, n] of [['80KB', 80_000], ['8MB', 8_000_000]]) {
  const plain = fill(PLAIN, n);
  const plainMs = median(() => redactText(plain));
  const hostile = {};
  for (const [name, unit] of Object.entries(HOSTILE)) {
    const s = fill(unit, n);
    hostile[name] = median(() => redactText(s));
  }
  const [worst, worstMs] = Object.entries(hostile).sort((a, b) => b[1] - a[1])[0];
  out[label] = { chars: n, plainMs, hostile, worst, worstMs };
}
console.log(JSON.stringify(out));
