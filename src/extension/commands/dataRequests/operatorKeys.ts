// The editor's operator (core/operator.ts): its Ed25519 key and each request's pseudonymisation
// key in SecretStorage, never in settings, state or the requests folder; and Export Operator
// Public Key, which writes the public key (PEM) for auditors and opens it.
import * as vscode from 'vscode';
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { loadOperator, type KeyStore, type Operator } from '../../../core/operator';
import type { CommandContext } from '../context';
import { defineCommand, noArguments } from '../define';

const PREFIX = 'platformExplorer.keys.';

/** Keys in SecretStorage, each under platformExplorer.keys.<name>. */
export function secretKeyStore(storage: vscode.SecretStorage): KeyStore {
  return {
    where: 'the editor\'s secret storage',
    get: async (name) => (await storage.get(PREFIX + name)) || undefined,
    create: async (name, value) => {
      const had = await storage.get(PREFIX + name);
      if (had) return had;
      await storage.store(PREFIX + name, value);
      return value;
    },
    replace: (name, value) => Promise.resolve(storage.store(PREFIX + name, value)),
    delete: (name) => Promise.resolve(storage.delete(PREFIX + name)),
  };
}

/** This editor's operator (made on first use, named by the OS user name). */
export function editorOperator(ctx: Pick<vscode.ExtensionContext, 'secrets'>): Promise<Operator> {
  return loadOperator(secretKeyStore(ctx.secrets));
}

export async function exportOperatorPublicKey(c: CommandContext): Promise<{ path: string; fingerprint: string }> {
  const op = await editorOperator(c.services.ctx);
  const dir = c.services.ctx.globalStorageUri.fsPath;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, 'operator-public-key.pem');
  await writeFile(path, op.publicKeyPem, { mode: 0o644 });
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(path)), { preview: false });
  void c.ui.info(vscode.l10n.t('Operator {0}, fingerprint {1}: the public key is in {2}. Give it to auditors; they check an evidence pack with platform-explorer request verify-evidence --evidence evidence.json --signer FILE.', op.name, op.fingerprint, path));
  return { path, fingerprint: op.fingerprint };
}

export const exportOperatorPublicKeyCommand = defineCommand({
  id: 'platformExplorer.exportOperatorPublicKey',
  title: 'Export Operator Public Key',
  category: true,
  icon: 'key',
  lazy: 'requests',
  parse: noArguments,
  handler: exportOperatorPublicKey,
});
