// The HandheldStore panel's view model. ClientSecret is never shown: the client strips it
// and so does this builder (defence in depth), wherever in the result it appears, and its
// value is masked wherever else it is echoed.
import type { HandheldStoreConfig } from '../../core/api/types';
import { redactObject, secretMemberValues } from '../../core/redact';
import { fitPanel } from './budget';
import type { Block, PanelView, RenderMessage } from '../../webview/protocol';
import { cell, extraRows, isRecord, note, NOT_RETURNED, record, row, section, tableBlock, text } from './viewModel';

export interface HandheldStoreArgs {
  titleId: string;
  titleName: string;
  config: HandheldStoreConfig;
}

const ENVIRONMENT_LISTS = ['Environments', 'SubscriptionEnvironments', 'SecondarySubscriptionEnvironments'] as const;

/** A deep copy of `v` without any member named ClientSecret (in any letter case). */
export function stripClientSecrets<T>(v: T): T {
  const walk = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(walk);
    if (isRecord(x)) {
      return Object.fromEntries(Object.entries(x)
        .filter(([k]) => k.toLowerCase() !== 'clientsecret')
        .map(([k, y]) => [k, walk(y)]));
    }
    return x;
  };
  return walk(v) as T;
}

function environments(name: string, v: unknown): Block {
  if (!Array.isArray(v)) {
    return note(v === undefined || v === null ? `${name}: ${NOT_RETURNED}` : `${name}: ${text(v)}`);
  }
  const rows = v.map((x: unknown) => {
    const e = record(x);
    if (!e) return [cell(x), '—', ''];
    const extra = extraRows(e, ['ID', 'ClientID']).map((f) => `${f.label}: ${f.value ?? '—'}`).join(', ');
    return [cell(e.ID), cell(e.ClientID), extra];
  });
  // Members beyond the spec's get a column only when some environment has them.
  if (rows.some((r) => r[2] !== '')) {
    return tableBlock('', ['ID', 'ClientID', 'Other members'], rows, `${name}: none.`);
  }
  return tableBlock('', ['ID', 'ClientID'], rows.map((r) => r.slice(0, 2)), `${name}: none.`);
}

export function buildHandheldStoreView(args: HandheldStoreArgs): PanelView {
  // Secret members are removed (ClientSecret) or masked by name, and their values masked under any other name.
  const secrets = secretMemberValues(args.config);
  const c = record(redactObject(stripClientSecrets<unknown>(args.config), secrets)) ?? {};
  const blocks: Block[] = [{
    kind: 'fields',
    rows: [row('Created', c.Created), row('ApplicationID', c.ApplicationID), ...extraRows(c, ['Created', 'ApplicationID', ...ENVIRONMENT_LISTS])],
  }];
  if (c.Created === false) blocks.push(note('The HandheldStore add-on is not set up for this title.'));
  for (const name of ENVIRONMENT_LISTS) blocks.push(section(`env.${name}`, name, [environments(name, c[name])]));
  return fitPanel({
    kind: 'handheldStore',
    heading: 'HandheldStore configuration',
    subheading: `${args.titleName} (${args.titleId})`,
    actions: ['refresh'],
    blocks,
  }, secrets);
}

export function handheldStoreMessage(args: HandheldStoreArgs): RenderMessage {
  return { type: 'render', view: buildHandheldStoreView(args) };
}
