#!/usr/bin/env node
// The mutation score per folder from a Stryker JSON report (default reports/mutation/mutation.json;
// an interrupted run's reports/mutation/stryker-incremental.json works too): killed (timeouts
// count as killed: the test run noticed), survived, no coverage, and the score, killed over
// everything but the mutants that do not compile or were ignored; the score of covered leaves
// out the mutants no test reaches. An interrupted run's file holds every mutant decided before
// testing (no coverage, not compiling, static) but only the tested ones of the rest.
// Several reports (complete runs of different files): `summary.mjs A.json B.json`; a file in
// more than one is taken from the last. `--per-file` adds a row per source file.
import { readFileSync } from 'node:fs';

export const FOLDERS = [
  ['src/core/api', (f) => f.startsWith('src/core/api/')],
  ['src/core/deletion', (f) => f.startsWith('src/core/deletion/')],
  ['src/core (the rest)', (f) => f.startsWith('src/core/') && !/^src\/core\/(api|deletion)\//.test(f)],
  ['src/emulator (rateLimit, jobs)', (f) => f.startsWith('src/emulator/')],
];

/** The files of the reports at `files` (a path or a list; a file in several is taken from the last). */
function readFiles(files) {
  const merged = {};
  for (const file of [files].flat()) Object.assign(merged, JSON.parse(readFileSync(file, 'utf8')).files);
  return merged;
}

/** Counts per folder of the reports at `files`, and in all; with `perFile`, a row per source file too. */
export function summarise(files, { perFile = false } = {}) {
  const sources = readFiles(files);
  const row = (name) => ({ name, killed: 0, survived: 0, noCoverage: 0, compileErrors: 0, ignored: 0, pending: 0 });
  const rows = [...FOLDERS.map(([name]) => name), 'all'].map(row);
  const fileRows = [];
  for (const [path, { mutants }] of Object.entries(sources).sort(([a], [b]) => a.localeCompare(b))) {
    const i = FOLDERS.findIndex(([, match]) => match(path));
    const own = row(path);
    if (perFile) fileRows.push(own);
    for (const m of mutants) {
      for (const row of [own, rows[i], rows.at(-1)]) {
        if (row === undefined) continue;
        if (m.status === 'Killed' || m.status === 'Timeout') row.killed++;
        else if (m.status === 'Survived') row.survived++;
        else if (m.status === 'NoCoverage') row.noCoverage++;
        else if (m.status === 'CompileError' || m.status === 'RuntimeError') row.compileErrors++;
        else if (m.status === 'Ignored') row.ignored++;
        else row.pending++;
      }
    }
  }
  return [...fileRows, ...rows].map((r) => {
    const valid = r.killed + r.survived + r.noCoverage;
    const covered = r.killed + r.survived;
    return { ...r, score: valid === 0 ? undefined : (100 * r.killed) / valid, coveredScore: covered === 0 ? undefined : (100 * r.killed) / covered };
  });
}

export function formatSummary(rows) {
  const pct = (x) => (x === undefined ? '–' : `${x.toFixed(1)}%`);
  const lines = [
    '| Folder or file | Score | Score of covered | Killed | Survived | No coverage | Not compiling | Ignored | Pending |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    lines.push(`| ${r.name} | ${pct(r.score)} | ${pct(r.coveredScore)} | ${r.killed} | ${r.survived} | ${r.noCoverage} | ${r.compileErrors} | ${r.ignored} | ${r.pending} |`);
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const files = args.filter((a) => a !== '--per-file');
  console.log(formatSummary(summarise(files.length > 0 ? files : 'reports/mutation/mutation.json', { perFile: args.includes('--per-file') })));
}
