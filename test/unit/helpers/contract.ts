// Every answer the emulator gives in the unit suites is checked against the published description:
// emulators started through checkedEmulator() report each answer, and a root afterEach hook (loaded
// by .mocharc.json) fails the test during which an answer left the contract.
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from '../../../src/emulator/server';
import { answerViolations } from '../contract/published';

// Each test file is bundled on its own, with its own copy of this module: the record lives on
// globalThis so the hook (loaded once by .mocharc.json) sees what every copy recorded.
const shared = ((globalThis as Record<symbol, unknown>)[Symbol.for('platformExplorer.contract')] ??= { problems: [] as string[], answersChecked: 0 }) as {
  problems: string[];
  answersChecked: number;
};
const problems = shared.problems;

/** An emulator whose answers are checked; with the documented demo keys unless `o` says otherwise. */
export function checkedEmulator(o: EmulatorOptions = {}): Promise<EmulatorHandle> {
  return startEmulator({
    fixedKeys: true,
    ...o,
    onAnswer: (operation, httpStatus, body) => {
      shared.answersChecked++;
      for (const v of answerViolations(operation, httpStatus, body)) problems.push(`${operation} (HTTP ${httpStatus}): ${v}`);
      o.onAnswer?.(operation, httpStatus, body);
    },
  });
}

/** How many answers were checked so far (the contract suite asserts it is not zero). */
export function contractAnswersChecked(): number {
  return shared.answersChecked;
}

export const mochaHooks = {
  afterEach(): void {
    if (problems.length > 0) {
      const list = problems.splice(0);
      throw new Error(`The emulator answered outside the published contract (${list.length}):\n${[...new Set(list)].slice(0, 12).join('\n')}`);
    }
  },
};
