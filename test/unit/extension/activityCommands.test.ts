// The Activity and filter commands' and Test Launcher Login's typed arguments (issue 31).
import * as assert from 'node:assert/strict';
import { copyActivityJsonCommand, filterActivityCommand, parseActivityArgs, rerunActivityCommand } from '../../../src/extension/commands/activity';
import { filterTitlesCommand } from '../../../src/extension/commands/filterTitles';
import { parseFilterArgs } from '../../../src/extension/commands/parse';
import { testLauncherLoginCommand } from '../../../src/extension/commands/testLauncherLogin';
import { ActivityItem } from '../../../src/extension/activity/view';
import { CommandError } from '../../../src/extension/errors';
import { harness } from './commandHarness';
import { double } from './vscodeDouble';

describe('Activity, filters and Test Launcher Login: typed arguments', () => {
  beforeEach(() => double.reset());

  it('a filter\'s text is a string argument kept as given (blank clears); anything else is asked', () => {
    assert.deepEqual(parseFilterArgs(['  racer ']), { text: '  racer ' });
    assert.deepEqual(parseFilterArgs(['']), { text: '' });
    assert.deepEqual(parseFilterArgs([{ text: 'racer' }]), { text: undefined });
    assert.deepEqual(parseFilterArgs([]), { text: undefined });
    assert.equal(filterTitlesCommand.parse, parseFilterArgs);
    assert.equal(filterActivityCommand.parse, parseFilterArgs);
  });

  it('an Activity item gives its entry; anything else none; Re-run without an entry says to right-click one', async () => {
    const entry = { operation: 'GetPlayedTitleList', command: 'platformExplorer.showPlayedTitles', titleId: 'AB12' };
    const item = Object.setPrototypeOf({ entry }, ActivityItem.prototype) as ActivityItem;
    assert.equal(parseActivityArgs([item]).entry, entry);
    assert.equal(parseActivityArgs([entry]).entry, undefined);
    assert.equal(copyActivityJsonCommand.parse, parseActivityArgs);
    const h = await harness([]);
    await assert.rejects(h.run(rerunActivityCommand, [entry]), (e: CommandError) => e instanceof CommandError && /Re-run needs an entry of the Activity view/.test(e.message));
  });

  it('Test Launcher Login: { titleId } of a title not configured is refused before any question', async () => {
    const h = await harness([]);
    // No answer is scripted: a question asked would fail the run with "unexpected input" instead.
    await assert.rejects(h.run(testLauncherLoginCommand, [{ titleId: 'EEEE' }]), (e: CommandError) => /Title EEEE is not configured/.test(e.message));
  });
});
