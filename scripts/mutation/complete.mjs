#!/usr/bin/env node
// node scripts/mutation/complete.mjs REPORT... : the score per file and per folder from complete
// runs only. Stryker's instrumenter counts each file's mutants as the code is now; a file counts
// where one of the reports (Stryker's JSON report or an incremental file) decided every one of
// them. A complete report wins over an incomplete one, and a later one over an earlier one, so the
// reports of runs over different files (narrowed with --mutate) add up. Files no report completes
// are listed, with how many of their mutants were decided. Every file stryker.config.mjs mutates
// is listed, in a report or not.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import config from '../../stryker.config.mjs';
import { FOLDERS } from './summary.mjs';
import { ensureMutationTools, mutationToolPath } from './tools.mjs';

const DECIDED = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage', 'CompileError', 'RuntimeError', 'Ignored']);

/** Mutants per file as Stryker makes them from the files' text now. */
export async function mutantTotals(paths) {
  ensureMutationTools();
  const { Instrumenter } = await import(pathToFileURL(mutationToolPath('@stryker-mutator/instrumenter')).href);
  const quiet = { debug() {}, info() {}, warn() {}, error() {}, trace() {}, isDebugEnabled: () => false, isTraceEnabled: () => false, isInfoEnabled: () => false };
  const totals = {};
  for (const name of paths) {
    const r = await new Instrumenter(quiet).instrument([{ name, mutate: true, content: readFileSync(name, 'utf8') }],
      { plugins: null, excludedMutations: [], ignorers: [], mutator: { plugins: null, excludedMutations: [] } });
    totals[name] = r.mutants.length;
  }
  return totals;
}

/** Per file: the counts from the report that completes it (or the fullest), and whether it is complete. */
export function pickRuns(reports, totals) {
  const picked = {};
  for (const file of reports) {
    for (const [path, { mutants }] of Object.entries(JSON.parse(readFileSync(file, 'utf8')).files)) {
      if (!(path in totals)) continue;
      const c = { killed: 0, survived: 0, noCoverage: 0, compileErrors: 0, ignored: 0 };
      for (const m of mutants) {
        if (!DECIDED.has(m.status)) continue;
        if (m.status === 'Killed' || m.status === 'Timeout') c.killed++;
        else if (m.status === 'Survived') c.survived++;
        else if (m.status === 'NoCoverage') c.noCoverage++;
        else if (m.status === 'Ignored') c.ignored++;
        else c.compileErrors++;
      }
      const decided = c.killed + c.survived + c.noCoverage + c.compileErrors + c.ignored;
      const run = { ...c, decided, complete: decided === totals[path], report: file };
      const had = picked[path];
      if (had === undefined || run.complete || (!had.complete && decided >= had.decided)) picked[path] = run;
    }
  }
  return picked;
}

/** The files stryker.config.mjs mutates: its `dir/**\/*.ts` globs walked, less its `!dir/**\/name.ts` ones, and its plain paths. */
export function mutatedFiles() {
  const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
  const files = new Set();
  for (const pattern of config.mutate.filter((p) => !p.startsWith('!'))) {
    for (const f of pattern.endsWith('/**/*.ts') ? walk(pattern.slice(0, -'/**/*.ts'.length)) : [pattern]) files.add(f);
  }
  for (const pattern of config.mutate.filter((p) => p.startsWith('!'))) {
    const [, dir, name] = /^!(.*)\/\*\*\/(.*)$/.exec(pattern) ?? [];
    for (const f of files) if (dir !== undefined && f.startsWith(`${dir}/`) && f.endsWith(`/${name}`)) files.delete(f);
  }
  return [...files].sort();
}

const pct = (k, v) => (v === 0 ? '–' : `${((100 * k) / v).toFixed(1)}%`);

if (import.meta.url === `file://${process.argv[1]}`) {
  const reports = process.argv.slice(2);
  if (reports.length === 0) {
    console.error('Usage: node scripts/mutation/complete.mjs REPORT.json...   (Stryker JSON reports or incremental files)');
    process.exit(2);
  }
  const paths = mutatedFiles();
  const totals = await mutantTotals(paths);
  const runs = pickRuns(reports, totals);
  console.log('| File | Score | Killed + timeout | Survived | No coverage | Not compiling | Ignored | Run |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  const folders = FOLDERS.map(([name, match]) => ({ name, match, killed: 0, survived: 0, noCoverage: 0, files: 0, open: [] }));
  for (const path of paths) {
    const r = runs[path] ?? { killed: 0, survived: 0, noCoverage: 0, compileErrors: 0, ignored: 0, decided: 0, complete: false, report: '' };
    const f = folders.find((x) => x.match(path));
    const valid = r.killed + r.survived + r.noCoverage;
    if (r.complete && f !== undefined) {
      f.killed += r.killed; f.survived += r.survived; f.noCoverage += r.noCoverage; f.files++;
    } else if (f !== undefined) f.open.push(`${path} (${r.decided} of ${totals[path]} decided)`);
    const score = r.complete ? pct(r.killed, valid) : `not complete: ${r.decided} of ${totals[path]}`;
    console.log(`| ${path} | ${score} | ${r.killed} | ${r.survived} | ${r.noCoverage} | ${r.compileErrors} | ${r.ignored} | ${r.report} |`);
  }
  for (const f of folders) {
    if (f.files === 0 && f.open.length === 0) continue;
    console.log(`\n${f.name}: ${pct(f.killed, f.killed + f.survived + f.noCoverage)} over ${f.files} complete files (${f.killed} killed, ${f.survived} survived, ${f.noCoverage} no coverage)`);
    if (f.open.length > 0) console.log(`  not complete: ${f.open.join('; ')}`);
  }
}
