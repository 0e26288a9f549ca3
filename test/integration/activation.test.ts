import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'platform-explorer.platform-explorer';

describe('activation', () => {
  it('the extension is installed in the host and activates', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not among the host's extensions`);
    const api: unknown = await ext.activate();
    assert.equal(ext.isActive, true);
    assert.equal(typeof api, 'object', 'activate() should return the test API object');
  });
});
