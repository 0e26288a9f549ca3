// The extension's settings. `serviceEndpoint` decides where secret keys are sent, so it is
// machine-scoped and restricted in untrusted workspaces (package.json); it is read from the
// user (global) level only, so a workspace can never redirect a key.
import * as vscode from 'vscode';
import { validateTitleId } from '../core/ids';

export const SECTION = 'platformExplorer';
export const DEFAULT_SERVICE_ENDPOINT = 'https://{titleId}.platform.example';

/** `npm run demo` only: the 0600 file the demo hands the emulator's titles and keys over in (demo.ts reads it). */
export const DEMO_ENV = 'PLATFORM_EXPLORER_DEMO_FILE';

export const AGENT_TITLES_SETTING = 'agentTitles';

/** The title IDs the user allowed agents to read (user settings only: a workspace cannot grant it). */
export function agentTitleIds(): Set<string> {
  const v = vscode.workspace.getConfiguration(SECTION).inspect<unknown>(AGENT_TITLES_SETTING)?.globalValue;
  const ids = Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && validateTitleId(x.trim()) === undefined) : [];
  return new Set(ids.map((x) => x.trim().toUpperCase()));
}

export type LookupResultFormat = 'json' | 'csv';

export interface Settings {
  serviceEndpoint: string;
  lookupResultFormat: LookupResultFormat;
  requestTimeoutSeconds: number;
  lookupConcurrency: number;
}

export function readSettings(): Settings {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  const endpoint = cfg.inspect<string>('serviceEndpoint');
  const format = cfg.get<string>('lookupResultFormat');
  return {
    serviceEndpoint: (endpoint?.globalValue ?? endpoint?.defaultValue ?? DEFAULT_SERVICE_ENDPOINT).trim(),
    lookupResultFormat: format === 'csv' ? 'csv' : 'json',
    requestTimeoutSeconds: clampInt(cfg.get<number>('requestTimeoutSeconds'), 1, 600, 30),
    lookupConcurrency: clampInt(cfg.get<number>('lookupConcurrency'), 1, 16, 8),
  };
}

/** Where data requests are kept and how long they have by default. */
export interface DataRequestSettings {
  /** The folder holding one folder per request: the setting, else `defaultFolder` (the extension's global storage). */
  folder: string;
  /** Days from received to due (the law's month by default). */
  dueDays: number;
  /** Days a new request's erasures are held (0: none; user settings only). */
  holdDays: number;
  /** Title IDs (upper-case) of titles that allow non-unique display names: no display-name lookup is sent there. */
  displayNamesNotUnique: string[];
}

export function readDataRequestSettings(defaultFolder: string): DataRequestSettings {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  // Machine scope, and read from the user level only, as the endpoint: a workspace never chooses where records go.
  const folder = cfg.inspect<string>('dataRequests.folder')?.globalValue?.trim();
  // The erasure hold from the user level only too: a workspace never shortens it.
  const hold = cfg.inspect<number>('dataRequests.holdDays')?.globalValue;
  // From the user level only too: a workspace never decides which lookups a request leaves out.
  const notUnique = cfg.inspect<unknown>('dataRequests.nonUniqueDisplayNameTitles')?.globalValue;
  return {
    folder: folder || defaultFolder, dueDays: clampInt(cfg.get<number>('dataRequests.dueDays'), 1, 366, 30), holdDays: clampInt(hold, 0, 90, 0),
    displayNamesNotUnique: Array.isArray(notUnique) ? notUnique.filter((t): t is string => typeof t === 'string').map((t) => t.trim().toUpperCase()) : [],
  };
}

function clampInt(v: number | undefined, min: number, max: number, fallback: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    return fallback;
  }
  return Math.min(max, Math.max(min, Math.round(v)));
}

/** Fires when a setting that changes how requests are made is edited, VS Code's proxy and certificate ones (`http.*`) included. */
export function onDidChangeSettings(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(SECTION) || e.affectsConfiguration('http')) {
      listener();
    }
  });
}
