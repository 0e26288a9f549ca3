// Every answer the emulator gives in the unit suites is checked against the published description.
// An answer out of contract is replaced by a 500 (so the test that caused it fails, and the run goes
// on), and a root afterAll hook (loaded by .mocharc.json) lists every violation at the end.
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from '../../../src/emulator/server';
import { answerViolations, published } from '../contract/published';
import { rememberControlToken } from '../../../src/core/controlToken';

// Each test file is bundled on its own, with its own copy of this module: the record lives on
// globalThis so the hook (loaded once by .mocharc.json) sees what every copy recorded.
const shared = ((globalThis as Record<symbol, unknown>)[Symbol.for('platformExplorer.contract')] ??= { problems: [] as string[], answersChecked: 0 }) as {
  problems: string[];
  answersChecked: number;
};
const problems = shared.problems;

/** An emulator whose answers are checked; with the documented demo keys unless `o` says otherwise. */
export async function checkedEmulator(o: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const handle = await startEmulator({
    fixedKeys: true,
    ...o,
    onAnswer: (operation, httpStatus, body) => {
      // A row not yet described fails its own test in contract/rows.test.ts, and only that one.
      if (!Object.hasOwn(published.operations, operation)) return o.onAnswer?.(operation, httpStatus, body);
      shared.answersChecked++;
      const found = answerViolations(operation, httpStatus, body).map((v) => `${operation} (HTTP ${httpStatus}): ${v}`);
      problems.push(...found);
      o.onAnswer?.(operation, httpStatus, body);
      if (found.length > 0) throw new Error(`answer out of the published contract: ${found.join('; ')}`);
    },
  });
  // The helpers' control calls (emulatorControl) find its control token by origin.
  rememberControlToken(handle.origin, handle.controlToken);
  return handle;
}

/** How many answers were checked so far (the contract suite asserts it is not zero). */
export function contractAnswersChecked(): number {
  return shared.answersChecked;
}

export const mochaHooks = {
  afterAll(): void {
    if (problems.length > 0) {
      const list = problems.splice(0);
      throw new Error(`The emulator answered outside the published contract (${list.length}):\n${[...new Set(list)].slice(0, 12).join('\n')}`);
    }
  },
};
