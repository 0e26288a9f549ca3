// What every command gets: the extension's services, built once in activate().
import type * as vscode from 'vscode';
import type { ActiveTitle } from './activeTitle';
import type { ActivityStore } from './activity/store';
import type { ActivityProvider } from './activity/view';
import type { AddonStates } from './addonStates';
import type { Clients } from './clients';
import type { DataRequests } from './dataRequests/service';
import type { DataRequestsView } from './dataRequests/view';
import type { EmulatorHost } from './emulatorHost';
import type { EmulatorProbe } from './emulatorProbe';
import type { DeletionJobStore } from './jobs';
import type { Log } from './log';
import type { Prompts } from './prompts';
import type { RetryNotices } from './retryNotices';
import type { SecretKeys } from './secrets';
import type { TitleStatusBar } from './statusBar';
import type { TitleStore } from './titles';
import type { TitlesTreeProvider } from './tree/provider';
import type { BackgroundVerifier } from './verifier';

export interface Services {
  readonly ctx: vscode.ExtensionContext;
  readonly titles: TitleStore;
  readonly activeTitle: ActiveTitle;
  readonly statusBar: TitleStatusBar;
  readonly jobs: DeletionJobStore;
  readonly activity: ActivityStore;
  readonly activityView: ActivityProvider;
  readonly secrets: SecretKeys;
  readonly log: Log;
  readonly clients: Clients;
  readonly addonStates: AddonStates;
  readonly tree: TitlesTreeProvider;
  readonly emulator: EmulatorHost;
  /** Verifies queued deletions on its own while the editor is open. */
  readonly verifier: BackgroundVerifier;
  readonly emulatorProbe: EmulatorProbe;
  /** Data-subject requests: their folder, clients and keys (core/requests does the work), and their view. */
  readonly dataRequests: DataRequests;
  readonly dataRequestsView: DataRequestsView;
  /** Swapped by tests through the test API. */
  prompts: Prompts;
  /** Where a retry is said: the open progress notification, else one of its own. */
  readonly retryNotices: RetryNotices;
}
