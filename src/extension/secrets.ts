// Title secret keys, in SecretStorage only (never settings, state, logs or documents).
// Values read or written in this session are remembered so error text can be redacted.
import * as vscode from 'vscode';
import { CommandError } from './errors';
import { Disposable } from './lifecycle';

const PREFIX = 'platformExplorer.secretKey.';

function secretStorageKey(titleId: string): string {
  return PREFIX + titleId.toUpperCase();
}

/** Error text for a secret key a user typed, or undefined when it can be used. */
export function validateSecretKey(value: string): string | undefined {
  if (value.trim().length === 0) {
    return vscode.l10n.t('The secret key is empty. Paste the title secret key from the title\'s management portal.');
  }
  if (/[\s\u0000-\u001f\u007f]/.test(value)) {
    return vscode.l10n.t('The secret key contains spaces or control characters. Paste the key alone, without spaces or line breaks.');
  }
  if (value.length > 512) {
    return vscode.l10n.t('The secret key is longer than {0} characters: check that you pasted only the key.', 512);
  }
  return undefined;
}

export class SecretKeys extends Disposable {
  private readonly seen = new Set<string>();
  private readonly changed = this._register(new vscode.EventEmitter<string>());
  /** Fires with the title ID whose key was set, replaced or cleared. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly storage: vscode.SecretStorage) {
    super();
  }

  async get(titleId: string): Promise<string | undefined> {
    const value = await this.storage.get(secretStorageKey(titleId));
    if (value) {
      this.seen.add(value);
    }
    return value || undefined;
  }

  async has(titleId: string): Promise<boolean> {
    return (await this.get(titleId)) !== undefined;
  }

  async set(titleId: string, value: string): Promise<void> {
    const problem = validateSecretKey(value);
    if (problem) {
      throw new CommandError(problem);
    }
    this.seen.add(value);
    await this.storage.store(secretStorageKey(titleId), value);
    this.changed.fire(titleId.toUpperCase());
  }

  async delete(titleId: string): Promise<void> {
    await this.storage.delete(secretStorageKey(titleId));
    this.changed.fire(titleId.toUpperCase());
  }

  /** Other secrets typed this session (e.g. identity tokens), so they are masked too. */
  remember(value: string): void {
    if (value.length >= 4) {
      this.seen.add(value);
    }
  }

  /** Secrets known this session, for redaction. */
  known(): string[] {
    return [...this.seen];
  }
}
