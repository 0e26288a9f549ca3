// The Data Requests commands' typed arguments (issue 31): which request each shape names, what is
// refused before the store is opened, and New Data Request's `{ text }`.
import * as assert from 'node:assert/strict';
import { newDataRequestCommand, parseNewRequestArgs } from '../../../src/extension/commands/dataRequests/newDataRequest';
import { parseRequestArgs } from '../../../src/extension/commands/dataRequests/requestArg';
import { closeDataRequestCommand, openDataRequestEvidenceCommand, recordExportLinkCommand, verifyDataRequestCommand, withdrawDataRequestCommand } from '../../../src/extension/commands/dataRequests/requestSteps';
import { runDataRequestCommand } from '../../../src/extension/commands/dataRequests/runDataRequest';
import { shredDataRequestKeyCommand } from '../../../src/extension/commands/dataRequests/shredDataRequest';
import { ActionNode } from '../../../src/extension/dataRequests/view';
import { CommandError } from '../../../src/extension/errors';
import { harness } from './commandHarness';
import { double } from './vscodeDouble';

const ID = '2026-11-27-ab12cd';

describe('Data Requests commands: typed arguments', () => {
  beforeEach(() => double.reset());

  it('a request is named by a node of the view (here an export action), { id }, { requestId } or the id itself; nothing or null: picked', () => {
    const node = Object.setPrototypeOf({ parent: { requestId: ID } }, ActionNode.prototype) as ActionNode;
    assert.deepEqual(parseRequestArgs([node]), { requestId: ID, node });
    assert.deepEqual(parseRequestArgs([{ id: ID }]), { requestId: ID, node: undefined });
    assert.deepEqual(parseRequestArgs([{ requestId: ID }]), { requestId: ID, node: undefined });
    assert.deepEqual(parseRequestArgs([ID]), { requestId: ID, node: undefined });
    assert.deepEqual(parseRequestArgs([]), { requestId: undefined, node: undefined });
    assert.deepEqual(parseRequestArgs([null]), { requestId: undefined, node: undefined });
  });

  it('anything else is refused at parse, by every request command, before the store is opened', async () => {
    // The harness has no Data Requests store: a handler that reached it would fail with a TypeError.
    const h = await harness([]);
    for (const d of [verifyDataRequestCommand, recordExportLinkCommand, closeDataRequestCommand, withdrawDataRequestCommand, openDataRequestEvidenceCommand, runDataRequestCommand, shredDataRequestKeyCommand]) {
      for (const bad of [{ titleId: 'AB12' }, 42, { id: 7 }]) {
        await assert.rejects(h.run(d, [bad]), (e: CommandError) => e instanceof CommandError && /acts on a data request/.test(e.message), `${d.id} ${JSON.stringify(bad)}`);
      }
    }
  });

  it('New Data Request: { text } is the identifiers (trimmed), else the editor is read; with no title configured it says so before any question', async () => {
    assert.deepEqual(parseNewRequestArgs([{ text: '  ana@example.com ' }]), { text: 'ana@example.com' });
    assert.deepEqual(parseNewRequestArgs([]), { text: undefined });
    const h = await harness([]);
    await assert.rejects(h.run(newDataRequestCommand, [{ text: 'ana@example.com' }]), (e: CommandError) => /No Platform title is configured/.test(e.message));
  });
});
