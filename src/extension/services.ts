// What every command gets: the extension's services, built once in activate().
import type * as vscode from 'vscode';
import type { AddonStates } from './addonStates';
import type { Clients } from './clients';
import type { BackgroundVerifier } from './commands/verifyDeletions';
import type { EmulatorHost } from './emulatorHost';
import type { DeletionJobStore } from './jobs';
import type { Log } from './log';
import type { Prompts } from './prompts';
import type { SecretKeys } from './secrets';
import type { TitleStore } from './titles';
import type { TitlesTreeProvider } from './tree/provider';

export interface Services {
  readonly ctx: vscode.ExtensionContext;
  readonly titles: TitleStore;
  readonly jobs: DeletionJobStore;
  readonly secrets: SecretKeys;
  readonly log: Log;
  readonly clients: Clients;
  readonly addonStates: AddonStates;
  readonly tree: TitlesTreeProvider;
  readonly emulator: EmulatorHost;
  /** Verifies queued deletions on its own while the editor is open. */
  readonly verifier: BackgroundVerifier;
  /** Swapped by tests through the test API. */
  prompts: Prompts;
}
